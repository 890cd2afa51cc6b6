import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import Module from 'node:module';
import {
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BIN, EXAMPLES, ROOT, tempDir, testEnv } from '../helpers/cli.js';

/** Every file of the built CLI under dist/. */
const bundleFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? bundleFiles(join(dir, e.name)) : [join(dir, e.name)],
  );

/** `count` small valid SKILL.md skills `s0`, `s1`, … in `dir`. */
function writeSmallSkills(dir: string, count: number): void {
  for (let i = 0; i < count; i++) {
    mkdirSync(join(dir, `s${i}`));
    writeFileSync(
      join(dir, `s${i}`, 'SKILL.md'),
      `---\nname: s${i}\ndescription: Skill ${i} turns data into more data. Use when data needs it.\n---\nBody\n`,
    );
  }
}

/** A copy of the built CLI (bin, package.json, dist) at `root`, whose bundle can change without touching ours. */
function copyCli(root: string): void {
  cpSync(join(ROOT, 'bin'), join(root, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(root, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
}

const run = (home: string, env: Record<string, string> = {}) =>
  execa(process.execPath, [BIN, 'validate', join(EXAMPLES, 'web-scraping')], {
    env: testEnv(home, { XDG_CACHE_HOME: '', ...env }),
    extendEnv: false,
    reject: false,
  });

// Node >= 22.1 keeps its own compile cache, and the shim leaves the caching to it: these tests are reported skipped.
const nodeCachesItself = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** A preload that writes the run's process.moduleLoadList to `loaded` at exit. */
function recordModules(dir: string): { preload: string; loaded: string } {
  const preload = join(dir, 'modules.cjs');
  const loaded = join(dir, 'modules.txt');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, process.moduleLoadList.join('\\n')));\n`,
  );
  return { preload, loaded };
}

describe('start-up (bin/skills.js)', () => {
  it.skipIf(nodeCachesItself)('keeps a private V8 code cache that a corrupt file cannot break', async () => {
    const t = tempDir();
    try {
      const first = await run(t.dir);
      expect(first.exitCode).toBe(0);
      const dir = join(t.dir, '.cache', 'skills');
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      const [file] = readdirSync(dir);
      expect(file).toMatch(/^code-validate-[0-9a-f]+\.v8cache$/);
      expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
      const second = await run(t.dir);
      expect(second.stdout).toBe(first.stdout);
      writeFileSync(join(dir, file!), 'not a code cache');
      const third = await run(t.dir);
      expect(third.exitCode).toBe(0);
      expect(third.stdout).toBe(first.stdout);
      expect(statSync(join(dir, file!)).size).toBeGreaterThan(1000);
    } finally {
      t.cleanup();
    }
  });

  it.skipIf(nodeCachesItself)(
    'never runs a stale cache: a rebuilt bundle of the very same length runs its new code',
    async () => {
      // A copy of the CLI (bin, package.json, dist) whose bundle can be changed without touching the real one.
      const t = tempDir();
      try {
        const root = join(t.dir, 'cli');
        copyCli(root);
        symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
        const home = join(t.dir, 'home');
        const cli = () =>
          execa(process.execPath, [join(root, 'bin/skills.js'), 'validate', '--help'], {
            env: testEnv(home, { XDG_CACHE_HOME: '' }),
            extendEnv: false,
            reject: false,
          });
        expect((await cli()).stdout).toContain('fail on warnings too');
        expect((await cli()).stdout).toContain('fail on warnings too'); // now from the cache
        // The file of the bundle that holds validate's help text (the command line's shared chunk).
        const main = bundleFiles(join(root, 'dist')).find((f) =>
          readFileSync(f, 'utf8').includes('fail on warnings too'),
        )!;
        const source = readFileSync(main, 'utf8');
        // V8 accepts a cache whose source has the same length, and a cached function keeps its old string constants:
        // only the cache's name can tell the builds apart.
        writeFileSync(main, source.replaceAll('fail on warnings too', 'FAIL ON WARNINGS TOO'));
        expect(readFileSync(main, 'utf8').length).toBe(source.length);
        const after = await cli();
        expect(after.exitCode).toBe(0);
        expect(after.stdout).toContain('FAIL ON WARNINGS TOO');
        expect(readdirSync(join(home, '.cache/skills')).filter((f) => f.startsWith('code-validate-'))).toHaveLength(1);
      } finally {
        t.cleanup();
      }
    },
  );

  it.skipIf(nodeCachesItself)(
    "two installs used in turn keep each its own cache; other builds' caches go when a month old or past three",
    async () => {
      const t = tempDir();
      try {
        // Two copies of the CLI (a global install and a project's, say): the same build in two places.
        const roots = ['one', 'two'].map((n) => join(t.dir, n));
        for (const root of roots) copyCli(root);
        const home = join(t.dir, 'home');
        const dir = join(home, '.cache/skills');
        const cli = (root: string) =>
          execa(process.execPath, [join(root, 'bin/skills.js'), 'validate', '--help'], {
            env: testEnv(home, { XDG_CACHE_HOME: '' }),
            extendEnv: false,
            reject: false,
          });
        const packs = () =>
          readdirSync(dir)
            .filter((f) => f.startsWith('code-validate-'))
            .sort();
        await cli(roots[0]!);
        await cli(roots[1]!);
        expect(packs()).toHaveLength(2);
        const written = new Map(packs().map((f) => [f, statSync(join(dir, f)).mtimeMs]));
        // Used in turn, each runs from its own cache: neither is written again, nor removed.
        for (const root of [...roots, ...roots]) expect((await cli(root)).exitCode).toBe(0);
        expect(new Map(packs().map((f) => [f, statSync(join(dir, f)).mtimeMs]))).toEqual(written);
        // Caches of other builds: one two months old, and four recent ones, of which the newest three stay.
        const old = new Date(Date.now() - 60 * 86_400_000);
        writeFileSync(join(dir, 'code-validate-abc0.v8cache'), 'x');
        utimesSync(join(dir, 'code-validate-abc0.v8cache'), old, old);
        for (let i = 1; i <= 4; i++) {
          const f = join(dir, `code-validate-abc${i}.v8cache`);
          writeFileSync(f, 'x');
          const when = new Date(Date.now() - (10 - i) * 86_400_000);
          utimesSync(f, when, when);
        }
        // A run that writes its cache (its own file made stale) sweeps the others: the other install's (the newest)
        // and two recent ones stay.
        const ours = [...written.keys()];
        for (const f of ours) writeFileSync(join(dir, f), 'not a code cache');
        await cli(roots[0]!);
        expect(packs()).toEqual([...ours, 'code-validate-abc3.v8cache', 'code-validate-abc4.v8cache'].sort());
      } finally {
        t.cleanup();
      }
    },
  );

  it('writes no cache with SKILLS_COMPILE_CACHE=0', async () => {
    const t = tempDir();
    try {
      const r = await run(t.dir, { SKILLS_COMPILE_CACHE: '0' });
      expect(r.exitCode).toBe(0);
      expect(readdirSync(t.dir)).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  it('writes the same bytes to a file, a socket, a shell pipe and a non-blocking pipe whose reader is slow', async () => {
    // Output to a file or a pipe goes straight to fd 1 (fs.writeSync); a write that would block (EAGAIN, a non-blocking
    // pipe that is full) hands the rest, and every later write, to process.stdout. 1,500 skills print ~250 KB of
    // JSON, more than a pipe holds, so the slow reader makes the writes block.
    const t = tempDir();
    try {
      writeSmallSkills(t.dir, 1500);
      const args = [BIN, 'validate', t.dir, '--json'];
      const env = testEnv(t.dir);
      const out = join(t.dir, 'out.json');
      const toFile = await execa(process.execPath, [...args], {
        env,
        extendEnv: false,
        stdout: { file: out },
        reject: false,
      });
      expect(toFile.exitCode).toBe(0);
      const expected = readFileSync(out, 'utf8');
      expect(JSON.parse(expected).skills).toHaveLength(1500);
      // execa's pipe is a socket pair.
      const toSocket = await execa(process.execPath, args, {
        env,
        extendEnv: false,
        reject: false,
        stripFinalNewline: false,
      });
      expect(toSocket.stdout).toBe(expected);
      const shell = await execa('sh', ['-c', '"$0" "$@" | cat', process.execPath, ...args], {
        env,
        extendEnv: false,
        reject: false,
        stripFinalNewline: false,
      });
      expect(shell.stdout).toBe(expected);
      // Node always hands its children blocking stdio; Python sets O_NONBLOCK on the pipe and reads once it is full.
      const slow = [
        'import fcntl, os, struct, subprocess, sys, termios, time',
        'r, w = os.pipe()',
        'fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)',
        'p = subprocess.Popen(sys.argv[1:], stdout=w)',
        'os.close(w)',
        // Read nothing until the pipe is full (64 KiB): the CLI's next write then fails with EAGAIN.
        'while p.poll() is None and struct.unpack("i", fcntl.ioctl(r, termios.FIONREAD, b"    "))[0] < 65536:',
        '    time.sleep(0.02)',
        'if p.poll() is not None: sys.exit("the pipe never filled")',
        'data = b""',
        'while True:',
        '    b = os.read(r, 65536)',
        '    if not b: break',
        '    data += b',
        'sys.stdout.buffer.write(data)',
        'sys.exit(p.wait())',
      ].join('\n');
      const nonBlocking = await execa('python3', ['-c', slow, process.execPath, ...args], {
        env,
        extendEnv: false,
        reject: false,
        stripFinalNewline: false,
      });
      expect(nonBlocking.stderr).toBe('');
      expect(nonBlocking.exitCode).toBe(0);
      expect(nonBlocking.stdout).toBe(expected);
    } finally {
      t.cleanup();
    }
  }, 60_000);

  it('builds neither process.stdout nor stderr for output and errors to sockets (how execa and child_process pipe)', async () => {
    const t = tempDir();
    try {
      const { preload, loaded } = recordModules(t.dir);
      const env = testEnv(t.dir);
      for (const args of [
        ['validate', join(EXAMPLES, 'web-scraping')],
        ['validate', join(t.dir, 'nowhere')],
      ]) {
        const r = await execa(process.execPath, ['--require', preload, BIN, ...args], {
          env,
          extendEnv: false,
          reject: false,
        });
        expect(r.stdout + r.stderr).toMatch(/web-scraping|nowhere/);
        const modules = readFileSync(loaded, 'utf8').split('\n');
        expect(modules, args.join(' ')).not.toContain('NativeModule net');
      }
    } finally {
      t.cleanup();
    }
  });

  it('builds no stream for output and errors to /dev/null (`>/dev/null`, spawn with "ignore")', async () => {
    const t = tempDir();
    try {
      const { preload, loaded } = recordModules(t.dir);
      const env = testEnv(t.dir);
      for (const [args, code] of [
        [['validate', join(EXAMPLES, 'web-scraping')], 0],
        [['validate', join(t.dir, 'nowhere')], 2],
      ] as const) {
        const r = await execa(process.execPath, ['--require', preload, BIN, ...args], {
          env,
          extendEnv: false,
          reject: false,
          stdout: 'ignore',
          stderr: 'ignore',
        });
        expect(r.exitCode, args.join(' ')).toBe(code);
        // Node writes to a character device that is no terminal through a SyncWriteStream.
        expect(readFileSync(loaded, 'utf8').split('\n'), args.join(' ')).not.toContain(
          'NativeModule internal/fs/sync_write_stream',
        );
      }
    } finally {
      t.cleanup();
    }
  });

  it('still writes colour to a terminal, a character device as /dev/null is', async () => {
    // A pseudo-terminal from Python's pty module; the output is printed as a Python bytes literal.
    const inPty = [
      'import os, pty, sys',
      'pid, fd = pty.fork()',
      'if pid == 0: os.execv(sys.argv[1], sys.argv[1:])',
      'out = b""',
      'while True:',
      '    try: b = os.read(fd, 65536)',
      '    except OSError: break',
      '    if not b: break',
      '    out += b',
      '_, st = os.waitpid(pid, 0)',
      'print(repr(out)); sys.exit(os.waitstatus_to_exitcode(st))',
    ].join('\n');
    const home = tempDir();
    const env = testEnv(home.dir, { TERM: 'xterm' });
    delete env.NO_COLOR;
    const r = await execa('python3', ['-c', inPty, process.execPath, BIN, 'validate', join(EXAMPLES, 'web-scraping')], {
      env,
      extendEnv: false,
      reject: false,
    });
    expect(r.exitCode).toBe(0);
    // chalk's green (ESC [32m) around the tick, and the terminal's CR LF.
    expect(r.stdout).toContain('\\x1b[32m');
    expect(r.stdout).toContain('1 skill valid');
    home.cleanup();
  });

  it('ends quietly with 141 when the reader of its output goes away (`skills list | head -1`)', async () => {
    const t = tempDir();
    try {
      // The reader closes its end before a byte is read; the output is larger than a pipe's buffer anyway.
      writeSmallSkills(t.dir, 1500);
      for (const args of [
        ['list', t.dir, '--json'],
        ['render-prompt', '--tier', 'catalog', t.dir],
        ['validate', t.dir],
      ]) {
        const child = spawn(process.execPath, [BIN, ...args], {
          env: testEnv(t.dir),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.stdout.destroy();
        const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
        expect(code, args.join(' ')).toBe(141);
        expect(stderr).not.toMatch(/EPIPE|Unhandled|at /);
      }
    } finally {
      t.cleanup();
    }
  }, 60_000);
});
