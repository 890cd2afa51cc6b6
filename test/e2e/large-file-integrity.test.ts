// A skill's large file is hashed a chunk at a time (registry/integrity.ts, HASH_CHUNK), never read whole: `list`
// comparing two copies of a skill with a 200 MB data file (a twin installed for two agents) held each whole before.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMeasured, tempFolders } from '../helpers/cli.js';
import { skillMd } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-large-integrity-');
afterAll(cleanup);

const MB = 1024 * 1024;

describe('the integrity of a skill with a large file (built CLI)', () => {
  it('is worked out without holding the file: list tells twins with 200 MB files apart in about the memory of a start', () => {
    const project = fresh('project');
    const home = fresh('home');
    for (const folder of ['.agents/skills/twin', '.claude/skills/twin']) {
      const dir = join(project, folder);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'SKILL.md'), skillMd('name: twin\ndescription: Twin. Use when testing.\n', '# T\n'));
      // Sparse: 200 MB to read, nothing on the disk.
      writeFileSync(join(dir, 'data.bin'), '');
      truncateSync(join(dir, 'data.bin'), 200 * MB);
    }
    const r = runMeasured(['list'], project, fresh('probe'), { HOME: home, SKILLS_REGISTRY: join(home, 'none') });
    expect(r.status, r.stderr).toBe(0);
    // The same content: the copy in .claude/skills shadows its twin, which is no cause for a warning.
    expect(r.stderr).toBe('');
    // About 60 MB; reading each file whole took 260 MB.
    expect(r.peak).toBeLessThan(140 * MB);
  });

  it('is copied a chunk at a time: install places a skill with a 200 MB file in about the memory of a start', () => {
    const src = join(fresh('src'), 'big');
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, 'SKILL.md'), skillMd('name: big\ndescription: Big. Use when testing.\n', '# B\n'));
    writeFileSync(join(src, 'data.bin'), '');
    truncateSync(join(src, 'data.bin'), 200 * MB);
    const project = fresh('project');
    const home = fresh('home');
    const r = runMeasured(['install', src, '--agent', 'claude-code'], project, fresh('probe'), {
      HOME: home,
      SKILLS_REGISTRY: join(home, 'registry'),
    });
    expect(r.status, r.stderr).toBe(0);
    // Copied twice, into the registry's store and into the agent's folder, each whole.
    expect(statSync(join(project, '.claude/skills/big/data.bin')).size).toBe(200 * MB);
    expect(statSync(join(home, 'registry/built-in/big@0.0.0/data.bin')).size).toBe(200 * MB);
    // About 60 MB; read whole for each copy, 265 MB.
    expect(r.peak).toBeLessThan(140 * MB);
  });
});
