// The registry's resolve index (src/registry/resolve-index.ts): every kind of registry write leaves it equal to one
// built afresh from index.json and the releases files; resolve reads it instead of them, and resolves exactly as it
// does from them, whatever happened to the files since it was written (a killed writer, a hand edit, damage).
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DependencySpec } from '../../../src/model/spec.js';
import { readIndex, readReleases, releasesCache } from '../../../src/registry/index-io.js';
import { registerSkill, registerSkills } from '../../../src/registry/register.js';
import { removeSkill } from '../../../src/registry/remove.js';
import { RESOLVE_INDEX_FILE, openResolveIndex } from '../../../src/registry/resolve-index.js';
import { updateIndex } from '../../../src/registry/update.js';
import { unuseSkill, useSkill } from '../../../src/registry/usage.js';
import { catalogFromIndex, catalogOf } from '../../../src/resolve/catalog.js';
import { parseSpecs, resolveFromRegistry } from '../../../src/resolve/from-registry.js';
import { resolveSpecs, type Resolution } from '../../../src/resolve/resolve.js';
import { loadSkill } from '../../../src/skill/load.js';
import { tempFolders } from '../../helpers/cli.js';
import { rebuiltResolveIndex, resolveIndexText } from '../../helpers/resolve-index.js';
import { skillMd, writeTree } from '../../helpers/tree.js';
// @ts-expect-error: a bench script in plain JavaScript, without types
import { writeRegistry } from '../../../bench/generate.mjs';

const { fresh, cleanup } = tempFolders('skills-resolve-index-');
afterAll(cleanup);

const NODE = { nodeVersion: '20.0.0' };

/** A SKILL.md skill `name` at `version` with dependencies, in a folder of its own. */
function skill(parent: string, name: string, version: string, deps: string[] = [], text = ''): string {
  const dir = join(parent, `${name}-${version}`);
  const dependencies = deps.length > 0 ? `dependencies:\n${deps.map((d) => `  - ${d}\n`).join('')}` : '';
  writeTree(dir, {
    'SKILL.md': skillMd(
      `name: ${name}\ndescription: Does ${name} things${text}. Use when testing.\nmetadata:\n  version: "${version}"\n${dependencies}`,
    ),
  });
  return dir;
}

/** What a resolution says, as plain data. */
function shape(r: Resolution): unknown {
  return r.ok
    ? { resolved: r.resolved, roots: r.roots, warnings: r.warnings }
    : { kind: r.kind, message: r.error.message, hint: r.error.hint };
}

/** Resolve as resolve did before the resolve index: index.json and the releases files, read whole. */
function reference(reg: string, specs: DependencySpec[]): unknown {
  releasesCache.clear();
  return shape(
    resolveSpecs(
      specs,
      catalogFromIndex(readIndex(reg), (id) => readReleases(reg, id)),
      NODE,
    ),
  );
}

/** Resolve through the resolve index, as resolveFromRegistry does; with what had to be read besides it. */
function throughIndex(reg: string, specs: DependencySpec[]) {
  const index = openResolveIndex(reg);
  const resolution = shape(
    resolveSpecs(
      specs,
      catalogOf(index, (id) => index.releases(id)),
      NODE,
    ),
  );
  index.save();
  return { resolution, read: index.read() };
}

/** Every id of the registry alone, then every pair that can conflict, then ids it does not have. */
function specsOf(reg: string): DependencySpec[][] {
  const ids = readIndex(reg).skills.map((e) => e.id);
  return [...ids.map((id) => [id]), ids, ['top@^1', 'other'], ['base@9.9.9'], ['nothing-here'], ['top', 'mid@2']].map(
    (s) => parseSpecs(Array.isArray(s) ? s : [s]),
  );
}

/** Every spec set resolves through the resolve index exactly as from the files, reading nothing else. */
function expectSameAsFiles(reg: string, { readsNothing = true } = {}): void {
  for (const specs of specsOf(reg)) {
    const expected = reference(reg, specs);
    const got = throughIndex(reg, specs);
    expect(got.resolution).toEqual(expected);
    if (readsNothing) expect(got.read).toEqual({ index: false, releases: [] });
  }
}

async function registryOfFive(): Promise<{ reg: string; src: string }> {
  const reg = join(fresh('reg'), 'registry');
  const src = fresh('src');
  const dirs = [
    skill(src, 'base', '1.0.0'),
    skill(src, 'base', '1.1.0'),
    skill(src, 'base', '2.0.0'),
    skill(src, 'mid', '1.0.0', ['base@^1']),
    skill(src, 'top', '1.0.0', ['mid@^1', 'base@^1.1']),
    skill(src, 'other', '1.0.0', ['base@^2']),
  ];
  const results = await registerSkills(
    reg,
    dirs.map((d) => ({ skill: loadSkill(d), opts: {} })),
  );
  expect(results.every((r) => !(r instanceof Error))).toBe(true);
  return { reg, src };
}

describe('the resolve index after every kind of registry write', () => {
  it('equals one built afresh, and resolve reads it alone and resolves as from the files', async () => {
    const { reg, src } = await registryOfFive();
    const check = () => {
      expect(resolveIndexText(reg)).toBe(rebuiltResolveIndex(reg));
      expectSameAsFiles(reg);
    };
    check();
    // A new version (publish), a new skill with a custom owner, a dependency on what is not there.
    await registerSkill(reg, loadSkill(skill(src, 'mid', '2.0.0', ['base@^2'])));
    await registerSkill(reg, loadSkill(skill(src, 'lost', '1.0.0', ['ghost@^1'])), { owner: 'acme' });
    check();
    // A version replaced (--force) with other dependencies.
    await registerSkill(reg, loadSkill(skill(fresh('forced'), 'mid', '1.0.0', ['base@2.0.0'], ' again')), {
      force: true,
    });
    check();
    expect(throughIndex(reg, parseSpecs(['mid@1.0.0'])).resolution).toMatchObject({
      resolved: [{ id: 'base', version: '2.0.0' }, { id: 'mid' }],
    });
    // Usage only: the index changes, no releases file does.
    await useSkill(reg, 'top', 'agent-a');
    check();
    await unuseSkill(reg, 'top', 'agent-a');
    check();
    // A version removed (its releases file pruned after the index is written), then a whole skill.
    await removeSkill(reg, 'base', '1.1.0', { force: true });
    check();
    await removeSkill(reg, 'other', undefined, { force: true });
    check();
    expect(resolveIndexText(reg)).not.toContain('\nother\t');
    // A write that changes nothing in the files.
    await updateIndex(reg, (index) => index);
    check();
  });

  it('a version 1 registry resolves from its index, gets none, and gets a whole one at its first write', async () => {
    const { reg } = await registryOfFive();
    const index = readIndex(reg);
    const skills = index.skills.map((e) => ({ ...e, latest: undefined, releases: readReleases(reg, e.id) }));
    const v1 = join(fresh('v1'), 'registry');
    mkdirSync(v1);
    writeFileSync(join(v1, 'index.json'), JSON.stringify({ version: 1, skills }));
    for (const specs of specsOf(v1)) {
      const r = await resolveFromRegistry(specs, v1, { nodeVersion: NODE.nodeVersion, platform: 'linux' });
      const { resolution } = throughIndex(v1, specs);
      expect(resolution).toEqual(reference(v1, specs));
      if (r.ok) for (const s of r.resolved) expect(s.path).toBe(join(v1, `built-in/${s.id}@${s.version}`));
    }
    expect(existsSync(join(v1, RESOLVE_INDEX_FILE))).toBe(false);
    await useSkill(v1, 'top', 'agent-a');
    expect(resolveIndexText(v1)).toBe(rebuiltResolveIndex(v1));
    expectSameAsFiles(v1);
  });
});

describe('what resolve finds on disk', () => {
  it('a registry without it (another version wrote it) resolves from the files, and resolve writes the rows', async () => {
    const reg = fresh('generated');
    writeRegistry(reg, { skills: 300, versions: 6, depth: 4, seed: 11 });
    const specs = parseSpecs([readIndex(reg).skills[0]!.id]);
    const expected = reference(reg, specs);
    const first = await resolveFromRegistry(specs, reg, { nodeVersion: NODE.nodeVersion, platform: 'linux' });
    expect(first.ok).toBe(true);
    expect(existsSync(join(reg, RESOLVE_INDEX_FILE))).toBe(true);
    const again = throughIndex(reg, specs);
    expect(again.resolution).toEqual(expected);
    expect(again.read).toEqual({ index: false, releases: [] });
    // Only the rows resolve reached: the others still come from their files, and are then written too.
    const reached = new Set(first.ok ? first.resolved.map((s) => s.id) : []);
    const other = parseSpecs([readIndex(reg).skills.find((e) => !reached.has(e.id))!.id]);
    expect(throughIndex(reg, other).read.releases.length).toBeGreaterThan(0);
    expect(throughIndex(reg, other).read).toEqual({ index: false, releases: [] });
  });

  it('a releases file written since its row (a writer killed before the resolve index, a hand edit) is read', async () => {
    const { reg } = await registryOfFive();
    // Killed after writing the releases files, before index.json: a version the index does not list yet.
    const file = join(reg, 'releases/base.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.releases['3.0.0'] = { ...doc.releases['2.0.0'], path: 'built-in/base@3.0.0' };
    writeFileSync(`${file}.tmp`, JSON.stringify(doc));
    renameSync(`${file}.tmp`, file);
    expectSameAsFiles(reg, { readsNothing: false });
    expect(throughIndex(reg, parseSpecs(['base'])).read).toEqual({ index: false, releases: [] });
    // An edit in place, of the same length: mid@1.0.0 now needs base@^2.
    const mid = join(reg, 'releases/mid.json');
    writeFileSync(mid, readFileSync(mid, 'utf8').replace('"base@^1"', '"base@^2"'));
    expect(throughIndex(reg, parseSpecs(['mid'])).resolution).toMatchObject({
      resolved: [
        { id: 'base', version: '2.0.0' },
        { id: 'mid', version: '1.0.0' },
      ],
    });
    expectSameAsFiles(reg, { readsNothing: false });
    // Killed after index.json, before the resolve index: the versions come from index.json.
    const index = JSON.parse(readFileSync(join(reg, 'index.json'), 'utf8'));
    index.skills.find((e: { id: string }) => e.id === 'base').versions.unshift('3.0.0');
    writeFileSync(join(reg, 'index.json'), JSON.stringify(index));
    const got = throughIndex(reg, parseSpecs(['base']));
    expect(got.read.index).toBe(true);
    expect(got.resolution).toMatchObject({ resolved: [{ id: 'base', version: '3.0.0' }] });
    expectSameAsFiles(reg, { readsNothing: false });
    // A missing releases file is the error it always was.
    rmSync(join(reg, 'releases/mid.json'));
    expect(() => throughIndex(reg, parseSpecs(['top']))).toThrow(/releases\/mid\.json: missing: the index lists mid/);
  });

  it('a damaged one is not trusted where it is damaged, and never gives a path outside the store', async () => {
    const { reg } = await registryOfFive();
    const file = join(reg, RESOLVE_INDEX_FILE);
    const good = resolveIndexText(reg);
    const header = (body: string) => {
      const h = JSON.parse(good.slice(0, good.indexOf('\n')));
      return `${JSON.stringify({ ...h, length: body.length })}\n${body}`;
    };
    const body = good.slice(good.indexOf('\n') + 1);
    /** The body with `from` replaced (which it must hold: a damage that changes nothing tests nothing). */
    const damage = (from: string | RegExp, to: string) => {
      expect(body).toMatch(from);
      return header(body.replace(from, to));
    };
    // base's row: its versions, then each version's fields after a U+001E.
    const base2 = '\x1e["2.0.0",0,0,';
    const damaged = [
      good.slice(0, good.length - 40),
      'garbage',
      '',
      good.replace('"skills-resolve-index","version":2', '"skills-resolve-index","version":99'),
      // Well formed, its length right: a version's fields that lead out of the store, or are another version's, or
      // are not JSON; a list of versions that is not one, or that has fields for fewer versions than it lists.
      damage(base2, '\x1e["2.0.0",0,"built-in/../../etc@2.0.0",'),
      damage(base2, '\x1e["../2.0.0",0,0,'),
      damage(base2, '\x1e["2.0.0",0,0,,'),
      damage(/\nmid\t\[[^\]]*\]/, '\nmid\t{"not":"versions"}'),
      damage(/^(base\t[^\t]*\t[^\t]*\t)\[/m, '$1["0.0.1",'),
      damage(/^(base\t[^\t]*\t[^\t]*\t)\[[^\]]*\]/m, '$1{}'),
      damage(/\ntop\t[^\n]*/, '\ntop\tbroken'),
    ];
    for (const text of damaged) {
      writeFileSync(file, text);
      expectSameAsFiles(reg, { readsNothing: false });
    }
    const outside = damage(base2, '\x1e["2.0.0",0,"built-in/../../etc@2.0.0",');
    writeFileSync(file, outside);
    const got = throughIndex(reg, parseSpecs(['base@2.0.0']));
    expect(got.resolution).toMatchObject({ resolved: [{ path: 'built-in/base@2.0.0' }] });
    expect(got.read.releases).toEqual(['base']);
    // A line whose versions name one the file does not have, with that version's fields damaged: neither can be
    // trusted, and resolve says which file to delete rather than resolving to a version that is not there.
    const [line] = body.split('\n');
    const [id, versions, identity, row] = line!.split('\t');
    const listed = ['9.0.0', ...(JSON.parse(versions!) as string[])];
    const bad = [
      id,
      JSON.stringify(listed),
      identity,
      JSON.stringify(listed) + '\x1e["1.0.0"]' + row!.slice(row!.indexOf('\x1e')),
    ];
    writeFileSync(file, header(body.replace(line!, bad.join('\t'))));
    expect(() => throughIndex(reg, parseSpecs(['base@9.0.0']))).toThrow(
      /resolve-index: the line of base lists version 9\.0\.0, which .*releases\/base\.json does not have/,
    );
  });
});

describe('the resolve index of a skill with many versions', () => {
  it('answers has and get for each of 100,000 versions, each in constant time (a lookup, not a walk of the row)', () => {
    const reg = fresh();
    mkdirSync(join(reg, 'releases'));
    const versions = Array.from({ length: 100_000 }, (_, i) => `${Math.floor(i / 1000)}.${i % 1000}.0`).reverse();
    const release = (v: string) => ({
      integrity: 'sha512-x',
      layout: 'skill-md',
      name: 'a',
      description: 'd',
      dependencies: [],
      path: `built-in/a@${v}`,
      registeredAt: '2024-01-01T00:00:00Z',
    });
    const latest = { layout: 'skill-md', name: 'a', description: 'd', path: `built-in/a@${versions[0]}` };
    const entry = { id: 'a', versions, latestVersion: versions[0], owner: 'built-in', usedBy: [], latest };
    const dates = { registeredAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z' };
    writeFileSync(join(reg, 'index.json'), JSON.stringify({ version: 2, skills: [{ ...entry, ...dates }] }));
    const releases = Object.fromEntries(versions.map((v) => [v, release(v)]));
    writeFileSync(join(reg, 'releases', 'a.json'), JSON.stringify({ id: 'a', releases }));
    const spec = parseSpecs(['a@^50'])[0]!;
    const first = throughIndex(reg, [spec]);
    expect(first.resolution).toMatchObject({ resolved: [{ id: 'a', version: '50.999.0' }] });
    // The second run reads the row the first wrote: every version is looked up in it.
    const index = openResolveIndex(reg);
    const set = index.releases('a');
    expect(versions.every((v) => set.has(v))).toBe(true);
    expect(set.has('100.0.0')).toBe(false);
    expect(versions.every((v) => set.get(v)?.path === `built-in/a@${v}`)).toBe(true);
    expect(throughIndex(reg, [spec])).toEqual({ resolution: first.resolution, read: { index: false, releases: [] } });
  });
});
