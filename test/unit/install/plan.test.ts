import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { emptyLockfile, type Lockfile } from '../../../src/formats/lockfile.js';
import { planFromSources } from '../../../src/install/plan.js';
import { planFromLock } from '../../../src/install/replay.js';
import { Scratch } from '../../../src/install/sources.js';
import type { InstallOptions } from '../../../src/install/types.js';
import { integrityOf } from '../../../src/registry/integrity.js';
import { registerSkill } from '../../../src/registry/register.js';
import { loadSkill } from '../../../src/skill/load.js';
import { isSkillsError, type SkillsError } from '../../../src/errors.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-install-plan-');
afterAll(cleanup);

function makeSkill(parent: string, name: string, version: string | undefined, extra = ''): string {
  const dir = join(parent, name);
  const meta = version ? `metadata:\n  version: "${version}"\n` : '';
  writeTree(dir, {
    'SKILL.md': skillMd(`name: ${name}\ndescription: Does ${name} things. Use when testing.\n${meta}${extra}`),
  });
  return dir;
}

function setup(): {
  project: string;
  registry: string;
  options: (sources: string[], more?: Partial<InstallOptions>) => InstallOptions;
} {
  const project = fresh('project');
  const registry = join(fresh('home'), '.skills');
  const home = fresh('user');
  const options = (sources: string[], more: Partial<InstallOptions> = {}): InstallOptions => ({
    registry,
    useRegistry: true,
    cacheDir: join(home, '.cache', 'skills'),
    home,
    env: {},
    lockfile: join(project, 'skills-lock.json'),
    sources,
    cwd: project,
    nodeVersion: '20.0.0',
    ...more,
  });
  return { project, registry, options };
}

async function plan(opts: InstallOptions, lock: Lockfile = emptyLockfile()) {
  const scratch = new Scratch(opts.registry);
  try {
    return await planFromSources(opts, lock, scratch, opts.cwd);
  } finally {
    scratch.cleanup();
  }
}

describe('planFromSources', () => {
  it('plans a local folder with its dependency from the registry, dependencies first, and the lock that results', async () => {
    const { project, registry, options } = setup();
    await registerSkill(registry, loadSkill(makeSkill(fresh('src'), 'base', '1.2.0')));
    const app = makeSkill(join(project, 'skills'), 'app', '1.0.0', 'dependencies:\n  - base@^1.0.0\n');
    const planned = await plan(options(['./skills/app']));
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    expect(planned.items.map((i) => [i.resolved.id, i.resolved.version, i.plan.kind, i.requested])).toEqual([
      ['base', '1.2.0', 'present', false],
      ['app', '1.0.0', 'local', true],
    ]);
    expect(planned.next.skills.app).toEqual({
      version: '1.0.0',
      source: 'folder:skills/app',
      integrity: integrityOf(loadSkill(app)),
      dependencies: { base: '1.2.0' },
    });
    expect(planned.next.skills.base!.source).toBe('registry');
    expect(planned.warnings).toEqual([]);
  });

  it('reports an invalid folder as a finding (not a throw), with its diagnostics', async () => {
    const { project, options } = setup();
    writeTree(join(project, 'bad'), { 'SKILL.md': skillMd('name: bad\n') });
    const planned = await plan(options(['./bad']));
    expect(planned.ok).toBe(false);
    if (planned.ok) return;
    expect(planned.kind).toBe('invalid');
    expect(planned.invalid![0]!.diagnostics.length).toBeGreaterThan(0);
  });

  it('with --frozen, refuses a plan that would change the lock, listing the changes', async () => {
    const { project, options } = setup();
    makeSkill(project, 'app', '1.0.0');
    const planned = await plan(options(['./app'], { frozen: true }));
    expect(planned.ok).toBe(false);
    if (planned.ok) return;
    expect(planned.kind).toBe('frozen');
    expect(planned.changes!.join('\n')).toContain('app');
  });

  it('refuses other content under a version the lock already has (integrity mismatch)', async () => {
    const { project, options } = setup();
    makeSkill(project, 'app', '1.0.0');
    const lock: Lockfile = {
      ...emptyLockfile(),
      skills: {
        app: {
          version: '1.0.0',
          source: 'folder:app',
          integrity: `sha512-${Buffer.alloc(64).toString('base64')}`,
          dependencies: {},
        },
      },
    };
    let err: SkillsError | undefined;
    try {
      await plan(options(['./app']), lock);
    } catch (e) {
      if (isSkillsError(e)) err = e;
    }
    expect(err?.code).toBe('E_INVALID');
    expect(err?.message).toContain('integrity mismatch for app@1.0.0');
  });

  it('marks an unversioned skill as 0.0.0 with a warning, and its new content as an update rather than a mismatch', async () => {
    const { project, options } = setup();
    makeSkill(project, 'loose', undefined);
    const lock: Lockfile = {
      ...emptyLockfile(),
      skills: {
        loose: {
          version: '0.0.0',
          source: 'folder:loose',
          integrity: `sha512-${Buffer.alloc(64).toString('base64')}`,
          dependencies: {},
        },
      },
    };
    const planned = await plan(options(['./loose']), lock);
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    expect(planned.next.skills.loose!.version).toBe('0.0.0');
    expect(planned.warnings.join('\n')).toContain('loose has no version');
  });
});

describe('planFromLock', () => {
  it('refuses to plan without a lock', async () => {
    const { registry, options } = setup();
    const scratch = new Scratch(registry);
    await expect(planFromLock(options([]), undefined, scratch)).rejects.toMatchObject({ code: 'E_USAGE' });
  });

  it('plans exactly the locked entries, checked against where they come from', async () => {
    const { project, options, registry } = setup();
    const app = makeSkill(project, 'app', '1.0.0');
    const integrity = integrityOf(loadSkill(app));
    const lock: Lockfile = {
      ...emptyLockfile(),
      skills: { app: { version: '1.0.0', source: 'folder:app', integrity, dependencies: {} } },
    };
    const scratch = new Scratch(registry);
    const planned = await planFromLock(options([]), lock, scratch);
    expect(planned.items.map((i) => [i.resolved.id, i.plan.kind, i.entry.integrity])).toEqual([
      ['app', 'local', integrity],
    ]);
    expect(planned.next).toBe(lock);
    const changed: Lockfile = {
      ...lock,
      skills: { app: { ...lock.skills.app!, integrity: `sha512-${Buffer.alloc(64).toString('base64')}` } },
    };
    await expect(planFromLock(options([]), changed, scratch)).rejects.toMatchObject({ code: 'E_INVALID' });
    scratch.cleanup();
  });
});
