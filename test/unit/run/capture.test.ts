import { describe, expect, it } from 'vitest';
import {
  Capture,
  MAX_OUTPUT_BYTES,
  MAX_RESULT_DEPTH,
  ResultLineReader,
  resultLineOf,
} from '../../../src/run/capture.js';
import { maskList } from '../../../src/run/mask.js';

const MB = MAX_OUTPUT_BYTES;
const flow = { pause: () => {}, resume: () => {} };

function read(chunks: (string | Buffer)[]): ResultLineReader {
  const r = new ResultLineReader();
  for (const c of chunks) r.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  r.end();
  return r;
}

describe('ResultLineReader', () => {
  it('reads the last result line from all of stdout, past the megabyte that is kept', () => {
    const r = read([
      '{"success": true, "result": 1}\n',
      'x'.repeat(3 * MB),
      '\n{"success": false, "error": "late"}\nbye',
    ]);
    expect(r).toMatchObject({ last: { success: false, error: 'late' }, unreadable: undefined });
  });

  it('reads a result line however it is cut into chunks, with or without a final newline', () => {
    const text = 'log\n{"success": false, "error": "e"}\r\n';
    for (let i = 0; i <= text.length; i++) {
      for (const t of [text, text.trimEnd()]) {
        expect(read([t.slice(0, i), t.slice(i)]).last, `cut at ${i}`).toEqual({ success: false, error: 'e' });
      }
    }
  });

  it('makes the result unknown when a line too long to read may be it, until a later result line', () => {
    const long = `{"success": false, "error": "${'e'.repeat(MB)}"}`;
    expect(read(['{"success": true}\n', long, '\n'])).toMatchObject({ unreadable: 'long' });
    expect(read([`   ${long}`])).toMatchObject({ unreadable: 'long' });
    expect(read([' '.repeat(MB + 5), '\n'])).toMatchObject({ unreadable: 'long' });
    expect(read([long, '\n{"success": true, "result": 2}\n'])).toMatchObject({
      unreadable: undefined,
      last: { success: true, result: 2 },
    });
    // A long line that cannot be a result line changes nothing.
    expect(read(['{"success": true}\n', 'x'.repeat(2 * MB), '\n'])).toMatchObject({
      unreadable: undefined,
      last: { success: true },
    });
  });

  it('makes the result unknown when a line nests deeper than MAX_RESULT_DEPTH, not counting brackets in strings', () => {
    const nested = (n: number, inner = '1') =>
      `{"success": true, "result": ${'['.repeat(n - 1)}${inner}${']'.repeat(n - 1)}}`;
    const deep = nested(MAX_RESULT_DEPTH + 1);
    expect(read(['{"success": true}\n', deep, '\n'])).toMatchObject({ unreadable: 'deep', last: { success: true } });
    expect(read([nested(5000), '\n'])).toMatchObject({ unreadable: 'deep' });
    expect(resultLineOf(deep)).toBeUndefined();
    // As deep as allowed is read; brackets and escaped quotes inside strings do not count.
    const atLimit = read([nested(MAX_RESULT_DEPTH, '"[[[\\"{{{"'), '\n']);
    expect(atLimit.unreadable).toBeUndefined();
    expect(atLimit.last?.success).toBe(true);
    const brackets = `{"success": true, "result": "${'['.repeat(5000)}\\"${'{'.repeat(5000)}"}`;
    expect(read([brackets, '\n'])).toMatchObject({ unreadable: undefined, last: { success: true } });
    // A later result line is read.
    expect(read([deep, '\n{"success": false}\n'])).toMatchObject({ unreadable: undefined, last: { success: false } });
  });

  it('reads a key written with \\u escapes', () => {
    expect(read(['{"\\u0073uccess": false}\n']).last).toEqual({ success: false });
  });
});

describe('Capture', () => {
  it('passes bytes through and keeps them as they are', () => {
    const written: Buffer[] = [];
    const sink = { write: (b: Uint8Array | string) => (written.push(Buffer.from(b)), true), once: () => undefined };
    const c = new Capture(maskList(['s3cr3t-x']), sink);
    const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    c.add(binary, flow);
    c.add(Buffer.from('s3cr'), flow);
    c.add(Buffer.from('3t-x'), flow);
    c.finish();
    expect(Buffer.concat(written).equals(Buffer.concat([binary, Buffer.from('***')]))).toBe(true);
    expect(c.bytes.equals(Buffer.concat(written))).toBe(true);
    expect(c.dropped).toBe(0);
  });

  it('masks a secret before the cap cuts, and counts what it dropped', () => {
    const secret = 's3cr3t-value';
    for (const before of [MB - 12, MB - 5, MB - 1, MB - 3, MB]) {
      const c = new Capture(maskList([secret]), undefined);
      c.add(Buffer.alloc(before, 'x'), flow);
      c.add(Buffer.from(secret.slice(0, 4)), flow);
      c.add(Buffer.from(`${secret.slice(4)}\n${'y'.repeat(100)}`), flow);
      c.finish();
      const kept = c.bytes.toString();
      expect(kept.length).toBe(MB);
      expect(kept.slice(before)).toBe('***\n'.concat('y'.repeat(100)).slice(0, MB - before));
      expect(kept).not.toMatch(/s3c|s3$|s$/);
      expect(c.dropped).toBeGreaterThan(0);
    }
  });
});
