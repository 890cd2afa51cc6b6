import { afterAll, describe, expect, it } from 'vitest';
import {
  chownSync,
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  FileChanged,
  cleanLeftoversBelow,
  deadOwner,
  processAlive,
  isDeadLeftover,
  cleanStale,
  isLeftover,
  tempName,
  tempStem,
  writeAll,
  writeAtomic,
  writeAtomicMany,
} from '../../../src/fs/atomic.js';
import { isSkillsError } from '../../../src/errors.js';
import { BIN, tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-atomic-unit-');
afterAll(cleanup);
const DEAD = 2 ** 22 + 1;

describe('temp files of our writers', () => {
  it('knows every name a writer of ours gives a temp file beside its target, and nothing else', () => {
    const ours = [
      tempName('.SKILL.md.tmp-', 'w'),
      tempName('.', 'my-skill-1.0.0.tgz.tmp'),
      '.SKILL.md.skills-fix-123',
      '.index.json.tmp-w.7.0123abcd',
    ];
    for (const n of ours) expect(isLeftover(n), n).toBe(true);
    for (const n of ['SKILL.md', '.env.tmp', '.a.tmp.12', 'notes.tmp-w.1.0123abcd', '.x.skills-fix-', '.x.tmp.1.xyz'])
      expect(isLeftover(n), n).toBe(false);
    expect(isDeadLeftover(`.SKILL.md.skills-fix-${DEAD}`)).toBe(true);
    expect(isDeadLeftover(`.SKILL.md.skills-fix-${process.pid}`)).toBe(false);
    expect(isDeadLeftover(tempName('.SKILL.md.tmp-', 'w'))).toBe(false);
  });

  it('gives every temp name of a process once, as <prefix><base>.<pid>.<8 hex digits>', () => {
    const names = Array.from({ length: 1000 }, () => tempName('.staging-', 'x'));
    expect(new Set(names).size).toBe(1000);
    for (const n of names) expect(n).toMatch(new RegExp(`^\\.staging-x\\.${process.pid}\\.[0-9a-f]{8}$`));
  });

  it('cleanLeftoversBelow removes dead writers’ files in every folder, keeping live ones and other files', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    const dead = [`.SKILL.md.skills-fix-${DEAD}`, `a/b/.x.md.tmp-w.${DEAD}.0123abcd`];
    const kept = ['SKILL.md', `.SKILL.md.skills-fix-${process.pid}`, 'a/b/x.md'];
    for (const f of [...dead, ...kept]) writeFileSync(join(dir, f), '');
    expect(cleanLeftoversBelow(dir).sort()).toEqual(dead.map((f) => join(dir, f)).sort());
    for (const f of kept) expect(existsSync(join(dir, f))).toBe(true);
  });
});

describe('writeAtomic and writeAll', () => {
  it('writes the whole text with the mode asked for, whatever the umask, and leaves no temp file', () => {
    const dir = fresh();
    const file = join(dir, 'f.txt');
    writeAtomic(file, 'x'.repeat(100_000), { mode: 0o600 });
    expect(readFileSync(file, 'utf8')).toHaveLength(100_000);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeAtomic(file, Buffer.from('bytes'));
    expect(readFileSync(file, 'utf8')).toBe('bytes');
    expect(readdirSync(dir)).toEqual(['f.txt']);
  });

  it('fails as E_IO naming the file and the reason, and leaves the old file and no temp file', () => {
    const dir = fresh();
    const file = join(dir, 'missing-folder', 'f.txt');
    try {
      writeAtomic(file, 'x');
      expect.unreachable();
    } catch (err) {
      expect(isSkillsError(err) && err.code).toBe('E_IO');
      expect((err as Error).message).toBe(`cannot write ${file}: no such file or folder (ENOENT); nothing was written`);
    }
  });

  it('says the file was left as it was only when there was one', () => {
    const dir = fresh();
    // A folder where the file goes: the rename over it fails, and it is still there.
    const file = join(dir, 'taken');
    mkdirSync(file);
    expect(() => writeAtomic(file, 'x')).toThrow(
      /: it is a folder, where a file was expected \(EISDIR\); the file was left as it was$/,
    );
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('with unlessChanged, replaces only a file that still holds those bytes (null: still absent); else FileChanged, nothing written', () => {
    const dir = fresh();
    const file = join(dir, 'f.md');
    writeFileSync(file, 'abc\n');
    const read = readFileSync(file);
    // As many bytes, written within the kernel's tick: a stamp of size and times could miss it; the bytes do not.
    writeFileSync(file, 'abd\n');
    expect(() => writeAtomic(file, 'fixed\n', { unlessChanged: read })).toThrow(FileChanged);
    expect(() => writeAtomic(file, 'fixed\n', { unlessChanged: read })).toThrow(`${file} changed since it was read`);
    expect(readFileSync(file, 'utf8')).toBe('abd\n');
    writeAtomic(file, 'fixed\n', { unlessChanged: readFileSync(file) });
    expect(readFileSync(file, 'utf8')).toBe('fixed\n');
    const made = join(dir, 'new.env');
    writeFileSync(made, 'B=\n');
    expect(() => writeAtomic(made, 'A=\n', { unlessChanged: null })).toThrow(FileChanged);
    expect(readFileSync(made, 'utf8')).toBe('B=\n');
    writeAtomic(join(dir, 'other.env'), 'A=\n', { unlessChanged: null });
    expect(readdirSync(dir).sort()).toEqual(['f.md', 'new.env', 'other.env']);
  });

  it('writeAll names the file in a failure that would not', () => {
    if (!existsSync('/dev/full')) return;
    const fd = openSync('/dev/full', 'w');
    try {
      expect(() => writeAll(fd, 'x', '/the/file')).toThrow(
        expect.objectContaining({ code: 'ENOSPC', path: '/the/file' }),
      );
    } finally {
      closeSync(fd);
    }
  });
});

describe('writeAtomic and the file owner', () => {
  it('keeps the owner of the file it replaces when root writes it; anyone else gets a file of their own', () => {
    const dir = fresh();
    const file = join(dir, 'AGENTS.md');
    writeFileSync(file, 'old\n');
    const root = process.getuid?.() === 0;
    // Only root can give the file away (as the test itself needs to, to set it up).
    if (root) chownSync(file, 1234, 2345);
    writeAtomic(file, 'new\n');
    const st = statSync(file);
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect([st.uid, st.gid]).toEqual(root ? [1234, 2345] : [process.getuid!(), process.getgid!()]);
    // A new file is the writer's.
    writeAtomic(join(dir, 'new.md'), 'x');
    expect(statSync(join(dir, 'new.md')).uid).toBe(process.getuid!());
  });
});

describe('writeAtomicMany', () => {
  it('writes every file whole, more than one flush batch of them, and leaves no temp file', async () => {
    const dir = fresh();
    const files = Array.from({ length: 150 }, (_, i) => ({ file: join(dir, `f${i}.json`), data: `{"n":${i}}\n` }));
    writeFileSync(join(dir, 'f0.json'), 'old\n');
    await writeAtomicMany(files);
    expect(readdirSync(dir).sort()).toEqual(files.map((f) => f.file.slice(dir.length + 1)).sort());
    for (const f of files) expect(readFileSync(f.file, 'utf8')).toBe(f.data);
  });

  it('renames nothing when one file cannot be written: every target is left as it was, and no temp file stays', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'a.json'), 'old a\n');
    const files = [
      { file: join(dir, 'a.json'), data: 'new a\n' },
      // A folder that is not there: its temp file cannot be created.
      { file: join(dir, 'missing', 'b.json'), data: 'b\n' },
    ];
    const err = await writeAtomicMany(files).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSkillsError(err) && err.code).toBe('E_IO');
    expect((err as Error).message).toContain(join(dir, 'missing', 'b.json'));
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('old a\n');
    expect(readdirSync(dir)).toEqual(['a.json']);
  });
});

describe('widenThreadPool (a registry sync of many skills, built CLI)', () => {
  /** Threads of a `registry sync` of 40 skills as it exits, and UV_THREADPOOL_SIZE then. */
  const syncThreads = (env: Record<string, string> = {}) => {
    const dir = fresh();
    for (let i = 0; i < 40; i++)
      writeTree(join(dir, 'skills', `s-${i}`), {
        'SKILL.md': skillMd(`name: s-${i}\ndescription: S ${i}. Use when testing.\n`),
      });
    const preload = join(dir, 'threads.cjs');
    writeFileSync(
      preload,
      `if (require('node:worker_threads').isMainThread) process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'seen.json'))}, JSON.stringify({ threads: require('node:fs').readdirSync('/proc/self/task').length, env: process.env.UV_THREADPOOL_SIZE ?? 'unset', modules: process.moduleLoadList })));`,
    );
    const r = spawnSync(process.execPath, ['-r', preload, BIN, 'registry', 'sync', 'skills', '--registry', 'reg'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, UV_THREADPOOL_SIZE: undefined, ...env },
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(join(dir, 'reg', 'releases'))).toHaveLength(40);
    return JSON.parse(readFileSync(join(dir, 'seen.json'), 'utf8')) as {
      threads: number;
      env: string;
      modules: string[];
    };
  };

  it.runIf(process.platform === 'linux')(
    'starts the pool with 16 threads for the flushes, leaves no variable for children, and keeps a size the user set',
    () => {
      const widened = syncThreads();
      const four = syncThreads({ UV_THREADPOOL_SIZE: '4' });
      expect(widened.threads - four.threads).toBe(12);
      expect(widened.env).toBe('unset');
      expect(four.env).toBe('4');
    },
  );

  // Its output and errors are pipes (spawnSync's): written to directly, neither the copies' thread (whose output
  // would be piped to ours) nor the lock's packages (assert) may build process.stdout or stderr, which loads net.
  it('writes to pipes without building process.stdout or stderr, with the copies thread running', () => {
    const { modules } = syncThreads();
    expect(modules).toContain('NativeModule worker_threads');
    expect(modules).not.toContain('NativeModule net');
    expect(modules).not.toContain('NativeModule assert');
  });
});

describe('tempName and tempStem: every temp name fits the 255 bytes a name may hold', () => {
  const bytes = (t: string) => Buffer.byteLength(t);
  // A plain reference: the whole stem while it is short, else a hash between a head and a tail.
  const letters = ['a', 'é', '中', '\u{20000}', '-', '@', '.'];
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
  const randomId = () => Array.from({ length: 1 + rnd(90) }, () => letters[rnd(letters.length)]).join('');

  it('keeps a short name whole, as before', () => {
    expect(tempStem('.staging-', 'pdf')).toBe('.staging-pdf');
    expect(tempName('.staging-', 'pdf')).toMatch(/^\.staging-pdf\.\d+\.[0-9a-f]{8}$/);
    const id = '\u{20000}'.repeat(47); // 188 bytes: with the prefix, 197, within 200
    expect(tempStem('.staging-', id)).toBe(`.staging-${id}`);
  });

  it('shortens a long one: within 255 bytes, the prefix and the .tmp tail kept, one stem for one name', () => {
    for (let i = 0; i < 5000; i++) {
      const id = randomId();
      for (const [prefix, base] of [
        ['.staging-', id],
        ['.staging-', `${id}@1.0.0-beta.1`],
        [`.${id}.json.tmp-`, 'w'],
        ['.', `${id}-1.0.0.tgz.tmp`],
        ['.trash-', id],
      ] as const) {
        const name = tempName(prefix, base);
        expect(bytes(name), name).toBeLessThanOrEqual(255);
        expect(name.startsWith(prefix.slice(0, 9))).toBe(true);
        const stem = tempStem(prefix, base);
        expect(name.startsWith(`${stem}.`)).toBe(true);
        expect(tempStem(prefix, base)).toBe(stem);
        if (bytes(prefix + base) <= 200) expect(stem).toBe(prefix + base);
        else expect(stem).toMatch(/~[0-9a-f]{16}~/);
        if (prefix.endsWith('.tmp-') || base.endsWith('.tmp')) expect(isLeftover(name)).toBe(true);
      }
    }
  });

  it('gives two long names that share their head and tail two stems', () => {
    const a = `${'\u{20000}'.repeat(30)}a${'\u{20000}'.repeat(30)}`;
    const b = `${'\u{20000}'.repeat(30)}b${'\u{20000}'.repeat(30)}`;
    expect(tempStem('.staging-', a)).not.toBe(tempStem('.staging-', b));
  });

  it("cleanStale restores a dead writer's trash, a shortened name by the names it may be, and removes the rest", () => {
    const dir = fresh();
    const long = '\u{20000}'.repeat(60);
    const other = '\u{20001}'.repeat(60);
    const dead = 4194304 + 1; // above the largest pid Linux gives
    mkdirSync(join(dir, `${tempStem('.trash-', long)}.${dead}.00000000`));
    mkdirSync(join(dir, `${tempStem('.trash-', other)}.${dead}.00000000`));
    mkdirSync(join(dir, `.trash-short.${dead}.00000000`));
    // `other` is none of the names given: its target cannot be told, and it is removed.
    cleanStale(dir, ['.staging-'], { prefix: '.trash-', target: (base) => base, names: ['short', long] });
    expect(readdirSync(dir).sort()).toEqual([long, 'short'].sort());
  });
});

describe('processAlive and deadOwner: a killed process not yet reaped (a zombie) is gone', () => {
  it.runIf(process.platform === 'linux')('tells a zombie, a live process and a reaped one apart', async () => {
    const { spawn } = await import('node:child_process');
    // `sleep 0` exits at once; its parent, now `sleep 30` (exec), never reaps it: a zombie for as long as it runs.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(await new Promise<string>((done) => parent.stdout!.once('data', (b) => done(String(b)))));
      const state = () => {
        const stat = readFileSync(`/proc/${zombie}/stat`, 'latin1');
        return stat.charAt(stat.lastIndexOf(')') + 2);
      };
      for (let i = 0; i < 500 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(state()).toBe('Z');
      expect(processAlive(zombie)).toBe(false);
      expect(deadOwner(`.trash-x@1.0.0.${zombie}.0badf00d`)).toBe(true);
      expect(processAlive(parent.pid!)).toBe(true);
      expect(deadOwner(`.trash-x@1.0.0.${parent.pid!}.0badf00d`)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
    await new Promise((r) => parent.once('exit', r));
    expect(processAlive(parent.pid!)).toBe(false);
  });
});
