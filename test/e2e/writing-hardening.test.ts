// Writing files as an adversary would have it: symlinked files under lint --fix, temp files a killed run left,
// a full disk, a read-only registry, a file size limit, archive entries the file system cannot take, a NUL byte.
// Every case runs the built CLI on real files; the full and read-only file systems are real tmpfs mounts.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { execa } from 'execa';
import { BIN, EXAMPLES, runCli, tempFolders, type CliResult, testEnv } from '../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-writing-e2e-');
const mounts: string[] = [];
afterAll(() => {
  for (const m of mounts.reverse()) umount(m);
  cleanup();
});

/** A pid no process has: one past the highest the kernel hands out, else a large one. */
const DEAD_PID = (() => {
  try {
    return Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim()) + 1;
  } catch {
    return 4_194_304 + 1;
  }
})();

const skillText = (name: string, extra = '') =>
  `---\nname: ${name}\ndescription: Does ${name} things. Use when testing writes.\n${extra}---\n# ${name}\n\nBody.\n`;
/** A SKILL.md lint --fix rewrites: allowed-tools as a YAML list becomes one string. */
const fixable = (name: string) => skillText(name, 'allowed-tools:\n  - Read\n  - Write\n');

function skill(dir: string, name: string, text = skillText(name)): string {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'SKILL.md'), text);
  return root;
}

/** Every path below `dir` (relative), links not followed. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

const noBug = (r: CliResult) => {
  expect(r.stderr).not.toMatch(/this is a bug/i);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.stderr + r.stdout).not.toMatch(/not a readable archive/);
};

// --- tmpfs: a real full or read-only file system, for root where the sandbox allows mounts --------------------

function umount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'ignore' });
  } catch {
    /* already gone */
  }
}

const CAN_MOUNT = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = fresh('probe');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    umount(probe);
    return true;
  } catch {
    return false;
  }
})();
const MOUNT_REASON = 'needs root and mount -t tmpfs; skipped when not root or the sandbox refuses mount';

/** A fresh tmpfs of `size` (e.g. '2m') at a new folder. */
function tmpfs(size: string): string {
  const dir = fresh('tmpfs');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}
const remountReadOnly = (dir: string) => execFileSync('mount', ['-o', 'remount,ro', dir]);

/** Fill a file system to the last byte. */
function fill(dir: string): void {
  try {
    writeFileSync(join(dir, 'filler'), Buffer.alloc(64 * 1024 * 1024));
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
  }
}

// --- archives with entries a file system cannot take ------------------------------------------------------------

type Entry = { path: string; body?: string | Buffer; dir?: boolean };

/** A .tgz built entry by entry, whatever the entries say (node-tar's Header, as pack builds its own). */
async function tgz(file: string, entries: Entry[]): Promise<string> {
  const { Header, Pax } = await import('tar');
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = e.body === undefined ? Buffer.alloc(0) : Buffer.from(e.body);
    const fields = {
      path: e.path,
      mode: e.dir ? 0o755 : 0o644,
      size: body.length,
      mtime: new Date(0),
      type: e.dir ? 'Directory' : 'File',
    } as const;
    const block = Buffer.alloc(512);
    const header = new Header(fields);
    header.encode(block);
    if (header.needPax) blocks.push(new Pax({ path: e.path, size: body.length }).encode());
    blocks.push(block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  writeFileSync(file, gzipSync(Buffer.concat(blocks)));
  return file;
}

/** A .zip of the entries, made with yazl. */
async function zip(file: string, entries: Entry[]): Promise<string> {
  const yazl = (await import('yazl')).default;
  const z = new yazl.ZipFile();
  for (const e of entries) {
    if (e.dir) z.addEmptyDirectory(e.path);
    else z.addBuffer(Buffer.from(e.body ?? ''), e.path);
  }
  z.end();
  const chunks: Buffer[] = [];
  for await (const c of z.outputStream) chunks.push(c as Buffer);
  writeFileSync(file, Buffer.concat(chunks));
  return file;
}

const SKILL_ENTRY = (top: string): Entry => ({ path: `${top}/SKILL.md`, body: skillText(top) });

/** The registry holds no skill and nothing half made; the project has no lock. */
function nothingInstalled(reg: string, project: string): void {
  const left = existsSync(reg) ? tree(reg) : [];
  expect(left.filter((p) => /(^|\/)\.(unpack|staging|trash)-/.test(p))).toEqual([]);
  expect(left.filter((p) => /(^|\/)(built-in|custom)\/[^/]+$/.test(p))).toEqual([]);
  expect(existsSync(join(project, 'skills-lock.json'))).toBe(false);
}

// ------------------------------------------------------------------------------------------------------------------

describe('lint --fix and symlinked files (17)', () => {
  it('writes through a symlinked SKILL.md whose target is inside the skill; the link stays a link', async () => {
    const dir = fresh();
    const root = join(dir, 'linked');
    mkdirSync(join(root, 'docs'), { recursive: true });
    writeFileSync(join(root, 'docs', 'main.md'), fixable('linked'));
    symlinkSync('docs/main.md', join(root, 'SKILL.md'));
    const r = await runCli(['lint', '--fix', 'linked'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('fixed  linked/SKILL.md: write allowed-tools as one space-separated string');
    expect(lstatSync(join(root, 'SKILL.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, 'SKILL.md'))).toBe('docs/main.md');
    expect(readFileSync(join(root, 'docs', 'main.md'), 'utf8')).toContain('allowed-tools: Read Write\n');
    expect(tree(root)).toEqual(['SKILL.md', 'docs', 'docs/main.md']);
  });

  it('changes the mode of a script through its symlink inside the skill, not the link', async () => {
    const dir = fresh();
    const root = join(dir, 'cron-tools');
    cpSync(join(EXAMPLES, 'cron-tools'), root, { recursive: true });
    mkdirSync(join(root, 'lib'));
    cpSync(join(root, 'scripts', 'list-cron-jobs.sh'), join(root, 'lib', 'list.sh'));
    chmodSync(join(root, 'lib', 'list.sh'), 0o644);
    rmSync(join(root, 'scripts', 'list-cron-jobs.sh'));
    symlinkSync('../lib/list.sh', join(root, 'scripts', 'list-cron-jobs.sh'));
    const r = await runCli(['lint', '--fix', 'cron-tools'], { cwd: dir });
    expect(r.stdout).toContain('fixed  cron-tools/scripts/list-cron-jobs.sh');
    expect(lstatSync(join(root, 'scripts', 'list-cron-jobs.sh')).isSymbolicLink()).toBe(true);
    expect(statSync(join(root, 'lib', 'list.sh')).mode & 0o777).toBe(0o755);
  });

  it('never writes through a SKILL.md that is a symlink leading out: it is not read, and reported (SK025)', async () => {
    const dir = fresh();
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    // A SKILL.md that is a link out, beside a skill that needs a fix too: no command reads the link, so no fix is
    // planned for it; the other skill is fixed.
    writeFileSync(join(outside, 'SKILL.md'), fixable('out-link'));
    mkdirSync(join(dir, 'skills', 'out-link'), { recursive: true });
    symlinkSync(join(outside, 'SKILL.md'), join(dir, 'skills', 'out-link', 'SKILL.md'));
    skill(join(dir, 'skills'), 'plain', fixable('plain'));
    const r = await runCli(['lint', '--fix', 'skills'], { cwd: dir });
    expect(r.exitCode).toBe(1);
    noBug(r);
    expect(r.stdout).toContain(
      `SKILL.md is a symbolic link that leads out of the skill (to ${join(outside, 'SKILL.md')}): expected a file inside the skill folder; no command reads it  SK025 path-inside`,
    );
    expect(readFileSync(join(outside, 'SKILL.md'), 'utf8')).toBe(fixable('out-link'));
    expect(lstatSync(join(dir, 'skills', 'out-link', 'SKILL.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'skills', 'plain', 'SKILL.md'), 'utf8')).not.toBe(fixable('plain'));
    expect(tree(dir).filter((p) => /tmp|skills-fix/.test(p))).toEqual([]);
  });

  it('refuses the same for every file a fix writes: a .env.example that leads out is not appended to', async () => {
    const dir = fresh();
    const root = join(dir, 'social-media-apis');
    cpSync(join(EXAMPLES, 'social-media-apis'), root, { recursive: true });
    writeFileSync(join(dir, 'shared.env'), 'OTHER=\n');
    rmSync(join(root, '.env.example'));
    symlinkSync('../shared.env', join(root, '.env.example'));
    const r = await runCli(['lint', '--fix', 'social-media-apis'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    noBug(r);
    expect(r.stderr).toContain(`${join(root, '.env.example')} is a symlink that leads out of the skill`);
    expect(readFileSync(join(dir, 'shared.env'), 'utf8')).toBe('OTHER=\n');
    expect(readlinkSync(join(root, '.env.example'))).toBe('../shared.env');
  });

  it('--fix-dry-run still shows the plan for a linked file, and writes nothing', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'real.md'), fixable('dry'));
    mkdirSync(join(dir, 'dry'));
    symlinkSync('../real.md', join(dir, 'dry', 'SKILL.md'));
    const r = await runCli(['lint', '--fix-dry-run', 'dry'], { cwd: dir });
    expect(r.exitCode).not.toBe(2);
    expect(readFileSync(join(dir, 'real.md'), 'utf8')).toBe(fixable('dry'));
    expect(lstatSync(join(dir, 'dry', 'SKILL.md')).isSymbolicLink()).toBe(true);
  });
});

describe('temp files a killed or failed write left (18)', () => {
  /** A skill holding what killed runs left: the old lint --fix name, writeAtomic's and pack's; one of a live pid. */
  function littered(dir: string, name: string) {
    const root = skill(dir, name, skillText(name, 'metadata:\n  version: "1.0.0"\n'));
    mkdirSync(join(root, 'references'));
    writeFileSync(join(root, 'references', 'guide.md'), '# Guide\n');
    const dead = [
      `.SKILL.md.skills-fix-${DEAD_PID}`,
      `.SKILL.md.tmp-w.${DEAD_PID}.0123abcd`,
      `references/.guide.md.tmp-w.${DEAD_PID}.deadbeef`,
      `.${name}-1.0.0.tgz.tmp.${DEAD_PID}.00ff00ff`,
    ];
    // The test runner is alive: its temp file belongs to a write under way.
    const live = `.SKILL.md.skills-fix-${process.pid}`;
    for (const f of [...dead, live]) writeFileSync(join(root, f), 'half written');
    return { root, dead, live };
  }

  it('pack never packs them, in either format, and says so', async () => {
    const dir = fresh();
    const { root, dead, live } = littered(dir, 'littered');
    for (const format of ['tgz', 'skill']) {
      const r = await runCli(['pack', 'littered', '--json', '--format', format, '--out', 'out'], { cwd: dir });
      expect(r.exitCode).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.files.map((f: { path: string }) => f.path)).toEqual(['SKILL.md', 'references/guide.md']);
      expect(out.leftovers).toEqual([...dead, live].sort());
      expect(out.warnings.join('\n')).toContain(`.SKILL.md.skills-fix-${DEAD_PID} left out: a temp file`);
    }
    const list = execFileSync('tar', ['tzf', join(dir, 'out', 'littered-1.0.0.tgz')], { encoding: 'utf8' });
    expect(list).not.toMatch(/tmp|skills-fix/);
    // pack only reads the skill.
    expect(existsSync(join(root, dead[0]!))).toBe(true);
  });

  it('sync and install copy none of them into the store or an --into folder', async () => {
    const dir = fresh();
    littered(join(dir, 'src'), 'littered');
    const reg = join(dir, 'reg');
    const s = await runCli(['sync', 'src', '--registry', reg], { cwd: dir });
    expect(s.exitCode).toBe(0);
    expect(tree(join(reg, 'built-in', 'littered@1.0.0'))).toEqual(['SKILL.md', 'references', 'references/guide.md']);
    const project = join(dir, 'project');
    mkdirSync(project);
    const i = await runCli(['install', join(dir, 'src', 'littered'), '--registry', join(dir, 'reg2'), '--into', 'sk'], {
      cwd: project,
    });
    expect(i.exitCode).toBe(0);
    expect(tree(join(project, 'sk', 'littered'))).toEqual(['SKILL.md', 'references', 'references/guide.md']);
  });

  it('lint --fix removes those of dead writers, in every folder of the skill, and keeps a live one', async () => {
    const dir = fresh();
    const { root, dead, live } = littered(dir, 'littered');
    const r = await runCli(['lint', '--fix', 'littered'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    for (const f of dead) expect(existsSync(join(root, f))).toBe(false);
    expect(existsSync(join(root, live))).toBe(true);
    // Validation does not see them as files of the skill either.
    const v = await runCli(['validate', 'littered', '--json'], { cwd: dir });
    expect(v.stdout).not.toMatch(/skills-fix|tmp-w/);
  });

  describe.skipIf(!CAN_MOUNT)(`a fix that fails on a full disk (${MOUNT_REASON})`, () => {
    it('leaves the file whole, no temp file, and says the disk is full (exit 2)', async () => {
      const disk = tmpfs('256k');
      const root = skill(disk, 'full', fixable('full'));
      fill(disk);
      const r = await runCli(['lint', '--fix', 'full'], { cwd: disk });
      expect(r.exitCode).toBe(2);
      noBug(r);
      // Said as a fix not written, with the reason, after the fixes that were (fix18f: lint --fix goes on past a
      // file it cannot write, and exits 2 at the end).
      expect(r.stdout).toContain(
        'not fixed  full/SKILL.md: write allowed-tools as one space-separated string: cannot write it: no space is left on the device (ENOSPC); it was left as it was',
      );
      expect(r.stderr).toContain('error: lint --fix left 1 file unwritten');
      expect(readFileSync(join(root, 'SKILL.md'), 'utf8')).toBe(fixable('full'));
      expect(readdirSync(root)).toEqual(['SKILL.md']);
    });
  });
});

describe('I/O errors told as what they are (19)', () => {
  describe.skipIf(!CAN_MOUNT)(`on a full or read-only file system (${MOUNT_REASON})`, () => {
    const bigSkill = (dir: string) => {
      const root = skill(dir, 'big-skill', skillText('big-skill', 'metadata:\n  version: "1.0.0"\n'));
      writeFileSync(join(root, 'data.bin'), Buffer.alloc(3 * 1024 * 1024, 7));
      return root;
    };

    it('sync to a full registry: a clear E_IO (exit 2), no stack, no half-made copy, nothing registered', async () => {
      const dir = fresh();
      bigSkill(join(dir, 'src'));
      const reg = tmpfs('2m');
      const r = await runCli(['sync', 'src', '--registry', reg], { cwd: dir });
      expect(r.exitCode).toBe(2);
      noBug(r);
      expect(r.stderr).toMatch(/^error: cannot write \S+data\.bin: no space is left on the device \(ENOSPC\)$/m);
      expect(r.stderr).toMatch(/^hint: free space on the file system that holds /m);
      nothingInstalled(reg, dir);
      const j = await runCli(['sync', 'src', '--registry', reg, '--json'], { cwd: dir });
      expect(j.exitCode).toBe(2);
      expect(JSON.parse(j.stdout).error).toMatchObject({ code: 'E_IO', message: expect.stringContaining('ENOSPC') });
    });

    it('install of a folder, and install --into a full folder: the same, and no staging folder left', async () => {
      const dir = fresh();
      const src = bigSkill(join(dir, 'src'));
      const project = fresh('project');
      const full = tmpfs('2m');
      const r = await runCli(['install', src, '--registry', full], { cwd: project });
      expect(r.exitCode).toBe(2);
      noBug(r);
      expect(r.stderr).toContain('no space is left on the device (ENOSPC)');
      nothingInstalled(full, project);

      const into = tmpfs('2m');
      const i = await runCli(['install', src, '--registry', join(dir, 'reg'), '--into', into], { cwd: project });
      expect(i.exitCode).toBe(2);
      noBug(i);
      expect(i.stderr).toContain('no space is left on the device (ENOSPC)');
      expect(readdirSync(into)).toEqual([]);
    });

    it('a read-only registry is called read-only (EROFS), not a missing folder, for sync and install', async () => {
      const dir = fresh();
      skill(join(dir, 'src'), 'small', skillText('small', 'metadata:\n  version: "1.0.0"\n'));
      skill(join(dir, 'src2'), 'other', skillText('other', 'metadata:\n  version: "1.0.0"\n'));
      for (const prepared of [false, true]) {
        const reg = tmpfs('1m');
        // Once with an empty registry, once with one that has its folders (the mkdir of a staging folder).
        if (prepared) expect((await runCli(['sync', 'src2', '--registry', reg], { cwd: dir })).exitCode).toBe(0);
        remountReadOnly(reg);
        for (const args of [
          ['sync', 'src', '--registry', reg],
          ['install', join(dir, 'src', 'small'), '--registry', reg],
        ]) {
          const r = await runCli(args, { cwd: dir });
          expect(r.exitCode).toBe(2);
          noBug(r);
          expect(r.stderr).toContain('the file system is read-only (EROFS)');
          expect(r.stderr).not.toContain('ENOENT');
          expect(r.stderr).toMatch(/^hint: .*(writable|--registry)/m);
        }
      }
    });

    it("a read-only folder's hint names the command's own options only, and no file that was not there", async () => {
      const dir = fresh();
      const ro = tmpfs('1m');
      remountReadOnly(ro);
      const init = await runCli(
        ['init', 'my-skill', '--dir', ro, '--yes', '--description', 'A skill. Use when testing.'],
        {
          cwd: dir,
        },
      );
      expect(init.exitCode).toBe(2);
      noBug(init);
      expect(init.stderr).toContain('hint: choose a writable folder (--dir), or remount it read-write');
      const render = await runCli(['render-prompt', EXAMPLES, '--write', join(ro, 'AGENTS.md')], { cwd: dir });
      expect(render.exitCode).toBe(2);
      noBug(render);
      expect(render.stderr).toContain(
        `cannot write ${join(ro, 'AGENTS.md')}: the file system is read-only (EROFS); nothing was written`,
      );
      expect(render.stderr).toContain('hint: choose a writable folder (--write), or remount it read-write');
    });

    it('an archive that fills the disk while it unpacks: ENOSPC naming the entry, not an unreadable archive', async () => {
      const dir = fresh();
      const archive = await tgz(join(dir, 'big.tgz'), [
        SKILL_ENTRY('s'),
        { path: 's/big.bin', body: Buffer.alloc(3 * 1024 * 1024) },
      ]);
      const reg = tmpfs('2m');
      const r = await runCli(['install', archive, '--registry', reg], { cwd: dir });
      expect(r.exitCode).toBe(2);
      noBug(r);
      expect(r.stderr).toMatch(/cannot write entry "s\/big\.bin" into .*: no space is left on the device \(ENOSPC\)/);
      nothingInstalled(reg, dir);
    });
  });

  describe.skipIf(!CAN_MOUNT)(`small files written while the archive streams (${MOUNT_REASON})`, () => {
    it('an archive of many small files that fills the disk: ENOSPC naming an entry, nothing left', async () => {
      const dir = fresh();
      // 600 files of 4 KiB (written on the thread pool as the archive streams) into 1 MiB.
      const entries: Entry[] = [SKILL_ENTRY('s')];
      for (let i = 0; i < 600; i++) entries.push({ path: `s/refs/r${i}.md`, body: Buffer.alloc(4096, 97) });
      const archive = await tgz(join(dir, 'many.tgz'), entries);
      const reg = tmpfs('1m');
      const r = await runCli(['install', archive, '--registry', reg], { cwd: dir });
      expect(r.exitCode).toBe(2);
      noBug(r);
      expect(r.stderr).toMatch(
        /cannot write entry "s\/refs\/r\d+\.md" into .*: no space is left on the device \(ENOSPC\)/,
      );
      nothingInstalled(reg, dir);
    });
  });

  it.each([
    ['', false],
    // Bytes that do not compress make an archive of 3 MB: its files are written on a thread of their own.
    [', written on a thread of its own', true],
  ])(
    'a file over the size limit (ulimit -f) while unpacking%s: EFBIG, exit 2, not killed by SIGXFSZ',
    async (_, threaded) => {
      const dir = fresh();
      const body = threaded ? randomBytes(3e6) : Buffer.alloc(3e6);
      const archive = await tgz(join(dir, 'big.tgz'), [SKILL_ENTRY('s'), { path: 's/big.bin', body }]);
      // Archives from 1 MiB on are written on a thread (THREAD_FROM in src/fs/archive.ts).
      expect(statSync(archive).size >= 1024 * 1024).toBe(threaded);
      const reg = join(dir, 'reg');
      // The built CLI under a 1 MB file size limit (bash's ulimit -f counts KiB blocks).
      const r = await execa(
        'bash',
        ['-c', `ulimit -f 1024 && exec "$0" "$@"`, process.execPath, BIN, 'install', archive],
        {
          cwd: dir,
          env: testEnv(dir, { SKILLS_REGISTRY: reg }),
          extendEnv: false,
          reject: false,
        },
      );
      expect(r.signal).toBeUndefined();
      expect(r.exitCode).toBe(2);
      noBug({ exitCode: r.exitCode!, stdout: r.stdout, stderr: r.stderr });
      expect(r.stderr).toMatch(/cannot write entry "s\/big\.bin" into .*file size limit \(ulimit -f\).*\(EFBIG\)/);
      nothingInstalled(reg, dir);
    },
  );

  it('an entry name too long for the file system: ENAMETOOLONG naming the entry', async () => {
    const dir = fresh();
    const long = `s/${'n'.repeat(300)}.md`;
    for (const make of [tgz, zip]) {
      const archive = await make(join(dir, `long.${make === tgz ? 'tgz' : 'zip'}`), [
        SKILL_ENTRY('s'),
        { path: long, body: 'x' },
      ]);
      const reg = join(dir, `reg-${make.name}`);
      const r = await runCli(['install', archive, '--registry', reg], { cwd: dir });
      expect(r.exitCode).toBe(2);
      noBug(r);
      expect(r.stderr).toContain(`cannot write entry "${long}"`);
      expect(r.stderr).toContain(
        'the path is too long for this file system (a name holds at most 255 bytes) (ENAMETOOLONG)',
      );
      nothingInstalled(reg, dir);
    }
  });

  it('an entry that is both a file and a folder, in any order and either format, is refused as such', async () => {
    const dir = fresh();
    const cases: Entry[][] = [
      [
        { path: 's/a', body: 'x' },
        { path: 's/a/b', body: 'y' },
      ],
      [
        { path: 's/a/b', body: 'y' },
        { path: 's/a', body: 'x' },
      ],
      [
        { path: 's/a', body: 'x' },
        { path: 's/a/', dir: true },
      ],
      [
        { path: 's/a/', dir: true },
        { path: 's/a', body: 'x' },
      ],
      [
        { path: 's/a', body: 'x' },
        { path: 's/a/b/c', body: 'z' },
      ],
    ];
    let n = 0;
    for (const entries of cases) {
      for (const make of [tgz, zip]) {
        const archive = await make(join(dir, `both-${n++}.${make === tgz ? 'tgz' : 'zip'}`), [
          SKILL_ENTRY('s'),
          ...entries,
        ]);
        const reg = join(dir, `reg-${n}`);
        const r = await runCli(['install', archive, '--registry', reg], { cwd: dir });
        expect(r.exitCode, archive).toBe(2);
        noBug(r);
        expect(r.stderr, archive).toMatch(/refused: entry "s\/a[^"]*" makes "s\/a" both a file and a folder/);
        expect(r.stderr).toContain('Nothing was installed');
        nothingInstalled(reg, dir);
      }
    }
  });

  it('a NUL byte in the frontmatter is reported on its own line and column', async () => {
    const dir = fresh();
    const cases = [
      { text: '---\nname: nul\ndescription: Use when x. Does y\nlicense: MI\0T\n---\nbody\n', line: 4, column: 12 },
      { text: '---\nname: nul\n\0\ndescription: Use when x. Does y\n---\nbody\n', line: 3, column: 1 },
      { text: '---\nname: nul\ndescription: Use when x.\n  Does \0y\n---\n', line: 4, column: 8 },
      { text: '---\n\0name: nul\n---\n', line: 2, column: 1 },
    ];
    for (const c of cases) {
      skill(dir, 'nul', c.text);
      for (const extra of [[], ['--spec']]) {
        const r = await runCli(['validate', 'nul', '--json', ...extra], { cwd: dir });
        expect(r.exitCode).toBe(1);
        const d = JSON.parse(r.stdout).skills[0].diagnostics[0];
        expect(d).toMatchObject({ ruleId: 'SK003', line: c.line, column: c.column });
        expect(d.message).toContain(
          `null byte is not allowed in input (a NUL byte, \\0) at line ${c.line}, column ${c.column}`,
        );
      }
    }
  });
});
