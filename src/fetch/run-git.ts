import { SkillsError } from '../errors.js';
import { redactUrl } from '../formats/install-source.js';
import { runInGroup } from '../proc/process-group.js';

// Running the system git on a stranger's URL: never a prompt (no terminal, no password question, ssh in batch
// mode), only the transports we allow, the user's own configuration kept (credential helpers, insteadOf), and
// git's failures told as what they mean for the user, never with a token in them.
//
// Time. A server that accepts the connection and never answers must not hold a run (and the project's lock) for
// long. SKILLS_GIT_TIMEOUT (an environment variable, in seconds; 60 unless set) is how long a question to the remote
// (`ls-remote`) may take, and how long a fetch may go without moving: one that prints no progress for that long is
// stopped, over any transport, and over http(s) git itself ends one that trickles (http.lowSpeedLimit: under 1000
// bytes a second for http.lowSpeedTime, those seconds). A fetch that keeps moving may take 10 minutes (or
// SKILLS_GIT_TIMEOUT, when longer); a local command (archive, ls-tree) 10 minutes.

export interface GitOptions {
  /** The environment git runs in (the user's: HOME, PATH, GIT_CONFIG_GLOBAL, SSH_AUTH_SOCK …). */
  env: Record<string, string | undefined>;
  /** The skills cache folder (cacheHomeIfAny): trees go to `<cacheDir>/git/`; none, no git (needCache). */
  cacheDir: string | undefined;
  progress?: (text: string) => void;
  /**
   * The most one git command may take; unless given, 10 minutes (a question to the remote: SKILLS_GIT_TIMEOUT, at
   * most this). SKILLS_GIT_TIMEOUT, when set, is the user's word and wins for questions and stalls.
   */
  timeoutMs?: number;
}

/** What a git command does with the network: nothing, ask the remote (ls-remote), or transfer objects (fetch). */
export type GitReach = 'local' | 'ask' | 'transfer';

export interface GitOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
/** How long a remote may take to answer, or a transfer go without moving, unless SKILLS_GIT_TIMEOUT says. */
const DEFAULT_STALL_MS = 60_000;
/** Bytes a second below which an http(s) transfer counts as stalled (git's http.lowSpeedLimit). */
const LOW_SPEED_LIMIT = 1000;
/** Most bytes of stdout kept (a ls-remote of a repository with a great many tags), and of stderr. */
const MAX_STDOUT = 64 * 1024 * 1024;
const MAX_STDERR = 64 * 1024;

/**
 * Variables that point git at a repository or change how it reads one: set by a hook that runs `skills install`
 * (GIT_DIR, GIT_INDEX_FILE …), they would have git work on the user's repository. `git rev-parse --local-env-vars`.
 */
const REPOSITORY_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_GRAFT_FILE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_REPLACE_REF_BASE',
  'GIT_PREFIX',
  'GIT_INTERNAL_SUPER_PREFIX',
  'GIT_SHALLOW_FILE',
  'GIT_NAMESPACE',
  'GIT_QUARANTINE_PATH',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
];

/** Configuration for every command: no hooks, no background maintenance (it would outlive the run), no submodules. */
const QUIET_CONFIG = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'gc.auto=0',
  '-c',
  'maintenance.auto=false',
  '-c',
  'fetch.recurseSubmodules=false',
  '-c',
  'init.defaultBranch=main',
];

/** The environment git runs in: the user's, minus what points at a repository, plus never-prompt settings. */
export function gitEnv(
  env: Record<string, string | undefined>,
  extra: Record<string, string> = {},
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...env };
  for (const k of REPOSITORY_VARS) delete out[k];
  out.GIT_TERMINAL_PROMPT = '0';
  // Git Credential Manager would open a window or ask on the terminal.
  out.GCM_INTERACTIVE = 'never';
  // http reaches here only for a loopback host (parseRemoteSource); ext:: and fd:: run or read what they name.
  out.GIT_ALLOW_PROTOCOL = 'file:git:http:https:ssh';
  if (!env.GIT_SSH_COMMAND && !env.GIT_SSH) out.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes';
  // git's messages in English, so that its failures can be told apart.
  out.LC_ALL = 'C';
  // A path inside the repository is a path, never a pattern or `:(magic)`, whatever the user's environment says.
  for (const k of ['GIT_GLOB_PATHSPECS', 'GIT_NOGLOB_PATHSPECS', 'GIT_ICASE_PATHSPECS']) delete out[k];
  out.GIT_LITERAL_PATHSPECS = '1';
  return { ...out, ...extra };
}

export interface GitTimeouts {
  /** The most a question to the remote (ls-remote) may take. */
  askMs: number;
  /** The longest a transfer may go without moving. */
  stallMs: number;
  /** The most any other command (a fetch that keeps moving, a local one) may take. */
  maxMs: number;
  /** SKILLS_GIT_TIMEOUT as set, in seconds, or undefined. */
  fromEnv?: number;
}

/**
 * The time limits of the git commands of one run: SKILLS_GIT_TIMEOUT (seconds, a number above 0) from `o.env`,
 * else 60 s, for a question to the remote and a stalled transfer; 10 minutes (or `o.timeoutMs`) for the rest.
 */
export function gitTimeouts(o: GitOptions): GitTimeouts {
  const raw = o.env.SKILLS_GIT_TIMEOUT;
  let fromEnv: number | undefined;
  if (raw !== undefined && raw.trim() !== '') {
    fromEnv = Number(raw);
    if (!Number.isFinite(fromEnv) || fromEnv <= 0)
      throw new SkillsError('E_USAGE', `SKILLS_GIT_TIMEOUT must be a number of seconds above 0, not "${raw}"`, {
        hint: 'e.g. SKILLS_GIT_TIMEOUT=120 waits up to two minutes for a git server to answer',
      });
  }
  const maxMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (fromEnv !== undefined) {
    const ms = fromEnv * 1000;
    return { askMs: ms, stallMs: ms, maxMs: Math.max(maxMs, ms), fromEnv };
  }
  return { askMs: Math.min(DEFAULT_STALL_MS, maxMs), stallMs: Math.min(DEFAULT_STALL_MS, maxMs), maxMs };
}

const seconds = (ms: number) => +(ms / 1000).toFixed(1);

/** What to do about a server that does not answer, or a transfer that stalled. */
function slowHint(t: GitTimeouts): string {
  const now = t.fromEnv === undefined ? '60 s unless set' : `now ${t.fromEnv} s`;
  return `check that the server is up and reachable from here (the network, a proxy or VPN: git reads a proxy from http.proxy or https_proxy), then run again; for a slow server wait longer with SKILLS_GIT_TIMEOUT=<seconds> (${now})`;
}

/**
 * Run git with `args` (after the quiet configuration) in its own process group, detached from the terminal, stdin
 * closed. Resolves with its exit code and output; rejects with a SkillsError when git is missing or times out.
 */
export async function runGit(
  args: string[],
  run: { cwd: string; url: string; o: GitOptions; env?: Record<string, string>; reach?: GitReach; input?: string },
): Promise<GitOutput> {
  const out: Buffer[] = [];
  let outBytes = 0;
  let err = '';
  const reach = run.reach ?? 'local';
  const t = gitTimeouts(run.o);
  const timeoutMs = reach === 'ask' ? t.askMs : t.maxMs;
  // http(s): git's own check that a transfer moves (a trickle prints progress, so the watch below would not end it).
  const lowSpeed =
    reach !== 'transfer'
      ? []
      : [
          '-c',
          `http.lowSpeedLimit=${LOW_SPEED_LIMIT}`,
          '-c',
          `http.lowSpeedTime=${Math.max(1, Math.ceil(t.stallMs / 1000))}`,
        ];
  // Any transport: a transfer prints progress while it moves (git fetch --progress); silence that lasts is a stall.
  const stall = new AbortController();
  let stalled = false;
  const watch =
    reach === 'transfer'
      ? setTimeout(() => {
          stalled = true;
          stall.abort('SIGTERM');
        }, t.stallMs)
      : undefined;
  let exit;
  try {
    exit = await runInGroup({
      command: 'git',
      args: [...QUIET_CONFIG, ...lowSpeed, ...args],
      cwd: run.cwd,
      env: gitEnv(run.o.env, run.env),
      input: run.input ?? '',
      timeoutMs,
      graceMs: 1000,
      signal: stall.signal,
      onStdout: (b) => {
        watch?.refresh();
        if (outBytes + b.length > MAX_STDOUT) return;
        out.push(b);
        outBytes += b.length;
      },
      onStderr: (b) => {
        watch?.refresh();
        err = (err + b.toString('utf8')).slice(-MAX_STDERR);
      },
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new SkillsError(
        'E_IO',
        `git is not installed (or not on PATH): skills runs the system git to fetch ${redactUrl(run.url)}`,
        {
          cause: e,
          hint: 'install git (https://git-scm.com/downloads; apt install git, brew install git), or put it on PATH',
        },
      );
    throw e;
  } finally {
    clearTimeout(watch);
  }
  const shown = redactUrl(run.url);
  if (exit.timedOut && reach === 'ask')
    throw new SkillsError(
      'E_IO',
      `${shown}: the git server did not answer within ${seconds(timeoutMs)} s (git ${args[0]} was stopped)`,
      { hint: slowHint(t) },
    );
  // (A watch that fired as git was ending: git's own exit says how it went.)
  if (stalled && exit.code !== 0)
    throw new SkillsError(
      'E_IO',
      `${shown}: the transfer stalled: nothing came from the git server for ${seconds(t.stallMs)} s (git ${args[0]} was stopped)`,
      { hint: slowHint(t) },
    );
  if (exit.timedOut)
    throw new SkillsError('E_IO', `${shown}: git ${args[0]} took longer than ${seconds(timeoutMs)} s and was stopped`, {
      hint:
        reach === 'transfer'
          ? `check the network connection; a repository this large over this connection needs SKILLS_GIT_TIMEOUT=<seconds> above ${seconds(timeoutMs)}`
          : 'check the network connection; then run again',
    });
  return { code: exit.code, stdout: Buffer.concat(out).toString('utf8'), stderr: err };
}

/** Sign-in refused or needed, or no repository there: git cannot tell them apart, and neither can we. */
const UNREADABLE =
  /Authentication failed|could not read (?:Username|Password)|terminal prompts disabled|Permission denied \(publickey|Repository not found|repository '[^']*' not found|returned error: 40[134]|HTTP (?:Basic: )?Access denied|does not appear to be a git repository|access denied or repository not exported|Invalid username or password/i;
const HOST_KEY = /Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/;
const NO_REF =
  /couldn't find remote ref|no such remote ref|not our ref|unadvertised object|Could not find remote branch|bad object|unknown revision|Needed a single revision|is not a commit|not a valid object name/i;
/** git's http.lowSpeedLimit/lowSpeedTime (curl 28) ended a transfer that stopped moving. */
const TOO_SLOW = /Operation too slow|curl 28 /i;
/**
 * git could not write its copy on this machine (the cache's disk is full, or read-only): whatever index-pack then
 * says of the pack it could not write is that, not a damaged repository.
 */
const LOCAL_WRITE = /No space left on device|Disk quota exceeded|Read-only file system/i;
/** The remote's objects cannot all be read: a damaged repository, whatever the transport then says (early EOF). */
const DAMAGED =
  /repository corruption|unable to read [0-9a-f]{40}|invalid index-pack output|did not receive expected object|pack has bad object|index-pack failed/i;
const NETWORK =
  /Could not resolve host|Could not resolve hostname|Connection refused|Connection timed out|Failed to connect|Network is unreachable|No route to host|Operation timed out|Connection reset|early EOF|hung up unexpectedly|SSL|TLS|gnutls|certificate|unable to access|Connection closed/i;

const GENERIC =
  /^(?:fatal: Could not read from remote repository\.|Please make sure you have the correct access rights|and the repository exists\.)$/;

/** True when git's failure says the remote has no such ref or commit (and not that the repository is unreadable). */
export function refMissing(stderr: string): boolean {
  return NO_REF.test(stderr) && !UNREADABLE.test(stderr);
}

/** What git said last, without progress and with no credentials: its last fatal or error line, else its last. */
export function lastLine(stderr: string): string {
  const lines = stderr
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    // git's footer after any failure of a remote helper says nothing about this one: ssh's own line does.
    .filter((l) => l !== '' && !GENERIC.test(l));
  let at = lines.length - 1;
  while (at >= 0 && !/^(?:fatal|error|ssh):/.test(lines[at]!)) at--;
  let line = at === -1 ? (lines.at(-1) ?? 'git gave no message') : lines[at]!;
  // "fatal: unable to connect to host:" is followed by the reason.
  if (line.endsWith(':') && at !== -1 && at + 1 < lines.length) line = `${line} ${lines[at + 1]}`;
  return redactUrl(line.replace(/^(?:fatal|error):\s*/, ''));
}

/** The repository cannot be read: it does not exist, or needs a sign-in we may not ask for. */
export function unreadable(url: string): SkillsError {
  return new SkillsError(
    'E_NOT_FOUND',
    `${redactUrl(url)}: cannot read the repository: it does not exist or needs credentials`,
    {
      hint: 'check the URL; for a private repository sign in first, as skills never asks for a password: over https, `gh auth login` (GitHub) or a git credential helper; over ssh, load your key into ssh-agent (ssh-add)',
    },
  );
}

/** No branch, tag or commit of that name. */
export function noRef(url: string, ref: string): SkillsError {
  return new SkillsError('E_NOT_FOUND', `${redactUrl(url)} has no branch, tag or commit "${ref}"`, {
    hint: `list its branches and tags with: git ls-remote ${redactUrl(url)}`,
  });
}

/** A failed git command told as what it means; `ref` when the command named one. */
export function gitFailure(url: string, stderr: string, ref?: string): SkillsError {
  const shown = redactUrl(url);
  if (UNREADABLE.test(stderr)) return unreadable(url);
  if (HOST_KEY.test(stderr))
    return new SkillsError('E_IO', `${shown}: ssh does not trust the server's host key: ${lastLine(stderr)}`, {
      hint: 'connect once by hand (e.g. ssh -T git@github.com) to check and accept the key, then run again',
    });
  if (ref !== undefined && NO_REF.test(stderr)) return noRef(url, ref);
  const local = stderr.split(/[\r\n]+/).find((l) => LOCAL_WRITE.test(l));
  if (local !== undefined)
    return new SkillsError('E_IO', `${shown}: git cannot write its copy on this machine: ${lastLine(local)}`, {
      hint: 'free space on the disk of the skills cache (~/.cache/skills: $XDG_CACHE_HOME/skills, or SKILLS_CACHE_DIR to move it) and of the project, then run again; the repository is not at fault',
    });
  const damaged = stderr.split(/[\r\n]+/).find((l) => DAMAGED.test(l));
  if (damaged !== undefined)
    return new SkillsError('E_IO', `${shown}: the repository is damaged: ${lastLine(damaged)}`, {
      hint: 'git could not read all of its objects (git fsck in the repository says which): ask its owner to repair it, or install from another copy',
    });
  const slow = stderr.split(/[\r\n]+/).find((l) => TOO_SLOW.test(l));
  if (slow !== undefined)
    return new SkillsError('E_IO', `${shown}: the transfer stalled: ${lastLine(slow)}`, {
      hint: 'check that the server is up and reachable from here (the network, a proxy or VPN), then run again; for a slow server wait longer with SKILLS_GIT_TIMEOUT=<seconds>',
    });
  if (NETWORK.test(stderr))
    return new SkillsError('E_IO', `${shown}: cannot reach the repository: ${lastLine(stderr)}`, {
      hint: 'check the network connection and the URL (git reads a proxy from http.proxy or https_proxy)',
    });
  return new SkillsError('E_IO', `${shown}: git failed: ${lastLine(stderr)}`);
}
