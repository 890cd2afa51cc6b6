// A registry's skills are ranked on their bodies as folders' are (src/prompt/registry-bodies.ts): which bodies one
// query reads, and that reading them ranks a registry's skill as the same skill in a folder.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_REGISTRY_BODIES, registryBodies } from '../../../src/prompt/registry-bodies.js';
import { buildCatalog } from '../../../src/prompt/catalog.js';
import { SELECTION_INDEX_FILE } from '../../../src/prompt/selection-index.js';
import { candidateOf, selectSkills } from '../../../src/prompt/select.js';
import { registerSkills } from '../../../src/registry/register.js';
import { loadSkill } from '../../../src/skill/load.js';
import type { CatalogEntry } from '../../../src/skill/light.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';
import { writeBodyOnlySkills } from '../../helpers/body-only-skills.js';

const { fresh, cleanup } = tempFolders('skills-registry-bodies-');
afterAll(cleanup);

/** Catalog entries of stored skills `skill-<i>` under `dir`, each SKILL.md's body "# Body <i>". */
function storedEntries(dir: string, n: number, layout: 'skill-md' | 'manifest' = 'skill-md'): CatalogEntry[] {
  const tree: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    tree[`skill-${i}/SKILL.md`] = skillMd(`name: skill-${i}\ndescription: d\n`, `# Body ${i}\n`);
  writeTree(dir, tree);
  return Array.from({ length: n }, (_, i) => ({
    name: `skill-${i}`,
    title: `skill-${i}`,
    description: 'd',
    layout,
    location: join(dir, `skill-${i}`, 'SKILL.md'),
    root: join(dir, `skill-${i}`),
    scope: 'registry' as const,
    hidden: false,
  }));
}

describe('registryBodies', () => {
  it('reads the bodies of the registry skills the query reaches by their metadata, or that are read word by word', () => {
    const entries = storedEntries(fresh('store'), 5);
    const rowOf = Int32Array.from([0, 1, 2, 3, -1]);
    const may = Uint8Array.from([1, 1, 0, 1, 1]);
    const counted = Uint8Array.from([1, 1, 1, 0, 1]);
    const reached = Float64Array.from([2, 0, 5, 0, 3]);
    // 0: reached; 1: reached by nothing (a trigger pattern, say) and counted; 2: not a candidate; 3: read word by word;
    // 4: a folder's skill (its body is the catalog's).
    expect(registryBodies(entries, rowOf, may, counted, reached)).toEqual([
      '# Body 0\n',
      undefined,
      undefined,
      '# Body 3\n',
      undefined,
    ]);
  });

  it('reads at most MAX_REGISTRY_BODIES, those the query reaches most, and none of a manifest or a missing file', () => {
    const n = MAX_REGISTRY_BODIES + 10;
    const entries = storedEntries(fresh('store'), n);
    // Reached most: the last ones.
    const reached = Float64Array.from({ length: n }, (_, i) => i + 1);
    const bodies = registryBodies(
      entries,
      new Int32Array(n),
      new Uint8Array(n).fill(1),
      new Uint8Array(n).fill(1),
      reached,
    );
    const read = bodies.flatMap((b, i) => (b === undefined ? [] : [i]));
    expect(read).toEqual(Array.from({ length: MAX_REGISTRY_BODIES }, (_, k) => k + 10));
    const manifest = storedEntries(fresh('store'), 1, 'manifest');
    const gone = storedEntries(fresh('store'), 1).map((e) => ({ ...e, location: `${e.location}.gone` }));
    for (const e of [manifest, gone])
      expect(registryBodies(e, new Int32Array(1), Uint8Array.of(1), Uint8Array.of(1), Float64Array.of(1))).toEqual([
        undefined,
      ]);
  });
});

describe('selection from a registry', () => {
  it('ranks a skill on its instructions as it does in a folder', async () => {
    // Two skills whose names and descriptions say the same; only the body of the second holds "reconcile".
    const dir = fresh('skills');
    writeBodyOnlySkills(dir);
    const registry = fresh('registry');
    await registerSkills(
      registry,
      ['accounts-a', 'accounts-b'].map((s) => ({ skill: loadSkill(join(dir, s)) })),
    );
    const query = 'reconcile the invoices';
    const ranked = (c: ReturnType<typeof buildCatalog>) =>
      selectSkills(query, c.entries.map(candidateOf), { max: 3, mayMatch: c.mayMatch }).ranked.map((r) => r.name);
    const folder = buildCatalog({ folders: [{ dir, scope: 'project' }], bodies: true });
    expect(ranked(folder)).toEqual(['accounts-b', 'accounts-a']);
    // The first catalog makes the registry's selection index (and writes it), the second reads it.
    for (let run = 0; run < 2; run++) {
      expect(existsSync(join(registry, SELECTION_INDEX_FILE)), `run ${run}`).toBe(run === 1);
      const fromRegistry = buildCatalog({ folders: [], registry, bodies: true });
      expect(fromRegistry.mayMatch, `run ${run}`).toBeDefined();
      expect(ranked(fromRegistry), `run ${run}`).toEqual(['accounts-b', 'accounts-a']);
    }
  });

  it('reads the body of a skill whose description has an apostrophe, when more skills than the bound are reached', async () => {
    // A description with an apostrophe or a dash is counted only in part by the selection index; it held the query's
    // words all the same, but was reached by nothing, so read last: past MAX_REGISTRY_BODIES others, never.
    const dir = fresh('skills');
    writeBodyOnlySkills(dir, "Helps the finance team with its monthly invoices and the company's accounts.");
    const tree: Record<string, string> = {};
    for (let i = 0; i < MAX_REGISTRY_BODIES + 10; i++)
      tree[`print-${i}/SKILL.md`] = skillMd(
        `name: print-${i}\ndescription: Prints invoices as PDF files.\n`,
        '# Print\n',
      );
    writeTree(dir, tree);
    const registry = fresh('registry');
    const names = ['accounts-a', 'accounts-b', ...Object.keys(tree).map((f) => f.split('/')[0]!)];
    await registerSkills(
      registry,
      names.map((s) => ({ skill: loadSkill(join(dir, s)) })),
    );
    const query = 'reconcile the invoices';
    const first = (c: ReturnType<typeof buildCatalog>) =>
      selectSkills(query, c.entries.map(candidateOf), { max: 3, mayMatch: c.mayMatch }).ranked[0]?.name;
    expect(first(buildCatalog({ folders: [{ dir, scope: 'project' }], bodies: true }))).toBe('accounts-b');
    expect(first(buildCatalog({ folders: [], registry, bodies: true }))).toBe('accounts-b');
  });
});
