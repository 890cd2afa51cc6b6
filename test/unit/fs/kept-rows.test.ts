// The keyed rows of a user cache file: one row a line, found by key without parsing, each parsed only when asked
// for; a damaged line costs its row alone; a file of another layout is read whole.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openKeptRows, type KeptRowsOptions, type RowCodec } from '../../../src/fs/kept-rows.js';
import { currentUid } from '../../../src/fs/user-cache.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-kept-rows-');
afterAll(cleanup);

/** A cache file's path in a folder of the user's own. */
const cacheFile = () => {
  const dir = fresh('cache');
  chmodSync(dir, 0o700);
  return join(dir, 'test-0123456789abcdef.json');
};

const numbers: RowCodec<{ n: number }> = {
  decode: (row, key) => (row.length === 2 && row[0] === key && typeof row[1] === 'number' ? { n: row[1] } : undefined),
  encode: (key, v) => [key, v.n],
};

/** The options every file of these tests is opened with, but its codec. */
const OPTIONS = { build: 'b1', field: 'rows', kind: 'test', maxBytes: 1 << 20, maxEntries: 100, uid: currentUid() };

/** Rows of `{n}` by key, in `file`; `decoded` counts the rows parsed into values. */
function open(file: string, extra: Partial<KeptRowsOptions<{ n: number }>> = {}) {
  const seen = { decoded: 0 };
  const rows = openKeptRows<{ n: number }>(file, {
    ...OPTIONS,
    codec: {
      decode: (row, key, strings) => {
        seen.decoded++;
        return numbers.decode(row, key, strings);
      },
      encode: numbers.encode,
    },
    ...extra,
  });
  return Object.assign(rows, { decodedCount: () => seen.decoded });
}

describe('the keyed rows of a cache file', () => {
  it('writes one row a line, the start every key shares once, and reads each key whole again', () => {
    const file = cacheFile();
    const rows = open(file);
    rows.put('/p/.claude/skills/one-skill', { n: 1 });
    rows.put('/p/.claude/skills/one-skill-more', { n: 2 });
    rows.put('/p/.claude/skills/two', { n: 3 });
    rows.save();
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(
      '{"build":"b1","base":"/p/.claude/skills/","rows":[\n["one-skill",1],\n["one-skill-more",2],\n["two",3]\n]}\n',
    );
    // Still one JSON document: cut at the last separator of what the keys share, each row keeps a name of its own.
    expect(JSON.parse(text)).toEqual({
      build: 'b1',
      base: '/p/.claude/skills/',
      rows: [
        ['one-skill', 1],
        ['one-skill-more', 2],
        ['two', 3],
      ],
    });
    const again = open(file);
    expect(['one-skill', 'one-skill-more', 'two', 'one'].map((k) => again.get(`/p/.claude/skills/${k}`)?.n)).toEqual([
      1,
      2,
      3,
      undefined,
    ]);
    expect(again.get('one-skill')).toBeUndefined();
    // A file of no base (as written before) is read as it is.
    writeFileSync(file, JSON.stringify({ build: 'b1', rows: [['/q/x', 4]] }));
    expect(open(file).get('/q/x')?.n).toBe(4);
  });

  it('parses a row only when it is asked for, and holds no value it only read', () => {
    const file = cacheFile();
    const rows = open(file);
    for (let i = 0; i < 50; i++) rows.put(`/p/s${i}`, { n: i });
    rows.save();
    const again = open(file);
    expect(again.decodedCount()).toBe(0);
    expect(again.get('/p/s7')?.n).toBe(7);
    expect(again.decodedCount()).toBe(1);
    again.use('/p/s7', { n: 7 });
    // Read from the file's bytes again: the value used is not kept in memory.
    expect(again.get('/p/s7')?.n).toBe(7);
    expect(again.decodedCount()).toBe(2);
    expect(again.get('/p/nothing')).toBeUndefined();
    expect(again.decodedCount()).toBe(2);
  });

  it('drops a damaged line and reads every other row', () => {
    const file = cacheFile();
    const rows = open(file);
    for (const [k, n] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ] as const)
      rows.put(`/p/${k}`, { n });
    rows.save();
    const text = readFileSync(file, 'utf8');
    // b's value is no number, c's line is cut short, and a line that is no row at all is passed over.
    const damaged = text.replace('["b",2]', '["b","two"]').replace('["c",3]', '["c",3').replace('["d"', 'x\n["d"');
    writeFileSync(file, damaged);
    const again = open(file);
    expect(['a', 'b', 'c', 'd'].map((k) => again.get(`/p/${k}`)?.n)).toEqual([1, undefined, undefined, 4]);
    // Written again whole, without them.
    again.put('/p/e', { n: 5 });
    again.save();
    expect(JSON.parse(readFileSync(file, 'utf8')).rows).toEqual([
      ['e', 5],
      ['a', 1],
      ['d', 4],
    ]);
  });

  it('finds keys that JSON escapes, one row a line', () => {
    const file = cacheFile();
    const keys = ['/p/quo"te', '/p/back\\slash', '/p/new\nline', '/p/tab\there', '/p/é', '/p/🙂', '/p/sep\u2028x'];
    const rows = open(file);
    keys.forEach((k, n) => rows.put(k, { n }));
    rows.save();
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')).toHaveLength(keys.length + 3);
    const again = open(file);
    expect(keys.map((k) => again.get(k)?.n)).toEqual(keys.map((_, n) => n));
    expect(again.get('/p/quo')).toBeUndefined();
    expect(again.get('/p/back')).toBeUndefined();
  });

  it('after a change, writes the rows only read again with their strings, and no string of a row gone', () => {
    const file = cacheFile();
    const strings: RowCodec<{ s: string }> = {
      decode: (row, key, table) => {
        const s = typeof row[1] === 'number' ? table[row[1]] : undefined;
        return row.length === 2 && row[0] === key && s !== undefined ? { s } : undefined;
      },
      encode: (key, v, intern) => [key, intern(v.s)],
    };
    const openText = () => openKeptRows(file, { ...OPTIONS, codec: strings });
    const first = openText();
    for (const k of ['a', 'b', 'c']) first.put(`/p/${k}`, { s: `text of ${k}` });
    first.save();
    const second = openText();
    second.use('/p/a', second.get('/p/a')!);
    second.drop('/p/b');
    second.put('/p/d', { s: 'text of d' });
    second.save();
    const data = JSON.parse(readFileSync(file, 'utf8'));
    // This run's rows first (used, then made), then the others.
    expect(data.rows.map((r: unknown[]) => r[0])).toEqual(['a', 'd', 'c']);
    expect(data.strings).toEqual(['text of a', 'text of d', 'text of c']);
    const third = openText();
    expect(['a', 'b', 'c', 'd'].map((k) => third.get(`/p/${k}`)?.s)).toEqual([
      'text of a',
      undefined,
      'text of c',
      'text of d',
    ]);
  });

  it('reads nothing from a file cut short or of another build, and a file of another layout whole', () => {
    const file = cacheFile();
    const rows = open(file);
    for (let i = 0; i < 5; i++) rows.put(`/p/s${i}`, { n: i });
    rows.save();
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    // Cut at the end of a line: the last line is a row, not the end of the document.
    writeFileSync(file, `${lines.slice(0, 4).join('\n')}\n`);
    expect(open(file).get('/p/s0')).toBeUndefined();
    writeFileSync(file, text.replace('"b1"', '"b2"'));
    expect(open(file).get('/p/s0')).toBeUndefined();
    // The same document laid out otherwise is still read.
    writeFileSync(file, JSON.stringify(JSON.parse(text), null, 2));
    expect(open(file).get('/p/s3')?.n).toBe(3);
    // At most maxEntries rows are read, the first ones.
    writeFileSync(file, text);
    const few = open(file, { maxEntries: 2 });
    expect([0, 1, 2].map((i) => few.get(`/p/s${i}`)?.n)).toEqual([0, 1, undefined]);
  });
});
