import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, testEnv } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// A folder the search may not read, and a skill file this user may not read, are said, never passed over: validate
// and lint name the folder with the reason and exit 1; an unreadable SKILL.md is SK038, "cannot be read"; a folder
// named that cannot be listed gets a hint about reading. Root reads whatever the modes say, so the CLI runs as
// nobody when the tests run as root (as they do in CI); a user other than root is bound by the modes already.

const root = process.getuid?.() === 0;
const nobody = root ? Number(execFileSync('id', ['-u', 'nobody']).toString().trim()) : undefined;
const nogroup = root ? Number(execFileSync('id', ['-g', 'nobody']).toString().trim()) : undefined;

// nobody may not reach the checkout (a clone in a 0700 folder, /root): it runs a copy of the built CLI (bin, dist and
// package.json; validate, lint and list need nothing of node_modules) in a folder everyone may read.
let cli = BIN;
let copy: string | undefined;
if (nobody !== undefined) {
  copy = mkdtempSync(join(tmpdir(), 'skills-unreadable-cli-'));
  chmodSync(copy, 0o755);
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  cli = join(copy, 'bin', 'skills.js');
}
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

async function run(args: string[], cwd: string) {
  const r = await execa(process.execPath, [cli, ...args], {
    cwd,
    env: testEnv(cwd),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 30_000,
    ...(nobody !== undefined ? { uid: nobody, gid: nogroup } : {}),
  });
  return { exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(process.platform === 'win32')('folders and skill files that cannot be read (built CLI)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'skills-unreadable-'));
    chmodSync(dir, 0o755);
    writeTree(dir, {
      't/a/SKILL.md': skillMd('name: a\ndescription: A readable skill. Use when testing modes.'),
      't/b/SKILL.md': skillMd('name: b\ndescription: A skill in a shut folder. Use when testing modes.'),
      'u/c/SKILL.md': skillMd('name: c\ndescription: A skill file nobody may read. Use when testing modes.'),
    });
    chmodSync(join(dir, 't/b'), 0o000);
    chmodSync(join(dir, 'u/c/SKILL.md'), 0o000);
  });
  afterAll(() => {
    chmodSync(join(dir, 't/b'), 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['validate', 'lint'])('%s names a folder it cannot read, with the reason, and exits 1', async (cmd) => {
    const r = await run([cmd, 't'], dir);
    expect(r.stderr).toContain(`warning: ${join(dir, 't/b')}: cannot read the folder: permission denied (EACCES)`);
    expect(r.stdout).toContain('t/a');
    expect(r.exitCode).toBe(1);
  });

  it.each(['validate', 'lint'])(
    '%s --json lists it under a top-level "unread", the other fields as they were',
    async (cmd) => {
      const r = await run([cmd, 't', '--json'], dir);
      expect(r.exitCode).toBe(1);
      const doc = JSON.parse(r.stdout) as { skills: { id: string }[]; errorCount: number; unread: unknown };
      expect(doc.unread, `${cmd} --json: expected the folder it could not read`).toEqual([
        { path: join(dir, 't/b'), message: 'cannot read the folder: permission denied (EACCES)' },
      ]);
      expect(doc.skills.map((s) => s.id)).toEqual(['a']);
      expect(doc.errorCount).toBe(0);
    },
  );

  it('list skips it with the same warning', async () => {
    const r = await run(['list', 't'], dir);
    expect(r.stderr).toContain(`${join(dir, 't/b')}: skipped: cannot read the folder: permission denied (EACCES)`);
  });

  it('a folder named that cannot be listed: the hint speaks of reading it', async () => {
    const r = await run(['validate', 't/b'], dir);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`cannot list the folder ${join(dir, 't/b')}: permission denied (EACCES)`);
    expect(r.stderr).toContain('you may not read it');
    expect(r.stderr).not.toContain('you may write');
  });

  it('a SKILL.md it may not read is SK038 "cannot be read", not too large', async () => {
    const r = await run(['validate', 'u'], dir);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('SKILL.md cannot be read: permission denied  SK038 file-unreadable');
    expect(r.stdout).not.toContain('file-too-large');
  });
});
