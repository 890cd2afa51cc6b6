import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Query {
  query: string;
  expected: string[];
}
interface Collection {
  folder: string;
  repo: string;
  commit: string;
  skills: number;
  paths?: string[];
}
interface SetEntry {
  seed: number;
  draws: number;
  collections: Collection[];
}

const dir = join(import.meta.dirname, '..', '..', '..', 'bench', 'selection');
const read = <T>(file: string): T => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
const { sets } = read<{ sets: Record<string, SetEntry> }>('other-collections.json');
const files = readdirSync(dir);

describe('the blind sets over other collections (bench/selection/other-queries-N.json)', () => {
  it('has one entry in other-collections.json for each set file, the first over its four collections', () => {
    expect(Object.keys(sets).sort()).toEqual(files.filter((f) => /^other-queries-\d+\.json$/.test(f)).sort());
    expect(Object.keys(sets)).toEqual(
      expect.arrayContaining(['other-queries-1.json', 'other-queries-2.json', 'other-queries-3.json']),
    );
    expect(sets['other-queries-1.json'].collections.map((c) => c.folder)).toEqual([
      'K-Dense-AI+claude-scientific-skills',
      'getsentry+skills',
      'expo+skills',
      'posit-dev+skills',
    ]);
  });

  it('draws each set from collections no other set uses, none of the four tuned on, each pinned', () => {
    const all = Object.values(sets).flatMap((s) => s.collections.map((c) => c.repo));
    expect(new Set(all).size).toBe(all.length);
    expect(all.filter((r) => /^(anthropics|obra|openai|trailofbits)\//.test(r))).toEqual([]);
    for (const [file, s] of Object.entries(sets)) {
      for (const c of s.collections) {
        expect(c.commit).toMatch(/^[0-9a-f]{40}$/);
        expect(c.folder).toBe(c.repo.replace('/', '+'));
      }
      // from the second set on, no collection is more than half of the catalog (the first drew 134 of 195 from one)
      if (file === 'other-queries-1.json') continue;
      const total = s.collections.reduce((n, c) => n + c.skills, 0);
      expect(Math.max(...s.collections.map((c) => c.skills))).toBeLessThanOrEqual(total / 2);
    }
  });

  for (const [file, entry] of Object.entries(sets)) {
    describe(file, () => {
      const set = read<Query[]>(file);
      const folders = entry.collections.map((c) => c.folder);

      it('holds one request per draw, one or two skills each, then 30 no skill fits, each once', () => {
        const fit = set.filter((q) => q.expected.length > 0);
        expect([set.length, fit.length]).toEqual([entry.draws + 30, entry.draws]);
        expect(fit.every((q) => q.expected.length <= 2)).toBe(true);
        expect(new Set(fit.map((q) => q.expected[0])).size).toBe(entry.draws);
        expect(new Set(set.map((q) => q.query.toLowerCase())).size).toBe(set.length);
      });

      it('names expected skills in its own collections only', () => {
        for (const q of set) for (const e of q.expected) expect(folders).toContain(e.slice(0, e.indexOf('/')));
      });

      it('holds no request of another set', () => {
        const earlier = new Set(
          files
            .filter((f) => /^(real|other)-queries(-\d+)?\.json$/.test(f) && f !== file)
            .flatMap((f) => read<Query[]>(f))
            .map((q) => q.query.toLowerCase()),
        );
        expect(set.filter((q) => earlier.has(q.query.toLowerCase()))).toEqual([]);
      });
    });
  }

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
