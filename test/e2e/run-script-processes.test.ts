import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runCli, tempFolders, testEnv } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// No process a run started outlives it (issue 12, processes 1–3): not one that left the script's process group or
// session, not after a timeout, a normal exit, SIGHUP, SIGQUIT or a closed output pipe; and no input is read past
// its limit. Linux: the promise rests on /proc.

const { fresh, cleanup } = tempFolders('skills-processes-e2e-');
const started: string[] = [];
afterAll(() => {
  // A failing test must not leave its sleepers behind: end them by the pids they wrote.
  for (const dir of started)
    for (const pid of Object.values(pidsIn(dir))) if (living(pid)) process.kill(pid, 'SIGKILL');
  cleanup();
});

const linux = process.platform === 'linux';

/** Every way out of a run a script can take, each writing its pid to $SKILL_DIR/pids/<way>. */
const ESCAPES = String.raw`#!/bin/bash
d="$SKILL_DIR/pids"; mkdir -p "$d"
# a new session
setsid sh -c 'echo $$ > "$0/setsid"; exec sleep 301' "$d" &
# a new session, by a child that setsid forks (its parent, our child, is gone at once)
setsid -f sh -c 'echo $$ > "$0/setsid-fork"; exec sleep 302' "$d"
# a process group of its own, in the same session
python3 -c 'import os, sys, time; os.setpgid(0, 0); open(sys.argv[1] + "/setpgid", "w").write(str(os.getpid())); time.sleep(303)' "$d" &
# a daemon: fork, setsid, fork, stdio on /dev/null, its parents gone
python3 -c '
import os, sys, time
if os.fork(): sys.exit(0)
os.setsid()
if os.fork(): os._exit(0)
fd = os.open(os.devnull, os.O_RDWR)
for i in (0, 1, 2): os.dup2(fd, i)
open(sys.argv[1] + "/daemon", "w").write(str(os.getpid()))
time.sleep(304)' "$d"
# a cleared environment and a new session, its parent gone at once (it still holds our stdout)
(env -i /usr/bin/setsid sh -c 'echo $$ > "$0/env-cleared"; exec sleep 305' "$d" &)
# nohup, output elsewhere
nohup sh -c 'echo $$ > "$0/nohup"; exec sleep 306' "$d" > /dev/null 2>&1 &
# the script itself, and its own background child
echo $$ > "$d/script"
sleep 307 &
echo $! > "$d/child"
for i in $(seq 200); do [ "$(ls "$d" | wc -l)" -ge 8 ] && break; sleep 0.05; done
echo '{"success":true,"result":"left"}'
[ "$1" = '{"stay":true}' ] && sleep 300
exit 0
`;
const WAYS = ['setsid', 'setsid-fork', 'setpgid', 'daemon', 'env-cleared', 'nohup', 'script', 'child'];

/** Ignores SIGPIPE and writes lines forever, with a child in a session of its own. */
const CHATTY = `#!/bin/bash
trap '' PIPE
d="$SKILL_DIR/pids"; mkdir -p "$d"
setsid sh -c 'echo $$ > "$0/setsid"; exec sleep 301' "$d" &
echo $$ > "$d/script"
# The escaped child is there before the first line (else, on a busy machine, head -1 could end the run first).
while [ ! -s "$d/setsid" ]; do sleep 0.01; done
while :; do echo line; sleep 0.02; done
`;

/** A skill whose scripts leave processes behind; returns its folder. */
function leavingSkill(): string {
  const dir = fresh('leaving');
  writeTree(dir, {
    'SKILL.md': skillMd('name: leaving\ndescription: Scripts that leave processes. Use when testing run-script.'),
    'scripts/escapes.sh': { content: ESCAPES, mode: 0o755 },
    'scripts/chatty.sh': { content: CHATTY, mode: 0o755 },
    'scripts/hello.sh': { content: '#!/bin/bash\necho "{\\"success\\":true,\\"result\\":$1}"\n', mode: 0o755 },
  });
  started.push(dir);
  return dir;
}

function pidsIn(dir: string): Record<string, number> {
  const d = join(dir, 'pids');
  if (!existsSync(d)) return {};
  return Object.fromEntries(readdirSync(d).map((f) => [f, Number(readFileSync(join(d, f), 'utf8').trim())]));
}

/** Whether a process is alive and not a zombie. */
function living(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    // pid (comm) state …: a zombie (Z) or a dead process (X) is gone.
    return !/^[ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!);
  } catch {
    return false;
  }
}

/** The ways whose process is still alive. */
const survivors = (dir: string) =>
  Object.entries(pidsIn(dir))
    .filter(([, pid]) => living(pid))
    .map(([way]) => way);

/** Start the CLI as a child we can signal. */
function startCli(
  args: string[],
  cwd: string,
): { child: ChildProcess; exit: Promise<number | null>; err: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: testEnv(fresh('home')),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const exit = new Promise<number | null>((done) => child.on('exit', (code, sig) => done(code ?? (sig ? -1 : null))));
  return { child, exit, err: () => err };
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.runIf(linux)('run-script: no process outlives the run', () => {
  it('after a timeout, every process the script started is gone, in the group or not', async () => {
    const skill = leavingSkill();
    const r = await runCli(['run-script', skill, 'escapes.sh', '--args', '{"stay":true}', '--timeout', '3']);
    expect(r.exitCode).toBe(124);
    expect(r.stderr).toMatch(/timed out after 3 s/);
    expect(Object.keys(pidsIn(skill)).sort()).toEqual([...WAYS].sort());
    expect(survivors(skill)).toEqual([]);
  });

  it('after a normal exit, what the script left running is gone, and the run does not wait for it', async () => {
    const skill = leavingSkill();
    const t = Date.now();
    const r = await runCli(['run-script', skill, 'escapes.sh', '--args', '{}']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('{"success":true,"result":"left"}');
    expect(Object.keys(pidsIn(skill)).sort()).toEqual([...WAYS].sort());
    expect(survivors(skill)).toEqual([]);
    expect(Date.now() - t).toBeLessThan(15_000);
  });

  it('--selector: what the selector command left running is gone, on its exit and on its timeout', async () => {
    const skill = leavingSkill();
    const d = join(skill, 'pids');
    const selector = (stay: boolean) =>
      `mkdir -p ${d}; setsid sh -c 'echo $$ > ${d}/sel-setsid${stay}; exec sleep 308' & ` +
      `(setsid sh -c 'echo $$ > ${d}/sel-fork${stay}; exec sleep 309' &); sleep 0.3; echo leaving${stay ? '; sleep 300' : ''}`;
    const done = await runCli(['render-prompt', '--query', 'anything', '--selector', selector(false), skill]);
    expect(done.exitCode).toBe(0);
    const late = await runCli([
      'render-prompt',
      '--query',
      'anything',
      '--selector',
      selector(true),
      '--selector-timeout',
      '1500',
      skill,
    ]);
    expect(late.exitCode).toBe(0);
    expect(late.stderr).toMatch(/did not answer within 1500 ms/);
    expect(Object.keys(pidsIn(skill)).sort()).toEqual([
      'sel-forkfalse',
      'sel-forktrue',
      'sel-setsidfalse',
      'sel-setsidtrue',
    ]);
    expect(survivors(skill)).toEqual([]);
  });
});

describe.runIf(linux)('run-script: SIGHUP, SIGQUIT, SIGINT, SIGTERM and a closed pipe end the script first', () => {
  for (const [sig, code] of [
    ['SIGHUP', 129],
    // bash ignores SIGQUIT: its children die of it, and the script goes on to its own end (exit 0).
    ['SIGQUIT', 0],
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${sig}: the script and what it started are gone when skills exits (${code})`, async () => {
      const skill = leavingSkill();
      const run = startCli(['run-script', skill, 'escapes.sh', '--args', '{"stay":true}', '--timeout', '120'], skill);
      await until(() => Object.keys(pidsIn(skill)).length === WAYS.length);
      run.child.kill(sig);
      expect(await run.exit).toBe(code);
      expect(survivors(skill)).toEqual([]);
    });
  }

  it('SIGHUP during --selector: the selector is gone, then skills dies of the signal', async () => {
    const skill = leavingSkill();
    const d = join(skill, 'pids');
    const run = startCli(
      [
        'render-prompt',
        '--query',
        'q',
        '--selector',
        `mkdir -p ${d}; setsid sh -c 'echo $$ > ${d}/sel; exec sleep 310' & sleep 300`,
        skill,
      ],
      skill,
    );
    await until(() => 'sel' in pidsIn(skill));
    run.child.kill('SIGHUP');
    expect(await run.exit).toBe(-1);
    expect(survivors(skill)).toEqual([]);
  });

  it('a closed output pipe (| head -1) ends a script that ignores SIGPIPE before skills exits 141', async () => {
    const skill = leavingSkill();
    const rc = join(skill, 'rc');
    const t = Date.now();
    const r = await new Promise<number | null>((done) => {
      const sh = spawn(
        'bash',
        [
          '-c',
          `"${process.execPath}" "${BIN}" run-script "${skill}" chatty.sh --args '{}' | head -1; echo "\${PIPESTATUS[0]}" > "${rc}"`,
        ],
        { env: testEnv(fresh('home')), stdio: 'ignore' },
      );
      sh.on('exit', done);
    });
    expect(r).toBe(0);
    expect(readFileSync(rc, 'utf8').trim()).toBe('141');
    expect(Object.keys(pidsIn(skill)).sort()).toEqual(['script', 'setsid']);
    expect(survivors(skill)).toEqual([]);
    expect(Date.now() - t).toBeLessThan(15_000);
  });
});

describe('run-script: every input is bounded while it is read', () => {
  const refused = (r: { exitCode: number; stderr: string }, file: string, what: string) => {
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${file}: the ${what} is larger than 1048576 bytes`);
    expect(r.stderr).not.toMatch(/bad_alloc|heap|this is a bug/i);
  };

  it.runIf(existsSync('/dev/zero'))(
    '--args-file and --secrets of an endless device are refused at the limit',
    async () => {
      const skill = leavingSkill();
      const args = await runCli(['run-script', skill, 'hello.sh', '--args-file', '/dev/zero'], { timeout: 20_000 });
      refused(args, '/dev/zero', 'arguments file');
      const random = await runCli(['run-script', skill, 'hello.sh', '--args-file', '/dev/urandom'], {
        timeout: 20_000,
      });
      refused(random, '/dev/urandom', 'arguments file');
      const secrets = await runCli(['run-script', skill, 'hello.sh', '--args', '{}', '--secrets', '/dev/zero'], {
        timeout: 20_000,
      });
      refused(secrets, '/dev/zero', 'secrets file');
      const fromEnv = await runCli(['run-script', skill, 'hello.sh', '--args', '{}'], {
        env: { SKILLS_SECRETS: '/dev/zero' },
        timeout: 20_000,
      });
      refused(fromEnv, '/dev/zero', 'secrets file');
    },
  );

  it('a huge file is refused by its size, before it is read', async () => {
    const skill = leavingSkill();
    const huge = join(fresh('huge'), 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, 8 * 1024 ** 3); // sparse: 8 GiB that take no room
    const t = Date.now();
    const args = await runCli(['run-script', skill, 'hello.sh', '--args-file', huge]);
    refused(args, huge, 'arguments file');
    expect(args.stderr).toContain(`(${8 * 1024 ** 3} bytes)`);
    const secrets = await runCli(['run-script', skill, 'hello.sh', '--args', '{}', '--secrets', huge]);
    refused(secrets, huge, 'secrets file');
    expect(Date.now() - t).toBeLessThan(10_000);
  });

  it.runIf(linux)(
    'a FIFO: read while it is written, cut at the limit when it never ends, refused when it never starts',
    async () => {
      const skill = leavingSkill();
      const dir = fresh('fifo');
      const fifo = (name: string, writer?: string) => {
        const f = join(dir, name);
        execFileSync('mkfifo', [f]);
        if (writer) spawn('sh', ['-c', `${writer} > "${f}"`], { stdio: 'ignore' }).unref();
        return f;
      };
      const good = await runCli([
        'run-script',
        skill,
        'hello.sh',
        '--args-file',
        fifo('good', `sleep 0.3; echo '{"via":"fifo"}'`),
      ]);
      expect(good.exitCode).toBe(0);
      expect(good.stdout).toBe('{"success":true,"result":{"via":"fifo"}}');
      const endless = fifo('endless', 'exec cat /dev/zero');
      refused(
        await runCli(['run-script', skill, 'hello.sh', '--args-file', endless], { timeout: 20_000 }),
        endless,
        'arguments file',
      );
      const endlessSecrets = fifo('endless-secrets', 'exec cat /dev/zero');
      refused(
        await runCli(['run-script', skill, 'hello.sh', '--args', '{}', '--secrets', endlessSecrets], {
          timeout: 20_000,
        }),
        endlessSecrets,
        'secrets file',
      );
      const silent = fifo('silent');
      const t = Date.now();
      const none = await runCli(['run-script', skill, 'hello.sh', '--args-file', silent, '--timeout', '1']);
      expect(none.exitCode).toBe(2);
      expect(none.stderr).toContain(`${silent}: the arguments did not end within 1 s`);
      expect(Date.now() - t).toBeLessThan(10_000);
    },
  );

  it('endless stdin is cut at the limit; a folder is named as one', async () => {
    const skill = leavingSkill();
    const r = await new Promise<{ code: number | null; err: string }>((done) => {
      const child = spawn(process.execPath, [BIN, 'run-script', skill, 'hello.sh', '--args-file', '-'], {
        env: testEnv(fresh('home')),
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (child.stdin.writable && child.stdin.write(chunk));
      };
      child.stdin.on('drain', pump).on('error', () => {});
      pump();
      child.on('exit', (code) => done({ code, err }));
    });
    expect(r.code).toBe(2);
    expect(r.err).toContain('stdin: the arguments are larger than 1048576 bytes');
    const folder = await runCli(['run-script', skill, 'hello.sh', '--args-file', skill]);
    expect(folder.exitCode).toBe(2);
    expect(folder.stderr).toContain(`${skill} is a folder, not a file`);
    const secrets = await runCli(['run-script', skill, 'hello.sh', '--args', '{}', '--secrets', skill]);
    expect(secrets.exitCode).toBe(2);
    expect(secrets.stderr).toContain(`cannot read the secrets file: ${skill} is a folder, not a file`);
  });
});
