import { describe, expect, it } from 'vitest';
import {
  isIndexV1,
  isIndexV2,
  isReleasesFile,
  parseIndex,
  parseReleases,
  schemas,
  serializeIndex,
} from '../../../src/formats/index-file.js';

const { indexSchema, indexV1Schema, releasesFileSchema } = schemas();

const release = {
  integrity: 'sha512-x',
  layout: 'manifest',
  name: 'A',
  description: 'd',
  dependencies: ['b@^1'],
  triggers: { keywords: ['k'] },
  nodeVersion: '>=18',
  systemPackages: ['ffmpeg'],
  path: 'built-in/a@1.0.0',
  registeredAt: '2024-01-01T00:00:00Z',
};
const base = {
  id: 'a',
  versions: ['1.0.0'],
  latestVersion: '1.0.0',
  owner: 'built-in',
  usedBy: [],
  registeredAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};
// The latest summary carries the release's triggers (render-prompt selects from index.json alone).
const v2 = {
  version: 2,
  skills: [
    {
      ...base,
      latest: {
        layout: 'manifest',
        name: 'A',
        description: 'd',
        path: 'built-in/a@1.0.0',
        triggers: { keywords: ['k'] },
      },
    },
  ],
};
const v1 = { version: 1, skills: [{ ...base, releases: { '1.0.0': release } }] };
const file = { id: 'a', releases: { '1.0.0': release } };

/** Every document one change away from `doc`: each value replaced by a wrong type, or removed. */
function mutations(doc: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (node: unknown, set: (v: unknown) => unknown) => {
    for (const wrong of [7, 'x', null, [], {}, undefined]) out.push(set(wrong));
    if (typeof node === 'object' && node !== null) {
      for (const key of Object.keys(node)) {
        walk((node as Record<string, unknown>)[key], (v) => {
          const copy = Array.isArray(node) ? [...node] : { ...(node as object) };
          if (v === undefined && !Array.isArray(copy)) delete (copy as Record<string, unknown>)[key];
          else (copy as Record<string, unknown>)[key] = v;
          return set(copy);
        });
      }
    }
  };
  walk(doc, (v) => v);
  return out;
}

describe('the quick checks agree with the schemas', () => {
  for (const [name, doc, quick, schema] of [
    ['index.json v2', v2, isIndexV2, indexSchema],
    ['index.json v1', v1, isIndexV1, indexV1Schema],
    ['releases file', file, isReleasesFile, releasesFileSchema],
  ] as const) {
    it(name, () => {
      expect(quick(doc)).toBe(true);
      for (const m of mutations(doc)) expect(quick(m), JSON.stringify(m)).toBe(schema.safeParse(m).success);
    });
  }
});

describe('parseIndex and parseReleases', () => {
  it('reads version 2 as is and version 1 converted; serializes version 2', () => {
    expect(parseIndex(JSON.stringify(v2)).index).toEqual(v2);
    const old = parseIndex(JSON.stringify(v1));
    expect(old.index).toEqual(v2);
    expect(old.releases?.get('a')).toEqual({ '1.0.0': release });
    expect(JSON.parse(serializeIndex(old.index!))).toEqual(v2);
  });

  it('refuses a stored copy path that leads out of the registry (a registry may come from a stranger)', () => {
    for (const path of [
      '../../home/u/.ssh',
      'built-in/../../x',
      '/etc',
      'built-in/a@1.0.0/../..',
      'built-in/..@1',
      'other/a@1.0.0',
      'built-in\\..\\a@1',
    ]) {
      const doc = { ...file, releases: { '1.0.0': { ...release, path } } };
      expect(isReleasesFile(doc), path).toBe(false);
      expect(parseReleases(JSON.stringify(doc, null, 2), 'releases/a.json').problem?.message, path).toContain(
        "expected the stored copy's folder",
      );
      const index = {
        version: 2,
        skills: [{ ...base, latest: { layout: 'manifest', name: 'A', description: 'd', path } }],
      };
      expect(parseIndex(JSON.stringify(index)).problem, path).toBeDefined();
    }
    expect(isReleasesFile({ ...file, releases: { '1.0.0': { ...release, path: 'custom/a@1.0.0+build.5' } } })).toBe(
      true,
    );
  });

  it('locates a problem in a releases file', () => {
    expect(
      parseReleases('{\n  "id": "a",\n  "releases": { "1.0.0": { "layout": 3 } }\n}', 'releases/a.json').problem,
    ).toMatchObject({ line: 3, column: 26 });
  });
});

describe('ids in index.json (issue 12)', () => {
  const entry = (id: string) => ({ ...v2.skills[0]!, id });

  it('refuses an id listed twice, at the second entry, naming both', () => {
    const doc = { version: 2, skills: [entry('a'), entry('b'), entry('a')] };
    expect(isIndexV2(doc)).toBe(false);
    const { index, problem } = parseIndex(JSON.stringify(doc, null, 2));
    expect(index).toBeUndefined();
    expect(problem?.message).toBe(
      'index.json: skills.2.id: the id "a" is listed twice (skills[0] and skills[2]): expected one entry per skill, with every version in its "versions"',
    );
    const v1twice = { version: 1, skills: [v1.skills[0], v1.skills[0]] };
    expect(isIndexV1(v1twice)).toBe(false);
    expect(parseIndex(JSON.stringify(v1twice)).problem?.message).toContain('the id "a" is listed twice');
  });

  it('refuses an id that is not a skill id, and accepts a Unicode one', () => {
    for (const id of ['', 'A', '../x', 'a--b', '-a', 'a/b', 're\u0301sume\u0301', 'x'.repeat(65)]) {
      const doc = { version: 2, skills: [entry(id)] };
      expect(isIndexV2(doc), id).toBe(false);
      expect(parseIndex(JSON.stringify(doc)).problem?.message, id).toContain('expected a skill id');
    }
    expect(parseIndex(JSON.stringify({ version: 2, skills: [entry('résumé'), entry('数据-2')] })).index).toBeDefined();
  });
});
