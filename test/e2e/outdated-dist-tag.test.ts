// An npm skill installed by a dist-tag (`@acme/nexty@next`), seen by outdated and update through the built CLI against
// a real registry (Verdaccio, on 127.0.0.1 with no uplinks): wanted is the version the tag points at now, as
// `npm outdated` reads a tag, not "no version in next".
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';
import { acmeNpmrc, TEST_TOKEN_ENV, verdaccioForFile } from '../helpers/verdaccio.js';

const { fresh, cleanup } = tempFolders('skills-outdated-dist-tag-e2e-');
const registry = verdaccioForFile(fresh, cleanup);
const env = () => ({ [TEST_TOKEN_ENV]: registry.token });

/** A folder whose .npmrc points at the test registry, holding `files`. */
function project(files: Record<string, string> = {}): string {
  const dir = fresh('project');
  writeTree(dir, { '.npmrc': acmeNpmrc(registry.url), ...files });
  return dir;
}

const nexty = (version: string) =>
  skillMd(
    `name: nexty\ndescription: Tries things early. Use when testing a dist-tag.\nmetadata:\n  version: ${version}\n`,
  );

/** Publish the skill at `version` under the dist-tag `tag`. */
async function publish(version: string, tag: string, id = 'nexty'): Promise<void> {
  const author = project({ [`${id}/SKILL.md`]: nexty(version).replace('name: nexty', `name: ${id}`) });
  const r = await runCli(['publish', id, '--tag', tag], { cwd: author, env: env() });
  expect(r.exitCode, r.stderr).toBe(0);
}

describe('a skill installed by a dist-tag', () => {
  it('outdated wants the version the tag points at now, and update moves there keeping the tag', async () => {
    await publish('1.0.0', 'latest');
    await publish('2.0.0-beta.1', 'next');
    const user = project();
    const lockOf = () => JSON.parse(readFileSync(join(user, 'skills-lock.json'), 'utf8')).skills.nexty;
    const installed = await runCli(['install', '@acme/nexty@next'], { cwd: user, env: env() });
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(lockOf()).toMatchObject({ version: '2.0.0-beta.1', ref: 'next' });

    // Where the tag still points: up to date, with no note of a missing version.
    const same = await runCli(['outdated', '--json'], { cwd: user, env: env() });
    expect(same.exitCode, same.stderr).toBe(0);
    const entry = JSON.parse(same.stdout).skills[0];
    expect(entry).toMatchObject({ outdated: false, wanted: { version: '2.0.0-beta.1' } });
    expect(entry.note).toBeUndefined();

    // The tag moves on: wanted is where it points; latest stays the `latest` tag's release.
    await publish('2.0.0-beta.2', 'next');
    const o = await runCli(['outdated'], { cwd: user, env: env() });
    expect(o.exitCode, o.stderr).toBe(0);
    expect(o.stdout).toMatch(/^nexty\s+2\.0\.0-beta\.1\s+2\.0\.0-beta\.2\s+1\.0\.0\s+npm:@acme\/nexty$/m);

    const u = await runCli(['update'], { cwd: user, env: env() });
    expect(u.exitCode, u.stderr).toBe(0);
    expect(u.stdout).toContain('updated nexty 2.0.0-beta.1 → 2.0.0-beta.2');
    expect(lockOf()).toMatchObject({ version: '2.0.0-beta.2', ref: 'next' });
    const after = await runCli(['outdated'], { cwd: user, env: env() });
    expect([after.exitCode, after.stdout]).toEqual([0, 'all skills are up to date']);
  }, 120_000);

  it("a plain install took the `latest` tag's version: outdated and update do not offer one published under `next`", async () => {
    await publish('1.0.0', 'latest', 'plainy');
    await publish('1.5.0', 'next', 'plainy');
    const user = project();
    const installed = await runCli(['install', '@acme/plainy'], { cwd: user, env: env() });
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('plainy@1.0.0');
    // It said: wanted 1.5.0, latest 1.5.0, and update installed it.
    const o = await runCli(['outdated'], { cwd: user, env: env() });
    expect([o.exitCode, o.stdout]).toEqual([0, 'all skills are up to date']);
    const u = await runCli(['update', '--latest', '--dry-run'], { cwd: user, env: env() });
    expect([u.exitCode, u.stdout]).toEqual([0, 'all skills are up to date']);
  }, 120_000);
});
