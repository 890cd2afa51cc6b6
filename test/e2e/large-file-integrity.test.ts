// A skill's large file is hashed a chunk at a time (registry/integrity.ts, HASH_CHUNK), never read whole: `list`
// comparing two copies of a skill with a 200 MB data file (a twin installed for two agents) held each whole before.
import { afterAll, describe, expect, it } from 'vitest';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { runMeasured, tempFolders } from '../helpers/cli.js';
import { skillMd } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-large-integrity-');
afterAll(cleanup);

const MB = 1024 * 1024;

/** A skill `name` whose data.bin is `size` bytes of zeros, none of them on the disk (sparse). */
function withData(name: string, size: number): string {
  const src = join(fresh('src'), name);
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, 'SKILL.md'), skillMd(`name: ${name}\ndescription: Big. Use when testing.\n`, '# B\n'));
  writeFileSync(join(src, 'data.bin'), '');
  truncateSync(join(src, 'data.bin'), size);
  return src;
}

/** `skills install <src> --agent claude-code` in a new project, with a registry in a new HOME, measured. */
function install(src: string): { project: string; home: string; r: ReturnType<typeof runMeasured> } {
  const project = fresh('project');
  const home = fresh('home');
  const r = runMeasured(['install', src, '--agent', 'claude-code'], project, fresh('probe'), {
    HOME: home,
    SKILLS_REGISTRY: join(home, 'registry'),
  });
  expect(r.status, r.stderr).toBe(0);
  return { project, home, r };
}

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
    const src = withData('big', 200 * MB);
    const { project, home, r } = install(src);
    // Copied twice, into the registry's store and into the agent's folder, each whole.
    expect(statSync(join(project, '.claude/skills/big/data.bin')).size).toBe(200 * MB);
    expect(statSync(join(home, 'registry/built-in/big@0.0.0/data.bin')).size).toBe(200 * MB);
    // About 60 MB; read whole for each copy, 265 MB.
    expect(r.peak).toBeLessThan(140 * MB);
  });

  it('is copied with its holes: install places a sparse 24 MB file without writing out its zeros', (ctx) => {
    // 24 MB, of which a few bytes are written: one in the middle, one in the last block, which is not a whole one.
    const src = withData('sparse', 24 * MB + 100);
    const data = join(src, 'data.bin');
    const fd = openSync(data, 'r+');
    writeSync(fd, 'middle', 12 * MB + 3);
    writeSync(fd, 'end', 24 * MB + 97);
    closeSync(fd);
    // A file system that keeps no holes (a few do not) has nothing to show here.
    if (statSync(data).blocks * 512 > MB) return ctx.skip();
    const { project, home } = install(src);
    for (const copy of [
      join(project, '.claude/skills/sparse/data.bin'),
      join(home, 'registry/built-in/sparse@0.0.0/data.bin'),
    ]) {
      const st = statSync(copy);
      expect(st.size).toBe(24 * MB + 100);
      // Before: 24 MB on the disk for each copy (a 200 MB file, 200 MB).
      expect(st.blocks * 512).toBeLessThan(MB);
      const bytes = readFileSync(copy);
      expect(bytes.subarray(12 * MB, 12 * MB + 9).toString('latin1')).toBe('\0\0\0middle');
      expect(bytes.subarray(24 * MB + 90).toString('latin1')).toBe('\0\0\0\0\0\0\0end');
      expect(bytes.equals(readFileSync(data))).toBe(true);
    }
  });
});
