// A lock written by another version of skills, through the built CLI: a later version's fields survive this
// version's writes, and a later lockfileVersion is refused with what to do (update skills), the lock untouched.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-lock-versions-');
afterAll(cleanup);

const skill = (name: string) => ({
  [`src/${name}/SKILL.md`]: skillMd(
    `name: ${name}\ndescription: Does ${name} things. Use when the user asks for ${name}.\n`,
  ),
});

describe('a lock from another version of skills', () => {
  it('keeps the fields a later version wrote when this one installs another skill; refuses lockfileVersion 2', async () => {
    const dir = fresh();
    writeTree(dir, { ...skill('alpha'), ...skill('beta') });
    const env = { HOME: fresh('home') };
    expect((await runCli(['install', 'src/alpha', '--into', '.claude/skills'], { cwd: dir, env })).exitCode).toBe(0);
    const file = join(dir, 'skills-lock.json');
    const lock = JSON.parse(readFileSync(file, 'utf8'));
    lock.attestations = { alpha: 'sig' };
    lock.skills.alpha.signedBy = 'team-key';
    writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);

    const frozen = await runCli(['install', '--frozen'], { cwd: dir, env });
    expect(frozen.exitCode, frozen.stderr).toBe(0);
    const r = await runCli(['install', 'src/beta', '--into', '.claude/skills'], { cwd: dir, env });
    expect(r.exitCode, r.stderr).toBe(0);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(after.skills)).toEqual(['alpha', 'beta']);
    expect(after.attestations).toEqual({ alpha: 'sig' });
    expect(after.skills.alpha.signedBy).toBe('team-key');

    after.lockfileVersion = 2;
    const newer = `${JSON.stringify(after, null, 2)}\n`;
    writeFileSync(file, newer);
    const refused = await runCli(['install', '--frozen'], { cwd: dir, env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      'skills-lock.json has lockfileVersion 2: it was written by a newer version of skills, and this one reads lockfileVersion 1',
    );
    expect(refused.stderr).toContain('update skills');
    expect(refused.stderr).not.toContain('delete it');
    expect(readFileSync(file, 'utf8')).toBe(newer);
  });
});
