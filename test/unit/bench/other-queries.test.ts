import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Query {
  query: string;
  expected: string[];
}

const dir = join(import.meta.dirname, '..', '..', '..', 'bench', 'selection');
const read = <T>(file: string): T => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;

describe('the blind set over other collections (bench/selection/other-queries-1.json)', () => {
  const set = read<Query[]>('other-queries-1.json');
  const { collections } = read<{ collections: { folder: string; commit: string }[] }>('other-collections.json');
  const folders = collections.map((c) => c.folder);

  it('holds 150 requests some skill fits, one or two skills each, and 30 no skill fits, each once', () => {
    const fit = set.filter((q) => q.expected.length > 0);
    expect([set.length, fit.length]).toEqual([180, 150]);
    expect(fit.every((q) => q.expected.length <= 2)).toBe(true);
    expect(new Set(fit.map((q) => q.expected[0])).size).toBe(150);
    expect(new Set(set.map((q) => q.query.toLowerCase())).size).toBe(set.length);
  });

  it('names expected skills in the listed collections, each at a pinned commit, and none of the four tuned on', () => {
    for (const c of collections) expect(c.commit).toMatch(/^[0-9a-f]{40}$/);
    for (const q of set) for (const e of q.expected) expect(folders).toContain(e.slice(0, e.indexOf('/')));
    expect(folders.filter((f) => /^(anthropics|obra|openai|trailofbits)\+/.test(f))).toEqual([]);
  });

  it('holds no request of the sets over the four collections', () => {
    const earlier = new Set(
      readdirSync(dir)
        .filter((f) => /^real-queries(-\d+)?\.json$/.test(f))
        .flatMap((f) => read<Query[]>(f))
        .map((q) => q.query.toLowerCase()),
    );
    expect(set.filter((q) => earlier.has(q.query.toLowerCase()))).toEqual([]);
  });

  it('is measured by measure.mjs given its path (a number still names real-queries-N.json)', () => {
    const measure = join(dir, 'measure.mjs');
    const byPath = spawnSync(process.execPath, [measure, join(dir, 'no-such-set.json'), 'cli.js', 'folder'], {
      encoding: 'utf8',
    });
    expect(byPath.status).not.toBe(0);
    expect(byPath.stderr).toContain('no-such-set.json');
    const byNumber = spawnSync(process.execPath, [measure, '999', 'cli.js', 'folder'], { encoding: 'utf8' });
    expect(byNumber.stderr).toContain(join(dir, 'real-queries-999.json'));
  });
});
