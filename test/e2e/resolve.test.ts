import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';

// runCli (execa) drops the final newline of stdout and stderr.

/** id → version → dependencies, or the release's extra fields. */
type Registry = Record<
  string,
  Record<
    string,
    string[] | { deps?: string[]; nodeVersion?: string; systemPackages?: string[]; layout?: 'skill-md' | 'manifest' }
  >
>;

/**
 * Write a registry in its format (src/formats/index-file.ts), as sync would: index.json and releases/<id>.json;
 * `format: 1` writes the old single index.json with the releases inside.
 */
function writeRegistry(dir: string, registry: Registry, format: 1 | 2 = 2): string {
  mkdirSync(dir, { recursive: true });
  const skills = Object.entries(registry).map(([id, versions]) => {
    const list = Object.keys(versions).sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
    const releases = Object.fromEntries(
      list.map((v) => {
        const d = versions[v]!;
        const extra = Array.isArray(d) ? { deps: d } : d;
        return [
          v,
          {
            integrity: 'sha512-AAAA',
            layout: extra.layout ?? 'manifest',
            name: id,
            description: `The ${id} skill. Use when testing resolve.`,
            dependencies: extra.deps ?? [],
            ...(extra.nodeVersion ? { nodeVersion: extra.nodeVersion } : {}),
            ...(extra.systemPackages ? { systemPackages: extra.systemPackages } : {}),
            path: `built-in/${id}@${v}`,
            registeredAt: '2024-01-15T10:00:00Z',
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
      updatedAt: '2024-01-15T10:00:00Z',
      releases,
    };
  });
  if (format === 1) {
    writeFileSync(join(dir, 'index.json'), `${JSON.stringify({ version: 1, skills }, null, 2)}\n`);
    return dir;
  }
  mkdirSync(join(dir, 'releases'), { recursive: true });
  const entries = skills.map(({ releases, ...entry }) => {
    writeFileSync(
      join(dir, 'releases', `${entry.id}.json`),
      `${JSON.stringify({ id: entry.id, releases }, null, 2)}\n`,
    );
    const r = releases[entry.latestVersion]!;
    return { ...entry, latest: { layout: r.layout, name: r.name, description: r.description, path: r.path } };
  });
  writeFileSync(join(dir, 'index.json'), `${JSON.stringify({ version: 2, skills: entries }, null, 2)}\n`);
  return dir;
}

const REGISTRY: Registry = {
  app: { '1.0.0': ['web-scraping@^2', 'basic-tools@^1'], '0.9.0': ['basic-tools@^1'] },
  'web-scraping': { '2.1.0': { deps: ['basic-tools@^1.1'], layout: 'skill-md' }, '1.0.0': ['basic-tools@^1'] },
  'basic-tools': { '1.0.0': [], '1.2.0': [], '2.0.0': [] },
  a: { '1.0.0': ['c@^1'] },
  b: { '2.1.0': ['c@^2'] },
  c: { '1.4.0': [], '2.0.1': [] },
  'loop-a': { '1.0.0': ['loop-b@^1'] },
  'loop-b': { '1.2.0': ['loop-a@^1'] },
  modern: { '1.0.0': { nodeVersion: '>=999.0.0' } },
};

let t: { dir: string; cleanup: () => void };
let reg: string;
const resolve = (...args: string[]) => runCli(['resolve', ...args, '--registry', reg]);

beforeAll(() => {
  t = tempDir('skills-resolve-e2e-');
  reg = writeRegistry(join(t.dir, 'registry'), REGISTRY);
});
afterAll(() => t.cleanup());

describe('skills resolve', () => {
  it('prints the resolved set in dependency order: id@version, layout, path', async () => {
    const r = await resolve('app@^1');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        `basic-tools@1.2.0   manifest  ${join(reg, 'built-in/basic-tools@1.2.0')}`,
        `web-scraping@2.1.0  skill-md  ${join(reg, 'built-in/web-scraping@2.1.0')}`,
        `app@1.0.0           manifest  ${join(reg, 'built-in/app@1.0.0')}`,
      ].join('\n'),
    );
  });

  it('takes the latest version for a bare id, with a warning on stderr', async () => {
    const r = await resolve('basic-tools');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^basic-tools@2\.0\.0 {2}manifest {2}/);
    expect(r.stderr).toBe(
      'warning: basic-tools: no version given, latest 2.0.0 used; pin a version (basic-tools@2.0.0)',
    );
  });

  it('finds the registry through SKILLS_REGISTRY too', async () => {
    const r = await runCli(['resolve', 'c@^1'], { env: { SKILLS_REGISTRY: reg } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('c@1.4.0');
  });

  it('--tree draws the graph, marking a skill drawn before as (deduped)', async () => {
    const r = await resolve('app@1.0.0', 'web-scraping@^2', '--tree');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        'app@1.0.0',
        '├─ web-scraping@2.1.0',
        '│  └─ basic-tools@1.2.0',
        '└─ basic-tools@1.2.0 (deduped)',
        'web-scraping@2.1.0 (deduped)',
      ].join('\n'),
    );
  });

  it('--json prints one document with the resolved set and the warnings', async () => {
    const r = await resolve('app', '--json');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc.warnings).toEqual(['app: no version given, latest 1.0.0 used; pin a version (app@1.0.0)']);
    expect(doc.resolved).toEqual([
      {
        id: 'basic-tools',
        version: '1.2.0',
        layout: 'manifest',
        path: join(reg, 'built-in/basic-tools@1.2.0'),
        dependencies: [],
      },
      {
        id: 'web-scraping',
        version: '2.1.0',
        layout: 'skill-md',
        path: join(reg, 'built-in/web-scraping@2.1.0'),
        dependencies: ['basic-tools@1.2.0'],
      },
      {
        id: 'app',
        version: '1.0.0',
        layout: 'manifest',
        path: join(reg, 'built-in/app@1.0.0'),
        dependencies: ['web-scraping@2.1.0', 'basic-tools@1.2.0'],
      },
    ]);
  });

  it('warns when the running Node does not satisfy a nodeVersion', async () => {
    const r = await resolve('modern@1.0.0');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(`warning: modern@1.0.0 needs Node >=999.0.0; this is Node ${process.versions.node}`);
  });

  it('warns about a system package that dpkg says is not installed', async () => {
    // Only where dpkg is the package manager: elsewhere the answer is "unknown", which is silent by design.
    const dpkg = spawnSync('dpkg-query', ['--version']);
    const sub = writeRegistry(join(t.dir, 'sys'), {
      tool: { '1.0.0': { systemPackages: ['skills-e2e-no-such-package'] } },
    });
    const r = await runCli(['resolve', 'tool@1.0.0', '--registry', sub]);
    expect(r.exitCode).toBe(0);
    if (process.platform === 'linux' && !dpkg.error) {
      expect(r.stderr).toBe(
        'warning: tool@1.0.0 needs the system package "skills-e2e-no-such-package", which is not installed',
      );
    } else if (process.platform !== 'darwin') {
      expect(r.stderr).toBe('');
    }
  });
});

describe('skills resolve: no resolution (exit 1)', () => {
  it('explains a conflict: who needs what and which versions exist', async () => {
    const r = await resolve('a@1.0.0', 'b@2.1.0');
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: a@1\.0\.0 needs c@\^1; b@2\.1\.0 needs c@\^2; available c: 1\.4\.0, 2\.0\.1\nhint: /,
    );
  });

  it('names the chain through ranges and dependencies', async () => {
    const r = await resolve('a@^1', 'b@^2');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      'error: root needs a@^1 → a@1.0.0 needs c@^1; root needs b@^2 → b@2.1.0 needs c@^2; available c: 1.4.0, 2.0.1\n',
    );
  });

  it('reports the error as the JSON document with --json', async () => {
    const r = await resolve('a@1.0.0', 'b@2.1.0', '--json');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc.error).toMatchObject({
      code: 'E_INVALID',
      kind: 'conflict',
      message: 'a@1.0.0 needs c@^1; b@2.1.0 needs c@^2; available c: 1.4.0, 2.0.1',
    });
    expect(doc.error.hint).toEqual(expect.any(String));
  });

  it('lists the available versions when an exact version does not exist', async () => {
    const r = await resolve('basic-tools@3.0.0');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      'error: basic-tools@3.0.0 is not in the registry; available basic-tools: 1.0.0, 1.2.0, 2.0.0\nhint: pin one of the available versions, e.g. basic-tools@2.0.0',
    );
    const json = JSON.parse((await resolve('basic-tools@3.0.0', '--json')).stdout);
    expect(json.error).toMatchObject({ code: 'E_NOT_FOUND', kind: 'missing-version' });
  });

  it('suggests the nearest id for an unknown one', async () => {
    const r = await resolve('basic-tool@^1');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      'error: no skill "basic-tool" in the registry; did you mean "basic-tools"?\nhint: resolve basic-tools@^1',
    );
  });

  it('says so for any id when the registry is empty', async () => {
    const r = await runCli(['resolve', 'anything', '--registry', join(t.dir, 'nowhere')]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('error: no skill "anything" in the registry\nhint: skills list shows the registered skills');
  });

  it('names a dependency cycle', async () => {
    const r = await resolve('loop-a@1.0.0');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: dependency cycle: loop-a@1\.0\.0 → loop-b@1\.2\.0 → loop-a@1\.0\.0\nhint: /);
  });
});

describe('skills resolve: registry formats', () => {
  it('reads a version 1 registry (one index.json with the releases inside) as before', async () => {
    const dir = writeRegistry(join(t.dir, 'v1'), REGISTRY, 1);
    const r = await runCli(['resolve', 'app', '--registry', dir, '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).resolved.map((s: { id: string; version: string }) => `${s.id}@${s.version}`)).toEqual([
      'basic-tools@1.2.0',
      'web-scraping@2.1.0',
      'app@1.0.0',
    ]);
  });

  it('reads only the releases files of the skills it reaches', async () => {
    const dir = writeRegistry(join(t.dir, 'lazy'), REGISTRY);
    rmSync(join(dir, 'releases/loop-a.json'));
    const r = await runCli(['resolve', 'a', '--registry', dir]);
    expect(r.exitCode).toBe(0);
    const missing = await runCli(['resolve', 'loop-b', '--registry', dir]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(
      `error: ${join(dir, 'releases/loop-a.json')}: missing: the index lists loop-a but its releases file is gone`,
    );
  });
});

describe('skills resolve: the resolve index', () => {
  it('prints the same without it (resolve writes it), with it, and with a damaged one', async () => {
    const dir = writeRegistry(join(t.dir, 'with-index'), REGISTRY);
    const file = join(dir, 'resolve-index');
    const outputs = async () => {
      const out: string[] = [];
      for (const specs of [['app@^1'], ['app', '--tree'], ['a@^1', 'b@^2'], ['loop-a@1.0.0'], ['basic-tool@^1']])
        for (const extra of [[], ['--json']]) {
          const r = await runCli(['resolve', ...specs, ...extra, '--registry', dir]);
          out.push(`${r.exitCode}\n${r.stdout}\n${r.stderr}`);
        }
      return out;
    };
    expect(existsSync(file)).toBe(false);
    const without = await outputs();
    expect(without[0]).toContain('web-scraping@2.1.0');
    expect(readFileSync(file, 'utf8')).toContain('\nweb-scraping\t["2.1.0","1.0.0"]\t');
    expect(await outputs()).toEqual(without);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\[\["2\.1\.0",0,0,/, '[["2.1.0",0,"../../x",'));
    expect(await outputs()).toEqual(without);
    writeFileSync(file, 'garbage');
    expect(await outputs()).toEqual(without);
  });
});

describe('skills resolve: usage and registry errors (exit 2)', () => {
  it('rejects a bad spec', async () => {
    const r = await resolve('Basic-Tools@1');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^error: "Basic-Tools@1" is not a skill spec: the id must be lowercase letters, digits and hyphens/,
    );
    const bad = await resolve('basic-tools@banana', '--json');
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stdout).error).toMatchObject({
      code: 'E_USAGE',
      message: expect.stringContaining('"basic-tools@banana" has no valid version or semver range'),
    });
  });

  it('reports a corrupt index with its line and column', async () => {
    const dir = join(t.dir, 'corrupt');
    mkdirSync(dir);
    writeFileSync(join(dir, 'index.json'), '{"version": 1, "skills": [\n  {"id": "a",}\n]}\n');
    const r = await runCli(['resolve', 'a', '--registry', dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: ${join(dir, 'index.json')}:2:14: index.json is not valid JSON`);
    const json = await runCli(['resolve', 'a', '--registry', dir, '--json']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout).error.code).toBe('E_CONFIG');
  });

  it('reports a corrupt releases file with its line and column', async () => {
    const dir = writeRegistry(join(t.dir, 'corrupt-releases'), { a: { '1.0.0': ['b@^1'] }, b: { '1.0.0': [] } });
    writeFileSync(
      join(dir, 'releases/b.json'),
      '{\n  "id": "b",\n  "releases": {\n    "1.0.0": { "integrity": "x", "layout": "neither" }\n  }\n}\n',
    );
    const r = await runCli(['resolve', 'a', '--registry', dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `error: ${join(dir, 'releases/b.json')}:4:44: releases/b.json: releases.1.0.0.layout: Invalid enum value`,
    );
  });

  it('requires at least one spec', async () => {
    const r = await runCli(['resolve']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("missing required argument 'specs'");
  });
});

describe('skills resolve: hostile registries', () => {
  // A pigeonhole puzzle: ten skills p0..p9, each of whose nine versions pins a different "hole" h0..h8 to its own
  // version; root needs every p. No answer exists, and proving so by search takes without limit (> 120 s before).
  const pigeonhole = (): Registry => {
    const n = 9;
    const r: Registry = { root: { '1.0.0': Array.from({ length: n + 1 }, (_, i) => `p${i}@*`) } };
    for (let i = 0; i <= n; i++)
      r[`p${i}`] = Object.fromEntries(Array.from({ length: n }, (_, j) => [`${j + 1}.0.0`, [`h${j}@${i + 1}.0.0`]]));
    for (let j = 0; j < n; j++)
      r[`h${j}`] = Object.fromEntries(Array.from({ length: n + 1 }, (_, i) => [`${i + 1}.0.0`, []]));
    return r;
  };

  it('stops a search past its step budget with a clear error and exit 1; SKILLS_RESOLVE_MAX_STEPS sets the budget', async () => {
    const dir = writeRegistry(join(t.dir, 'pigeonhole'), pigeonhole());
    const r = await runCli(['resolve', 'root@1', '--registry', dir], { timeout: 20_000 });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^error: resolve gave up after 5000000 steps .* without an answer; it was deciding [a-z0-9, ]+/,
    );
    expect(r.stderr).toContain('pin the versions of these skills');
    expect(r.stderr).toContain('SKILLS_RESOLVE_MAX_STEPS raises the limit');
    const small = await runCli(['resolve', 'root@1', '--registry', dir, '--json'], {
      env: { SKILLS_RESOLVE_MAX_STEPS: '1000' },
    });
    expect(small.exitCode).toBe(1);
    expect(JSON.parse(small.stdout).error).toMatchObject({
      code: 'E_INVALID',
      message: expect.stringContaining('gave up after 1000 steps'),
    });
    const bad = await runCli(['resolve', 'root@1', '--registry', dir], { env: { SKILLS_RESOLVE_MAX_STEPS: 'lots' } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('SKILLS_RESOLVE_MAX_STEPS is "lots": expected a whole number above 0');
  });

  it('refuses a dependency whose range is too long, naming the skill and the dependency', async () => {
    const range = Array.from({ length: 10000 }, (_, i) => `1.0.${i}`).join('||');
    const dir = writeRegistry(join(t.dir, 'long-range'), { a: { '1.0.0': [`b@${range}`] }, b: { '1.0.0': [] } });
    const r = await runCli(['resolve', 'a@1', '--registry', dir], { timeout: 20_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^error: .*releases\/a\.json: a@1\.0\.0 has an invalid dependency: "b@1\.0\.0\|\|.*has a version range too long/,
    );
  });
});
