import { chmodSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  STALE_AFTER_MS,
  cacheFileFor,
  currentUid,
  openKeptRows,
  removeStaleCaches,
  type KeptRowsOptions,
} from '../../../src/fs/user-cache.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-user-cache-');
afterAll(cleanup);

describe('the cache files of sets of skill folders', () => {
  it('gives each set of folders a file of its own, the same one each time', () => {
    const a = cacheFileFor('/c', 'list', ['/p/.claude/skills', '/h/.agents/skills']);
    expect(a).toMatch(/^\/c\/list-[0-9a-f]{16}\.json$/);
    expect(cacheFileFor('/c', 'list', ['/p/.claude/skills', '/h/.agents/skills'])).toBe(a);
    expect(cacheFileFor('/c', 'list', ['/q/.claude/skills', '/h/.agents/skills'])).not.toBe(a);
    // The folder names are kept apart: ["ab", "c"] is not ["a", "bc"].
    expect(cacheFileFor('/c', 'list', ['ab', 'c'])).not.toBe(cacheFileFor('/c', 'list', ['a', 'bc']));
    expect(cacheFileFor('/c', 'catalog', ['/p'])).toMatch(/\/catalog-[0-9a-f]{16}\.json$/);
  });

  it('removes the files of its kind that no run wrote for a month, and nothing else', () => {
    const dir = fresh('cache');
    chmodSync(dir, 0o700);
    const old = (Date.now() - STALE_AFTER_MS - 60_000) / 1000;
    for (const name of [
      'list-0123456789abcdef.json',
      'list-fedcba9876543210.json',
      'catalog-0123456789abcdef.json',
      'list.json',
      'tokens-o200k_base.json',
    ]) {
      writeFileSync(join(dir, name), '{}');
      if (name !== 'list-fedcba9876543210.json') utimesSync(join(dir, name), old, old);
    }
    removeStaleCaches(dir, 'list');
    expect(readdirSync(dir).sort()).toEqual([
      'catalog-0123456789abcdef.json',
      'list-fedcba9876543210.json',
      'list.json',
      'tokens-o200k_base.json',
    ]);
    removeStaleCaches(join(dir, 'missing'), 'list');
  });
});

describe('the keyed rows of a cache file', () => {
  /** Rows of `{n}` by key, in `file`. */
  const open = (file: string) =>
    openKeptRows<{ n: number }>(file, {
      build: 'b1',
      field: 'rows',
      kind: 'test',
      maxBytes: 1 << 20,
      maxEntries: 100,
      uid: currentUid(),
      codec: {
        decode: (row, key) =>
          row.length === 2 && row[0] === key && typeof row[1] === 'number' ? { n: row[1] } : undefined,
        encode: (key, v) => [key, v.n],
      },
    } satisfies KeptRowsOptions<{ n: number }>);

  it('writes the start every key shares once, and reads each key whole again', () => {
    const dir = fresh('cache');
    chmodSync(dir, 0o700);
    const file = join(dir, 'test-0123456789abcdef.json');
    const rows = open(file);
    rows.put('/p/.claude/skills/one-skill', { n: 1 });
    rows.put('/p/.claude/skills/one-skill-more', { n: 2 });
    rows.put('/p/.claude/skills/two', { n: 3 });
    rows.save();
    // Cut at the last separator of what they share: each row keeps a name of its own.
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
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
});
