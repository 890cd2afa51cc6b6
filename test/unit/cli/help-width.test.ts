// --help fits the terminal it is shown in, narrow ones too: commander's lists and our text after them wrap.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/main.js';

/** The help of `args` as a terminal `columns` wide shows it. */
async function helpAt(columns: number, args: string[]): Promise<string> {
  let out = '';
  const stdout = Object.assign(
    new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    }),
    { isTTY: true, columns },
  );
  const code = await run([...args, '--help'], {
    cwd: process.cwd(),
    env: { NO_COLOR: '1' },
    stdout,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    version: '0.0.0',
  });
  expect(code).toBe(0);
  return out;
}

describe('--help on a narrow terminal', () => {
  for (const columns of [50, 60, 70]) {
    it(`wraps every line but the examples to ${columns} columns`, async () => {
      for (const args of [[], ['install'], ['render-prompt'], ['registry', 'sync'], ['lint']]) {
        const text = await helpAt(columns, args);
        expect(text, args.join(' ')).toContain('Usage: skills');
        // An example is a command to copy, kept whole on its line; everything else wraps.
        const long = text.split('\n').filter((l) => l.length > columns && !l.startsWith('  skills '));
        expect(long, `${args.join(' ') || 'skills'} at ${columns}`).toEqual([]);
      }
    });
  }

  it('keeps the descriptions in their column when it wraps them', async () => {
    const text = await helpAt(60, ['install']);
    const start = text.indexOf('  -a, --agent');
    const column = text.slice(start).indexOf('place');
    const next = text.slice(start).split('\n')[1]!;
    expect(next.length - next.trimStart().length).toBe(column);
  });
});
