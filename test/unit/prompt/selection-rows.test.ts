import { describe, expect, it } from 'vitest';
import { decodeRows, encodeRows, remapRows, type Postings } from '../../../src/prompt/selection-rows.js';

// A small seeded generator: the same cases every run.
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PAYLOADS = ['', 'A', 'D', 'AD2', 'B3C', 'D255'];

describe('remapRows', () => {
  it('gives what encodeRows writes of the rows renumbered and merged, copying unchanged steps', () => {
    const rnd = random(7);
    for (let n = 0; n < 2000; n++) {
      const limit = 1 + Math.floor(rnd() * 3000);
      const old: Postings = { rows: [], payloads: [] };
      for (let r = 0; r < limit; r++)
        if (rnd() < 0.05) {
          old.rows.push(r);
          old.payloads.push(PAYLOADS[Math.floor(rnd() * PAYLOADS.length)]!);
        }
      if (old.rows.length === 0) continue;
      // Old rows kept (rising, some gone), with new rows taken by the added ones in between.
      const moved = new Int32Array(limit).fill(-1);
      const added: Postings = { rows: [], payloads: [] };
      let next = 0;
      for (let r = 0; r < limit; r++) {
        while (rnd() < 0.01) {
          if (rnd() < 0.3) {
            added.rows.push(next);
            added.payloads.push(PAYLOADS[Math.floor(rnd() * PAYLOADS.length)]!);
          }
          next++;
        }
        if (rnd() < 0.97) moved[r] = next++;
      }
      if (rnd() < 0.5) {
        added.rows.push(next + 3);
        added.payloads.push('C');
      }
      const text = `key\t${encodeRows(old)}`;
      const want: Postings = { rows: [], payloads: [] };
      const where: number[] = [];
      const rows = decodeRows(text, 4, text.length, limit, where)!;
      const kept = rows.flatMap((r, k) =>
        moved[r]! < 0 ? [] : [{ row: moved[r]!, payload: text.slice(where[2 * k], where[2 * k + 1]) }],
      );
      const all = [...kept, ...added.rows.map((row, k) => ({ row, payload: added.payloads[k]! }))].sort(
        (a, b) => a.row - b.row,
      );
      for (const p of all) {
        want.rows.push(p.row);
        want.payloads.push(p.payload);
      }
      expect(remapRows(text, 4, text.length, moved, added)).toBe(encodeRows(want));
    }
  });

  it('is null for a damaged line, as decodeRows is', () => {
    const moved = Int32Array.from({ length: 50 }, (_, i) => i);
    for (const line of ['', '1,', ',1', '1,0', '1!', '1Ab', '1,2,zz', '1a,-2', 'A', '1,,2', '3D,1x'])
      expect([line, remapRows(line, 0, line.length, moved, undefined)]).toEqual([
        line,
        decodeRows(line, 0, line.length, 50) === null ? null : expect.any(String),
      ]);
    expect(remapRows('1', 0, 1, moved, undefined)).toBe('1');
    expect(remapRows('1,2D3,z', 0, 7, moved, undefined)).toBe('1,2D3,z');
  });
});
