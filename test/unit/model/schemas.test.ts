import { describe, expect, it } from 'vitest';
import {
  fitsManifestShape,
  fitsSkillMdShape,
  manifestSchema,
  MANIFEST_KEYS,
  skillMdSchema,
} from '../../../src/model/schemas.js';

// The plain shape checks let a valid skill skip zod: they must say true exactly when zod finds nothing (else a
// skill zod rejects would pass silently, or the fast path would never be taken).
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = random(18);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const SCALARS = ['x', '', 'true', 'False', 'yes', 'FOO_BAR', '1abc', 'a-b', 3, 0, true, false, null, undefined];
const scalar = () => pick(SCALARS);
const list = () =>
  Array.from({ length: Math.floor(rand() * 3) }, () => (rand() < 0.8 ? pick(['x', 'A_1', '']) : scalar()));
const mapping = (keys: string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter(() => rand() < 0.5).map((k) => [k, rand() < 0.8 ? list() : scalar()]));
function value(): unknown {
  switch (Math.floor(rand() * 8)) {
    case 0:
    case 1:
      return scalar();
    case 2:
    case 3:
      return list();
    case 4:
      return mapping(['keywords', 'verbs', 'patterns', ...(rand() < 0.2 ? ['other'] : [])]);
    case 5:
      return Object.fromEntries([['k', rand() < 0.8 ? 'v' : scalar()]]);
    case 6:
      return rand() < 0.5 ? [] : [{ name: 'm', type: 'local', command: 'node' }];
    default:
      return pick([new Date(0), new Map(), [undefined], ['a', 2]]);
  }
}

function check(
  keys: string[],
  fits: (d: Record<string, unknown>) => boolean,
  schema: () => { safeParse: (d: unknown) => { success: boolean } },
) {
  let accepted = 0;
  // For each key, the candidate values that zod takes there alone: most draws are right, a few are not.
  const candidates = [
    ...['x', '', 'true', 'FALSE', true, false, ['x'], [], ['A_1', 'b'], { keywords: ['x'] }, { verbs: [] }],
    ...[{ k: 'v' }, {}, [{ name: 'm', type: 'remote', url: 'https://example.com' }]],
  ];
  const fitting = new Map(keys.map((k) => [k, candidates.filter((c) => schema().safeParse({ [k]: c }).success)]));
  for (let i = 0; i < 4000; i++) {
    const data: Record<string, unknown> = {};
    for (const k of [...keys, 'unknown-key']) {
      if (rand() < 0.3) data[k] = rand() < 0.85 ? pick(fitting.get(k) ?? ['x']) : value();
    }
    const zodSays = schema().safeParse(data).success;
    const servers = data.mcpServers;
    const plainSays = fits(data);
    // mcpServers other than none are always left to zod.
    if (servers === undefined || (Array.isArray(servers) && servers.length === 0)) {
      expect(plainSays, JSON.stringify(data)).toBe(zodSays);
    } else {
      expect(plainSays).toBe(false);
    }
    if (plainSays) accepted++;
  }
  // Enough of each kind: the draws that fit are many, and so are those that do not.
  expect(accepted).toBeGreaterThan(100);
  expect(accepted).toBeLessThan(3900);
}

describe('the plain shape checks', () => {
  it('accept a SKILL.md frontmatter exactly when zod does', () => {
    check(Object.keys(skillMdSchema().shape), fitsSkillMdShape, skillMdSchema);
  });

  it('accept a manifest exactly when zod does, and leave declared MCP servers to zod', () => {
    check(Object.keys(manifestSchema().shape), fitsManifestShape, manifestSchema);
    expect(MANIFEST_KEYS).toEqual(Object.keys(manifestSchema().shape));
    expect(fitsManifestShape({ mcpServers: [{ name: 'm', type: 'local', command: 'node' }] })).toBe(false);
  });

  it('take the usual frontmatter of a valid skill without zod', () => {
    expect(
      fitsSkillMdShape({
        name: 'pdf',
        description: 'Fill PDF forms. Use when a form is given.',
        version: '1.2.3',
        metadata: { author: 'me' },
        triggers: { keywords: ['pdf'], verbs: ['fill'] },
        scripts: ['scripts/x.sh'],
        default_enabled: 'true',
        'argument-hint': '[file]',
      }),
    ).toBe(true);
    expect(fitsSkillMdShape({ name: 'pdf', triggers: { keywords: ['pdf'], when: ['x'] } })).toBe(false);
    expect(fitsSkillMdShape({ name: 'pdf', metadata: { n: 3 } })).toBe(false);
  });
});
