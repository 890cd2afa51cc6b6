import { SkillsError } from '../errors.js';
import { redactUrl } from '../formats/install-source.js';
import { runInGroup } from '../proc/process-group.js';

// Running the system git on a stranger's URL: never a prompt (no terminal, no password question, ssh in batch
// mode), only the transports we allow, the user's own configuration kept (credential helpers, insteadOf), and
// git's failures told as what they mean for the user, never with a token in them.

export interface GitOptions {
  /** The environment git runs in (the user's: HOME, PATH, GIT_CONFIG_GLOBAL, SSH_AUTH_SOCK …). */
  env: Record<string, string | undefined>;
  /** The skills cache folder (cacheHome): trees go to `<cacheDir>/git/`. */
  cacheDir: string;
  progress?: (text: string) => void;
  /** The most one git command may take; 10 minutes unless given. */
  timeoutMs?: number;
}

export interface GitOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
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
  return { ...out, ...extra };
}

/**
 * Run git with `args` (after the quiet configuration) in its own process group, detached from the terminal, stdin
 * closed. Resolves with its exit code and output; rejects with a SkillsError when git is missing or times out.
 */
export async function runGit(
  args: string[],
  run: { cwd: string; url: string; o: GitOptions; env?: Record<string, string> },
): Promise<GitOutput> {
  const out: Buffer[] = [];
  let outBytes = 0;
  let err = '';
  const timeoutMs = run.o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let exit;
  try {
    exit = await runInGroup({
      command: 'git',
      args: [...QUIET_CONFIG, ...args],
      cwd: run.cwd,
      env: gitEnv(run.o.env, run.env),
      input: '',
      timeoutMs,
      graceMs: 1000,
      onStdout: (b) => {
        if (outBytes + b.length > MAX_STDOUT) return;
        out.push(b);
        outBytes += b.length;
      },
      onStderr: (b) => {
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
  }
  if (exit.timedOut)
    throw new SkillsError(
      'E_IO',
      `${redactUrl(run.url)}: git ${args[0]} took longer than ${+(timeoutMs / 1000).toFixed(1)} s and was stopped`,
      { hint: 'check the network connection; then run again' },
    );
  return { code: exit.code, stdout: Buffer.concat(out).toString('utf8'), stderr: err };
}

/** Sign-in refused or needed, or no repository there: git cannot tell them apart, and neither can we. */
const UNREADABLE =
  /Authentication failed|could not read (?:Username|Password)|terminal prompts disabled|Permission denied \(publickey|Repository not found|repository '[^']*' not found|returned error: 40[134]|HTTP (?:Basic: )?Access denied|does not appear to be a git repository|access denied or repository not exported|Invalid username or password/i;
const HOST_KEY = /Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/;
const NO_REF =
  /couldn't find remote ref|no such remote ref|not our ref|unadvertised object|Could not find remote branch|bad object|unknown revision|Needed a single revision|is not a commit|not a valid object name/i;
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
  if (NETWORK.test(stderr))
    return new SkillsError('E_IO', `${shown}: cannot reach the repository: ${lastLine(stderr)}`, {
      hint: 'check the network connection and the URL (git reads a proxy from http.proxy or https_proxy)',
    });
  return new SkillsError('E_IO', `${shown}: git failed: ${lastLine(stderr)}`);
}
