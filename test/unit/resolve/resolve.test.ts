import { describe, expect, it } from 'vitest';
import satisfies from 'semver/functions/satisfies.js';
import { upgradeIndex, type RegistryIndexV1 as RegistryIndex } from '../../../src/formats/index-file.js';
import { catalogFromIndex, resolveSpecs, type Resolution, type ResolveOptions } from '../../../src/resolve/resolve.js';
import { systemPackageChecker, type PackageQuery } from '../../../src/resolve/system-packages.js';
import { parseSpec, type DependencySpec } from '../../../src/model/spec.js';

/** id → version → its dependencies (or the release's extra fields). */
type Registry = Record<
  string,
  Record<string, string[] | { deps?: string[]; nodeVersion?: string; systemPackages?: string[] }>
>;

const semverDesc = (a: string, b: string) => {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pb[i]! - pa[i]!;
  return 0;
};

/** An index.json document in the real format, from a compact description. */
function makeIndex(registry: Registry): RegistryIndex {
  return {
    version: 1,
    skills: Object.entries(registry).map(([id, versions]) => {
      const list = Object.keys(versions).sort(semverDesc);
      const releases = Object.fromEntries(
        list.map((v) => {
          const d = versions[v]!;
          const extra = Array.isArray(d) ? { deps: d } : d;
          return [
            v,
            {
              integrity: 'sha512-x',
              layout: id.length % 2 ? ('manifest' as const) : ('skill-md' as const),
              name: id,
              description: `the ${id} skill`,
              dependencies: extra.deps ?? [],
              nodeVersion: extra.nodeVersion,
              systemPackages: extra.systemPackages,
              path: `built-in/${id}@${v}`,
              registeredAt: '2024-01-01T00:00:00Z',
            },
          ];
        }),
      );
      return {
        id,
        versions: list,
        latestVersion: list[0]!,
        owner: 'built-in',
        usedBy: [],
        registeredAt: '2024-01-01T00:00:00Z',
        updatedAt: '2024-01-01T00:00:00Z',
        releases,
      };
    }),
  };
}

/** A catalog over a compact index (releases inside the entries), loading each id's releases as the registry would. */
function catalogOf(index: RegistryIndex, loaded: string[] = []) {
  const { index: v2, releases } = upgradeIndex(index);
  return catalogFromIndex(v2, (id) => {
    loaded.push(id);
    return releases.get(id) ?? {};
  });
}

const spec = (raw: string): DependencySpec => {
  const s = parseSpec(raw);
  if ('error' in s) throw new Error(s.error);
  return s;
};

function resolve(specs: string[], registry: Registry, opts: Partial<ResolveOptions> = {}): Resolution {
  return resolveSpecs(specs.map(spec), catalogOf(makeIndex(registry)), { nodeVersion: '20.11.0', ...opts });
}

function picked(r: Resolution): string[] {
  if (!r.ok) throw new Error(`expected a resolution, got ${r.kind}: ${r.error.message}`);
  return r.resolved.map((s) => `${s.id}@${s.version}`);
}

function failure(r: Resolution) {
  if (r.ok) throw new Error(`expected a failure, got ${picked(r).join(' ')}`);
  return { kind: r.kind, code: r.error.code, message: r.error.message, hint: r.error.hint };
}

describe('resolveSpecs: choosing versions', () => {
  it('takes the highest version that satisfies the spec, through dependencies', () => {
    const reg: Registry = {
      a: { '1.0.0': ['c@^1'], '1.2.0': ['c@^1'], '2.0.0': ['c@^2'] },
      c: { '1.0.0': [], '1.4.0': [], '2.0.1': [] },
    };
    expect(picked(resolve(['a@^1'], reg))).toEqual(['c@1.4.0', 'a@1.2.0']);
    expect(picked(resolve(['a@1.0.0'], reg))).toEqual(['c@1.4.0', 'a@1.0.0']);
    expect(picked(resolve(['a@^2'], reg))).toEqual(['c@2.0.1', 'a@2.0.0']);
    expect(picked(resolve(['a@^1', 'c@~1.0'], reg))).toEqual(['c@1.0.0', 'a@1.2.0']);
  });

  it('backtracks to an older version of a dependency when the newest conflicts', () => {
    const reg: Registry = {
      app: { '1.0.0': ['lib@^1', 'util@^1'] },
      lib: { '1.3.0': ['core@^2'], '1.2.0': ['core@^1'], '1.1.0': ['core@^1'] },
      util: { '1.0.0': ['core@^1'] },
      core: { '1.5.0': [], '2.0.0': [] },
    };
    const r = resolve(['app@1.0.0'], reg);
    expect(picked(r)).toEqual(['core@1.5.0', 'lib@1.2.0', 'util@1.0.0', 'app@1.0.0']);
  });

  it('backtracks across several levels when the conflict shows up late', () => {
    // x@2 → y@2 → z@2 → w@^2, but the root pins w@1: only x@1's line works.
    const reg: Registry = {
      x: { '2.0.0': ['y@^2'], '1.0.0': ['y@^1'] },
      y: { '2.0.0': ['z@^2'], '1.0.0': ['z@^1'] },
      z: { '2.0.0': ['w@^2'], '1.0.0': ['w@^1'] },
      w: { '2.0.0': [], '1.0.0': [] },
    };
    expect(picked(resolve(['x', 'w@1.0.0'], reg))).toEqual(['w@1.0.0', 'z@1.0.0', 'y@1.0.0', 'x@1.0.0']);
  });

  it('steps around a version whose dependency is not in the registry', () => {
    const reg: Registry = { a: { '2.0.0': ['gone@^1'], '1.0.0': [] } };
    expect(picked(resolve(['a'], reg))).toEqual(['a@1.0.0']);
  });

  it('lists the result in dependency order: dependencies first, then as the specs and dependency lists give', () => {
    const reg: Registry = {
      app: { '1.0.0': ['b@^1', 'a@^1'] },
      a: { '1.0.0': ['c@^1'] },
      b: { '1.0.0': ['c@^1', 'd@^1'] },
      c: { '1.0.0': [] },
      d: { '1.0.0': ['c@^1'] },
      solo: { '1.0.0': [] },
    };
    const r = resolve(['solo@1.0.0', 'app@1.0.0'], reg);
    expect(picked(r)).toEqual(['solo@1.0.0', 'c@1.0.0', 'd@1.0.0', 'b@1.0.0', 'a@1.0.0', 'app@1.0.0']);
    if (!r.ok) return;
    expect(r.roots).toEqual(['solo@1.0.0', 'app@1.0.0']);
    expect(r.resolved.find((s) => s.id === 'b')).toEqual({
      id: 'b',
      version: '1.0.0',
      layout: 'manifest',
      path: 'built-in/b@1.0.0',
      dependencies: ['c@1.0.0', 'd@1.0.0'],
    });
  });

  it('finds a solution exactly when one exists, and every one it finds meets every constraint (random registries)', () => {
    let seed = 7;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
    const VERSIONS = ['1.0.0', '1.1.0', '2.0.0'];
    const RANGES = ['^1', '^2', '1.1.0', '>=1.1.0', '*', '1.0.0 || 2.0.0'];
    for (let round = 0; round < 300; round++) {
      const ids = ['p0', 'p1', 'p2', 'p3', 'p4'];
      const reg: Registry = {};
      ids.forEach((id, i) => {
        reg[id] = {};
        for (const v of VERSIONS) {
          // Dependencies only on later ids: no cycles, so "no solution" means a real conflict.
          const later = ids.slice(i + 1).filter(() => rand() < 0.45);
          reg[id]![v] = later.map((d) => `${d}@${pick(RANGES)}`);
        }
      });
      const roots = ['p0@' + pick(RANGES), ...(rand() < 0.6 ? [`p${1 + Math.floor(rand() * 4)}@${pick(RANGES)}`] : [])];
      const r = resolve(roots, reg);
      const expected = bruteForce(roots, reg);
      expect(r.ok, `round ${round}: ${roots.join(' ')} ${JSON.stringify(reg)}`).toBe(expected);
      if (r.ok) expectValid(roots, reg, new Map(r.resolved.map((s) => [s.id, s.version])));
    }
  });
});

/** Every assignment of a version (or none) to each id: does one meet the roots and every dependency? */
function bruteForce(roots: string[], reg: Registry): boolean {
  const ids = Object.keys(reg);
  const choice = new Map<string, string>();
  const go = (i: number): boolean => {
    if (i === ids.length) return isValid(roots, reg, choice);
    for (const v of [undefined, ...Object.keys(reg[ids[i]!]!)]) {
      if (v === undefined) choice.delete(ids[i]!);
      else choice.set(ids[i]!, v);
      if (go(i + 1)) return true;
    }
    choice.delete(ids[i]!);
    return false;
  };
  return go(0);
}

function isValid(roots: string[], reg: Registry, choice: Map<string, string>): boolean {
  const ok = (raw: string) => {
    const s = spec(raw);
    const v = choice.get(s.id);
    return v !== undefined && (s.range === undefined || satisfies(v, s.range));
  };
  if (!roots.every(ok)) return false;
  for (const [id, v] of choice) {
    const d = reg[id]![v]!;
    if (!(Array.isArray(d) ? d : (d.deps ?? [])).every(ok)) return false;
  }
  return true;
}

function expectValid(roots: string[], reg: Registry, choice: Map<string, string>) {
  expect(
    isValid(roots, reg, choice),
    `${[...choice].map(([k, v]) => `${k}@${v}`).join(' ')} does not meet ${roots.join(' ')}`,
  ).toBe(true);
}

describe('resolveSpecs: failures', () => {
  const abc: Registry = {
    a: { '1.0.0': ['c@^1'] },
    b: { '2.1.0': ['c@^2'] },
    c: { '1.4.0': [], '2.0.1': [] },
  };

  it('explains a conflict: who needs what, and which versions exist', () => {
    const f = failure(resolve(['a@1.0.0', 'b@2.1.0'], abc));
    expect(f).toMatchObject({ kind: 'conflict', code: 'E_INVALID' });
    expect(f.message).toBe('a@1.0.0 needs c@^1; b@2.1.0 needs c@^2; available c: 1.4.0, 2.0.1');
    expect(f.hint).toMatch(/no set of versions/);
  });

  it('names the chain of requirements that led to each side of a conflict', () => {
    expect(failure(resolve(['a@^1', 'b@^2'], abc)).message).toBe(
      'root needs a@^1 → a@1.0.0 needs c@^1; root needs b@^2 → b@2.1.0 needs c@^2; available c: 1.4.0, 2.0.1',
    );
    const deep: Registry = { ...abc, x: { '1.0.0': ['y@^1'] }, y: { '1.3.0': ['a@1.0.0'] } };
    expect(failure(resolve(['x@^1', 'b@2.1.0'], deep)).message).toBe(
      'root needs x@^1 → x@1.0.0 needs y@^1 → y@1.3.0 needs a@1.0.0 → a@1.0.0 needs c@^1; b@2.1.0 needs c@^2; available c: 1.4.0, 2.0.1',
    );
  });

  it('explains a conflict that every version of a dependency runs into', () => {
    const reg: Registry = {
      a: { '1.1.0': ['c@^1'], '1.0.0': ['c@~1.0'] },
      b: { '2.1.0': ['c@^2'] },
      c: { '1.0.0': [], '1.4.0': [], '2.0.1': [] },
    };
    const f = failure(resolve(['a', 'b@2.1.0'], reg));
    expect(f.message).toContain('root needs a → a@1.1.0 needs c@^1');
    expect(f.message).toContain('root needs a → a@1.0.0 needs c@~1.0');
    expect(f.message).toContain('b@2.1.0 needs c@^2');
    expect(f.message).toMatch(/; available c: 1\.0\.0, 1\.4\.0, 2\.0\.1$/);
  });

  it('explains two root specs that cannot both hold', () => {
    expect(failure(resolve(['c@^1', 'c@^2'], abc)).message).toBe(
      'root needs c@^1; root needs c@^2; available c: 1.4.0, 2.0.1',
    );
  });

  it('explains a dependency on a skill or version the registry does not have', () => {
    const reg: Registry = { a: { '1.0.0': ['tools@^1'] }, tool: { '1.0.0': [] }, b: { '1.0.0': ['tool@3.0.0'] } };
    expect(failure(resolve(['a@1.0.0'], reg)).message).toBe(
      'a@1.0.0 needs tools@^1, which is not in the registry (did you mean "tool"?)',
    );
    expect(failure(resolve(['b@^1'], reg)).message).toBe(
      'root needs b@^1 → b@1.0.0 needs tool@3.0.0; available tool: 1.0.0',
    );
  });

  it('lists the available versions when an exact version does not exist', () => {
    const f = failure(resolve(['c@3.0.0'], abc));
    expect(f).toEqual({
      kind: 'missing-version',
      code: 'E_NOT_FOUND',
      message: 'c@3.0.0 is not in the registry; available c: 1.4.0, 2.0.1',
      hint: 'pin one of the available versions, e.g. c@2.0.1',
    });
    expect(failure(resolve(['c@^3'], abc))).toMatchObject({
      kind: 'no-match',
      message: 'no version of c matches ^3; available c: 1.4.0, 2.0.1',
    });
  });

  it('ignores versions that are not semver, and says so when none is left', () => {
    const index = makeIndex({ odd: { '1.0.0': [] }, a: { '1.0.0': [] } });
    index.skills[0]!.versions = ['latest', 'v2'];
    index.skills[0]!.releases = {
      latest: index.skills[0]!.releases['1.0.0']!,
      v2: index.skills[0]!.releases['1.0.0']!,
    };
    const r = resolveSpecs([spec('odd')], catalogOf(index), { nodeVersion: '20.0.0' });
    expect(failure(r)).toMatchObject({ kind: 'no-match', message: 'odd has no usable version in the registry' });
  });

  it('suggests the nearest id for an unknown one', () => {
    const f = failure(resolve(['tols@^1'], { tools: { '1.0.0': [] } }));
    expect(f).toMatchObject({
      kind: 'unknown-id',
      code: 'E_NOT_FOUND',
      message: 'no skill "tols" in the registry; did you mean "tools"?',
      hint: 'resolve tools@^1',
    });
    expect(failure(resolve(['zzzzzz'], { tools: { '1.0.0': [] } })).message).toBe('no skill "zzzzzz" in the registry');
  });

  it('names a dependency cycle', () => {
    const reg: Registry = { a: { '1.0.0': ['b@^1'] }, b: { '1.2.0': ['a@^1'] } };
    expect(failure(resolve(['a@1.0.0'], reg))).toMatchObject({
      kind: 'cycle',
      message: 'dependency cycle: a@1.0.0 → b@1.2.0 → a@1.0.0',
    });
    const longer: Registry = {
      r: { '1.0.0': ['a@^1'] },
      a: { '1.0.0': ['b@^1'] },
      b: { '1.2.0': ['c@^1'] },
      c: { '1.0.0': ['a@^1'] },
    };
    expect(failure(resolve(['r@1.0.0'], longer)).message).toBe(
      'dependency cycle: a@1.0.0 → b@1.2.0 → c@1.0.0 → a@1.0.0',
    );
  });
});

describe('resolveSpecs: warnings', () => {
  it('warns when a bare id takes the latest version', () => {
    const r = resolve(['c'], { c: { '1.4.0': [], '2.0.1': [] } });
    expect(picked(r)).toEqual(['c@2.0.1']);
    expect(r.warnings).toEqual(['c: no version given, latest 2.0.1 used; pin a version (c@2.0.1)']);
    expect(resolve(['c@2.0.1'], { c: { '1.4.0': [], '2.0.1': [] } }).warnings).toEqual([]);
  });

  it('says so when a bare id cannot take the latest', () => {
    const r = resolve(['c', 'a@1.0.0'], { a: { '1.0.0': ['c@^1'] }, c: { '1.4.0': [], '2.0.1': [] } });
    expect(picked(r)).toEqual(['c@1.4.0', 'a@1.0.0']);
    expect(r.warnings).toEqual([
      'c: no version given; 1.4.0 used, as the latest (2.0.1) does not fit the other requirements; pin a version (c@1.4.0)',
    ]);
  });

  it('warns when the running Node does not satisfy a nodeVersion (a bare version is a minimum)', () => {
    const reg: Registry = {
      a: { '1.0.0': { deps: ['b@^1', 'c@^1'], nodeVersion: '>=22.0.0' } },
      b: { '1.0.0': { nodeVersion: '20.0.0' } },
      c: { '1.0.0': { nodeVersion: 'soon' } },
    };
    expect(resolve(['a@1.0.0'], reg, { nodeVersion: 'v20.11.0' }).warnings).toEqual([
      'c@1.0.0 has a nodeVersion that is neither a version nor a range: "soon"',
      'a@1.0.0 needs Node >=22.0.0; this is Node 20.11.0',
    ]);
    expect(resolve(['a@1.0.0'], reg, { nodeVersion: '22.3.0' }).warnings).toEqual([
      'c@1.0.0 has a nodeVersion that is neither a version nor a range: "soon"',
    ]);
    expect(resolve(['b@1.0.0'], reg, { nodeVersion: '19.9.0' }).warnings).toEqual([
      'b@1.0.0 needs Node 20.0.0; this is Node 19.9.0',
    ]);
  });

  it('warns about a system package the checker says is missing, and not about unknown ones', () => {
    const reg: Registry = { a: { '1.0.0': { systemPackages: ['ffmpeg', 'chromium', 'mystery'] } } };
    const asked: string[] = [];
    const hasPackage = (name: string) => {
      asked.push(name);
      return name === 'ffmpeg' ? true : name === 'chromium' ? false : undefined;
    };
    expect(resolve(['a@1.0.0'], reg, { hasPackage }).warnings).toEqual([
      'a@1.0.0 needs the system package "chromium", which is not installed',
    ]);
    expect(asked).toEqual(['ffmpeg', 'chromium', 'mystery']);
  });
});

describe('systemPackageChecker', () => {
  const runner = (answers: Record<string, PackageQuery>) => {
    const calls: string[] = [];
    const run = (file: string, args: string[]) => {
      calls.push(`${file} ${args.join(' ')}`);
      return answers[args.at(-1)!] ?? { missingProgram: false, exitCode: 1, stdout: '' };
    };
    return { run, calls };
  };

  it('asks dpkg on Linux, once per name', () => {
    const { run, calls } = runner({
      ffmpeg: { missingProgram: false, exitCode: 0, stdout: 'install ok installed' },
      old: { missingProgram: false, exitCode: 0, stdout: 'deinstall ok config-files' },
    });
    const has = systemPackageChecker('linux', run);
    expect([has('ffmpeg'), has('ffmpeg'), has('old'), has('nope'), has('-rf')]).toEqual([
      true,
      true,
      false,
      false,
      undefined,
    ]);
    expect(calls).toEqual([
      'dpkg-query -W -f=${Status} ffmpeg',
      'dpkg-query -W -f=${Status} old',
      'dpkg-query -W -f=${Status} nope',
    ]);
  });

  it('asks Homebrew on macOS and knows nothing elsewhere or without a package manager', () => {
    const { run, calls } = runner({ ffmpeg: { missingProgram: false, exitCode: 0, stdout: 'ffmpeg 7.1' } });
    expect(systemPackageChecker('darwin', run)('ffmpeg')).toBe(true);
    expect(calls).toEqual(['brew list --versions ffmpeg']);
    expect(systemPackageChecker('win32', run)('ffmpeg')).toBeUndefined();
    const missing = runner({ ffmpeg: { missingProgram: true, stdout: '' } });
    const has = systemPackageChecker('linux', missing.run);
    expect([has('ffmpeg'), has('other')]).toEqual([undefined, undefined]);
    expect(missing.calls).toHaveLength(1);
  });
});

describe("resolveSpecs: a SKILL.md skill's package names under dependencies", () => {
  // Ids of even length are SKILL.md skills in makeIndex, odd ones manifest.json skills.
  const reg: Registry = {
    kd: { '1.0.0': ['torch', 'datasets', 'tool', 'kd'], '0.9.0': ['torch'] },
    man: { '1.0.0': ['torch'] },
    pin: { '1.0.0': ['torch@^2'] },
    tool: { '1.0.0': [] },
  };

  it('leaves out a bare name no skill has, says so once for the version chosen, and keeps the rest', () => {
    const r = resolve(['kd'], reg);
    expect(picked(r)).toEqual(['tool@1.0.0', 'kd@1.0.0']);
    if (!r.ok) throw new Error('resolved above');
    expect(r.resolved.find((s) => s.id === 'kd')!.dependencies).toEqual(['tool@1.0.0']);
    const said = r.warnings.filter((w) => w.includes('under dependencies'));
    expect(said).toEqual([
      'kd@1.0.0 lists torch, datasets, kd under dependencies, which no registry or source holds as another skill: left out (skills installs skills, not Python or npm packages)',
    ]);
  });

  it('counts the skills past three in one line', () => {
    const many: Registry = {
      aa: { '1.0.0': ['numpy'] },
      bb: { '1.0.0': ['torch'] },
      cc: { '1.0.0': ['scipy'] },
      dd: { '1.0.0': ['pandas', 'aa', 'bb', 'cc'] },
    };
    const r = resolve(['dd@1.0.0'], many);
    if (!r.ok) throw new Error('expected a resolution');
    expect(r.warnings).toEqual([
      '4 skills list under dependencies names that no registry or source holds as another skill (aa@1.0.0: numpy; bb@1.0.0: torch; cc@1.0.0: scipy; and 1 more): left out (skills installs skills, not Python or npm packages)',
    ]);
  });

  it("still fails on a manifest.json skill's missing dependency, and on one with a range", () => {
    expect(failure(resolve(['man'], reg)).message).toBe(
      'root needs man → man@1.0.0 needs torch, which is not in the registry',
    );
    expect(failure(resolve(['pin'], reg)).message).toBe(
      'root needs pin → pin@1.0.0 needs torch@^2, which is not in the registry',
    );
  });
});

describe('catalogFromIndex', () => {
  it("loads an id's releases only when the resolver first touches that id, once", () => {
    const loaded: string[] = [];
    const catalog = catalogOf(
      makeIndex({
        a: { '1.0.0': ['b@^1'], '2.0.0': ['b@^1'] },
        b: { '1.0.0': [] },
        unrelated: { '1.0.0': [] },
        other: { '1.0.0': ['unrelated'] },
      }),
      loaded,
    );
    expect(catalog.ids()).toEqual(['a', 'b', 'unrelated', 'other']);
    expect(loaded).toEqual([]);
    const r = resolveSpecs([spec('a@^2')], catalog, { nodeVersion: '20.0.0' });
    expect(picked(r)).toEqual(['b@1.0.0', 'a@2.0.0']);
    expect(loaded.sort()).toEqual(['a', 'b']);
  });

  it('lists the highest ten available versions and how many more, not all of them', () => {
    const versions = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`1.${i}.0`, []]));
    const r = resolveSpecs([spec('a@^9')], catalogOf(makeIndex({ a: versions })), { nodeVersion: '20.0.0' });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error.message).toBe(
        'no version of a matches ^9; available a: 1.15.0, 1.16.0, 1.17.0, 1.18.0, 1.19.0, 1.20.0, 1.21.0, 1.22.0, 1.23.0, 1.24.0 and 15 more',
      );
  });

  it('names the releases file of a bad dependency', () => {
    const r = () =>
      resolveSpecs([spec('a')], catalogOf(makeIndex({ a: { '1.0.0': ['b@not a range!'] }, b: { '1.0.0': [] } })), {
        nodeVersion: '20.0.0',
      });
    expect(r).toThrow(/^releases\/a\.json: a@1\.0\.0 has an invalid dependency: /);
  });
});

describe('resolveSpecs: a large registry', () => {
  it('resolves 10,000 skills × 10 versions with chains 10 deep, and what it returns meets every constraint', () => {
    const { index, roots } = largeIndex();
    const catalog = catalogOf(index);
    for (const root of roots) {
      const r = resolveSpecs([spec(root)], catalog, { nodeVersion: '20.11.0' });
      expect(r.ok, r.ok ? '' : r.error.message).toBe(true);
      if (!r.ok) continue;
      expect(r.resolved.length).toBeGreaterThan(10);
      const chosen = new Map(r.resolved.map((s) => [s.id, s.version]));
      const at = new Map(r.resolved.map((s, i) => [s.id, i]));
      for (const s of r.resolved) {
        for (const d of catalog.release(s.id, s.version)!.dependencies) {
          expect(satisfies(chosen.get(d.id)!, d.range ?? '*')).toBe(true);
          expect(at.get(d.id)!).toBeLessThan(at.get(s.id)!);
        }
      }
      expect(chosen.get(spec(root).id)).toBeDefined();
    }
  });
});

/**
 * Ten layers of 1,000 skills; a skill depends on two or three of the next layer, so chains run ten deep. The
 * x.4.0 versions need ranges the others do not offer, so the newest choice often conflicts and the resolver
 * must step back; every x.0.0 needs only ^1 ranges, so a solution always exists.
 */
function largeIndex(): { index: RegistryIndex; roots: string[] } {
  let seed = 42;
  const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const LAYERS = 10;
  const PER = 1000;
  const id = (layer: number, n: number) => `s${layer}-${String(n).padStart(4, '0')}`;
  const versions = ['2.4.0', '2.3.0', '2.2.0', '2.1.0', '2.0.0', '1.4.0', '1.3.0', '1.2.0', '1.1.0', '1.0.0'];
  const registry: Registry = {};
  for (let layer = 0; layer < LAYERS; layer++) {
    for (let n = 0; n < PER; n++) {
      const rel: Registry[string] = {};
      for (const v of versions) {
        const deps: string[] = [];
        if (layer < LAYERS - 1) {
          const count = 2 + Math.floor(rand() * 2);
          for (let k = 0; k < count; k++) {
            const target = id(layer + 1, Math.floor(rand() * PER));
            const range =
              v === '1.0.0'
                ? '^1'
                : v.endsWith('.4.0')
                  ? rand() < 0.5
                    ? '^2'
                    : '>=1.3.0 <2'
                  : rand() < 0.5
                    ? '^1'
                    : '^2 || ^1';
            if (!deps.some((d) => d.startsWith(`${target}@`))) deps.push(`${target}@${range}`);
          }
        }
        rel[v] = deps;
      }
      registry[id(layer, n)] = rel;
    }
  }
  return { index: makeIndex(registry), roots: [id(0, 0), `${id(0, 1)}@^2`, `${id(0, 2)}@^1`] };
}
