import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// runCli gives the CLI under test none of the runner's variables that tie a test to the machine: `npm test` sets
// npm_config_cache and npm_config_userconfig (~/.npmrc), a developer may have SKILLS_* or XDG_* set, a git hook sets
// GIT_DIR. The CLI's script, run with --inherit-env, shows what the CLI itself was given.

const { fresh, cleanup } = tempFolders('skills-run-cli-env-');
const LEAKS = {
  npm_config_cache: '/leaked/npm-cache',
  NPM_CONFIG_USERCONFIG: '/leaked/.npmrc',
  NPM_TOKEN: 'leaked-token',
  SKILLS_REGISTRY: '/leaked/registry',
  XDG_CONFIG_HOME: '/leaked/config',
  GIT_DIR: '/leaked/.git',
  FORCE_COLOR: '1',
};
const before = Object.fromEntries(Object.keys(LEAKS).map((k) => [k, process.env[k]]));
Object.assign(process.env, LEAKS);
afterAll(() => {
  for (const [k, v] of Object.entries(before)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  cleanup();
});

describe('runCli and the runner environment', () => {
  it("passes none of the machine's npm, SKILLS_, XDG_, GIT_ or colour variables, but those a test passes", async () => {
    const dir = fresh('skill');
    writeTree(dir, {
      'SKILL.md': skillMd('name: env-echo\ndescription: Prints its environment. Use when testing runCli.'),
      'scripts/env.sh': { content: '#!/bin/sh\nenv\n', mode: 0o755 },
    });
    const r = await runCli(['run-script', dir, 'env.sh', '--inherit-env'], {
      env: { npm_config_cache: '/given/npm-cache' },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const names = r.stdout.split('\n').map((l) => l.slice(0, l.indexOf('=')));
    for (const k of Object.keys(LEAKS).filter((k) => k !== 'npm_config_cache')) expect(names).not.toContain(k);
    expect(r.stdout).not.toContain('/leaked/');
    expect(r.stdout).toContain('npm_config_cache=/given/npm-cache');
    expect(names).toContain('PATH');
    expect(r.stdout).toContain('NO_COLOR=1');
  });
});
