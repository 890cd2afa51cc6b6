// A registry skill's catalog entry is its own selection candidate (selection-index.ts RegistryEntry): checked against
// the two objects it replaces, the entry skill/light.ts entryOf made and the candidate select.ts candidateOf made of
// it, on thousands of generated rows.
import { describe, expect, it } from 'vitest';
import { candidateOf } from '../../../src/prompt/select.js';
import { catalogEntryOf, isRegistryEntry, type Row } from '../../../src/prompt/selection-index.js';
import { entryOf, type CatalogEntry } from '../../../src/skill/light.js';

/** A seeded generator of numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const WORDS = ['pdf', 'merge', 'invoice', 'scrape', 'how to', 'café', '', 'a\tb', '"quoted"'];

function rowOf(rand: () => number, k: number): Row {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)]!;
  const list = () => (rand() < 0.3 ? undefined : Array.from({ length: Math.floor(rand() * 3) }, () => pick(WORDS)));
  const t: Row[7] = rand() < 0.4 ? null : {};
  if (t) {
    const [keywords, verbs, patterns] = [list(), list(), list()];
    if (keywords) t.keywords = keywords;
    if (verbs) t.verbs = verbs;
    if (patterns) t.patterns = patterns;
  }
  const id = `skill-${k}`;
  return [
    id,
    pick(['1.0.0', '2.4.0', '']),
    pick(['skill-md', 'manifest'] as const),
    pick([id, `Skill ${k}`, '']),
    pick(['Merge PDFs. Use when asked.', '', 'Ünïcode déscription']),
    pick(['', `custom/${id}@1.0.0`, `built-in/${id}@2.4.0`]),
    pick([null, '', 'Merges PDFs.']),
    t,
    pick([0, 1] as const),
  ];
}

/** The entry as catalogEntryOf made it before: through entryOf, with the triggers' lists filled in. */
function entryBefore(r: Row, root: string): CatalogEntry {
  const t = r[7];
  const triggers = t ? { keywords: t.keywords ?? [], verbs: t.verbs ?? [], patterns: t.patterns ?? [] } : undefined;
  const file = r[2] === 'skill-md' ? 'SKILL.md' : 'manifest.json';
  return entryOf(
    r[0],
    r[3],
    r[4],
    r[6] || undefined,
    r[1],
    triggers,
    r[2],
    `${root}/${file}`,
    root,
    'registry',
    r[8] === 1,
    undefined,
  );
}

describe('a registry entry that is its own selection candidate', () => {
  it('holds the fields of the entry and of its candidate as they were made apart, on 5,000 rows', () => {
    const rand = random(18);
    for (let k = 0; k < 5000; k++) {
      const r = rowOf(rand, k);
      const root = `/reg/${r[5] || 'none'}`;
      const e = catalogEntryOf(r, root);
      const before = entryBefore(r, root);
      const { keywords, verbs, patterns, ...entry } = e;
      // Every field of the entry, absent ones included, with the same values and in the same order.
      expect(entry, JSON.stringify(r)).toStrictEqual(before);
      expect(Object.keys(entry)).toEqual(Object.keys(before));
      // What selection reads of it: what candidateOf gives of the entry made before.
      const candidate = candidateOf(before);
      const read = {
        name: e.name,
        description: e.description,
        briefDescription: e.briefDescription || undefined,
        keywords,
        verbs,
        patterns,
        body: e.body,
      };
      expect(read, JSON.stringify(r)).toStrictEqual(candidate);
      expect(isRegistryEntry(e)).toBe(true);
    }
  });

  it("is told from a folder's entry, which is not one", () => {
    const folder = entryOf(
      'x',
      'x',
      'd',
      undefined,
      undefined,
      undefined,
      'skill-md',
      '/p/x/SKILL.md',
      '/p/x',
      'project',
      false,
      undefined,
    );
    expect(isRegistryEntry(folder)).toBe(false);
    expect(isRegistryEntry({ ...folder, scope: 'user' })).toBe(false);
  });
});
