// The README's "Share skills with your team" section, run as written against a real npm registry (Verdaccio on
// 127.0.0.1): the commands are read out of the README, with the example registry's URL sent to the test's one,
// so the section cannot drift from what the tool does.
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, tempFolders, testEnv } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';
import { verdaccioForFile } from '../helpers/verdaccio.js';

const { fresh, cleanup } = tempFolders('skills-readme-share-');
const registry = verdaccioForFile(fresh, cleanup);

/** The commands of the section's sh block, comments left out. */
function section(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('## Share skills with your team');
  expect(at).toBeGreaterThan(0);
  const start = readme.indexOf('```sh\n', at) + '```sh\n'.length;
  return readme
    .slice(start, readme.indexOf('\n```', start))
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
}

describe('the README section "Share skills with your team"', () => {
  it('publishes, finds, installs, checks and replays, as written', async () => {
    const commands = section();
    expect(commands.some((c) => c.startsWith('skills publish'))).toBe(true);
    expect(commands.some((c) => c.startsWith('skills install @'))).toBe(true);
    const project = fresh('project');
    writeTree(project, {
      'skills/pdf/SKILL.md': skillMd(
        'name: pdf\ndescription: Extract text from PDF files. Use when the user gives a PDF.\nmetadata:\n  version: 1.2.0\n',
      ),
    });
    const host = new URL(registry.url).host;
    const env = testEnv(fresh('home'), { NPM_TOKEN: registry.token, PATH: `${fresh('bin')}:${process.env.PATH}` });
    // `skills` on the PATH is the built CLI.
    writeTree(env.PATH!.split(':')[0]!, { skills: `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n` });
    const { chmodSync } = await import('node:fs');
    chmodSync(join(env.PATH!.split(':')[0]!, 'skills'), 0o755);
    for (const command of commands) {
      const line = command.replaceAll('https://npm.acme.example/', registry.url).replaceAll('npm.acme.example', host);
      const r = await execa('bash', ['-c', line], {
        cwd: project,
        env,
        extendEnv: false,
        reject: false,
        timeout: 60_000,
      });
      expect(r.exitCode, `${command}\n${r.stderr}`).toBe(0);
      if (command.startsWith('skills search')) expect(r.stdout).toContain('@acme/pdf@1.2.0');
    }
    expect(readFileSync(join(project, '.npmrc'), 'utf8')).toContain('//' + host + '/:_authToken=${NPM_TOKEN}');
    expect(existsSync(join(project, '.claude/skills/pdf/SKILL.md'))).toBe(true);
    expect(JSON.parse(readFileSync(join(project, 'skills-lock.json'), 'utf8')).skills.pdf).toMatchObject({
      source: 'npm:@acme/pdf',
      version: '1.2.0',
      ref: '^1.2',
    });
  }, 120_000);
});
