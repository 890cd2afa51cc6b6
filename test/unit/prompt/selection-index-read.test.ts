import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog, type Catalog } from '../../../src/prompt/catalog.js';
import {
  SELECTION_INDEX_FILE,
  indexIdentity,
  readSelectionIndex,
  writeSelectionIndex,
} from '../../../src/prompt/selection-index.js';
import { readIndex } from '../../../src/registry/index-io.js';
import { registerSkill } from '../../../src/registry/register.js';
import { loadSkill } from '../../../src/skill/load.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

// A registry's skills read from its selection index into the catalog: without take()'s lookups when nothing could
// shadow or disable one (catalog.ts addUnique), and the same catalog as read from index.json.

const { fresh, cleanup } = tempFolders('skills-selection-read-');
afterAll(cleanup);

const fm = (name: string, description: string, extra = '') =>
  skillMd(`name: ${name}\ndescription: ${JSON.stringify(description)}\nmetadata:\n  version: "1.0.0"\n${extra}`);
const md = (name: string, description: string, extra = '') => {
  const dir = fresh(`src-${name}`);
  writeTree(dir, { [`${name}/SKILL.md`]: fm(name, description, extra) });
  return loadSkill(join(dir, name));
};

/** A registry of visible and hidden skills, some described in text that is not ASCII. */
async function registry(): Promise<string> {
  const reg = fresh('reg');
  await registerSkill(reg, md('alpha-tool', 'Converts invoices to PDF. Use when billing.'));
  await registerSkill(reg, md('beta-tool', 'Résumé builder — für Lebensläufe 😀. Use when applying for a job.'));
  await registerSkill(
    reg,
    md('gamma-quiet', 'Runs only when named. Use when asked by name.', 'disable-model-invocation: true'),
  );
  await registerSkill(reg, md('delta-tool', 'Draws charts of sales. Use when plotting.'));
  return reg;
}

/** The catalog's parts that do not depend on how the registry was read. */
const shown = (c: Catalog) => {
  const { mayMatch: _m, registryRun: _r, ...rest } = c;
  return JSON.stringify(rest);
};

describe('the registry read from its selection index into the catalog', () => {
  it('reads rows of text that is not ASCII back as written', async () => {
    const reg = await registry();
    writeSelectionIndex(reg, readIndex(reg).skills, indexIdentity(reg)!);
    const index = readSelectionIndex(reg)!;
    expect(index.rows.map((r) => r[4])).toContain('Résumé builder — für Lebensläufe 😀. Use when applying for a job.');
  });

  it('lists and hides the same skills, in the same order, as read from index.json', async () => {
    const reg = await registry();
    // index.json alone (no selection index: not written for a catalog without a query).
    rmSync(join(reg, SELECTION_INDEX_FILE), { force: true });
    const plain = buildCatalog({ folders: [], registry: reg });
    expect(plain.mayMatch).toBeUndefined();
    writeSelectionIndex(reg, readIndex(reg).skills, indexIdentity(reg)!);
    const indexed = buildCatalog({ folders: [], registry: reg });
    expect(indexed.registryRun).toBeDefined();
    expect(indexed.entries.map((e) => e.name)).toEqual(['alpha-tool', 'beta-tool', 'delta-tool']);
    expect(indexed.hidden.map((e) => e.name)).toEqual(['gamma-quiet']);
    expect(shown(indexed)).toBe(shown(plain));
  });

  it('still shadows and disables registry skills by name when folders or disabledSkills name them', async () => {
    const reg = await registry();
    writeSelectionIndex(reg, readIndex(reg).skills, indexIdentity(reg)!);
    const project = fresh('project');
    writeTree(project, { 'beta-tool/SKILL.md': fm('beta-tool', 'The project copy. Use when testing.') });
    const c = buildCatalog({ folders: [{ dir: project, scope: 'project' }], registry: reg, disabled: ['delta-tool'] });
    expect(c.entries.map((e) => `${e.name}:${e.scope}`)).toEqual(['beta-tool:project', 'alpha-tool:registry']);
    expect(c.shadowed.map((s) => `${s.name}:${s.scope}`)).toEqual(['beta-tool:registry']);
    expect(c.disabled).toEqual(['delta-tool']);
    expect(c.hidden.map((e) => e.name)).toEqual(['gamma-quiet']);
    // A folder's skill alone, nothing disabled.
    const f = buildCatalog({ folders: [{ dir: project, scope: 'project' }], registry: reg });
    expect(f.entries.map((e) => `${e.name}:${e.scope}`)).toEqual([
      'beta-tool:project',
      'alpha-tool:registry',
      'delta-tool:registry',
    ]);
    expect(f.shadowed.map((s) => `${s.name}:${s.scope}`)).toEqual(['beta-tool:registry']);
    // Disabled alone, with no folder before the registry.
    const d = buildCatalog({ folders: [], registry: reg, disabled: ['alpha-tool', 'gamma-quiet'] });
    expect(d.entries.map((e) => e.name)).toEqual(['beta-tool', 'delta-tool']);
    expect(d.disabled).toEqual(['alpha-tool', 'gamma-quiet']);
    expect(d.hidden).toEqual([]);
  });
});
