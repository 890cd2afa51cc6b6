import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

// Linux only (from /proc): find every process a run started, even one that left the run's process group. Node
// spawns the program as the leader of a new session and group, so a process belongs to the run when it is in that
// group or session, when its environment holds the run's marker (a variable with a random name, which survives
// setsid, setpgid, double forks and daemons that keep their environment), when it descends from such a process, or
// when a scan during the run saw it descend from one (so a child that also cleared its environment is still known),
// or when it holds one of the run's pipes after the run's other processes are gone (it would keep them open).

/** The variables that mark the processes of runs: `SKILLS_RUN_<24 hex digits>=1`. */
export const MARKER_PATTERN = /^SKILLS_RUN_[0-9a-f]{24}$/;

/** A fresh marker variable name for one run. */
export function newMarker(): string {
  return `SKILLS_RUN_${randomBytes(12).toString('hex')}`;
}

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
  /** Clock ticks after boot: with the pid, names one process even after its pid is reused. */
  start: string;
}

/** The living (not zombie) processes, or undefined where there is no /proc. */
function livingProcesses(): ProcInfo[] | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const out: ProcInfo[] = [];
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp session … starttime (the 22nd field); comm may hold spaces and parentheses.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (f[0] === 'Z' || f[0] === 'X') continue;
    out.push({ pid: Number(name), ppid: Number(f[1]), pgrp: Number(f[2]), session: Number(f[3]), start: f[19] ?? '' });
  }
  return out;
}

/**
 * Whether a process group has a member that is not a zombie, from /proc (Linux); undefined where there is no
 * /proc. kill(-pgid, 0) alone also counts zombies, and an orphan stays one until init reaps it, which some
 * container inits do late.
 */
export function livingInGroup(pgid: number): boolean | undefined {
  return livingProcesses()?.some((p) => p.pgrp === pgid);
}

function holdsMarker(pid: number, needle: Buffer): boolean {
  try {
    const env = readFileSync(`/proc/${pid}/environ`);
    const at = env.indexOf(needle);
    return at === 0 || (at > 0 && env[at - 1] === 0);
  } catch {
    return false; // gone, or not ours to read (then not ours to signal either)
  }
}

/** The processes of one run, found again at every scan. */
export class RunProcesses {
  private readonly needle: Buffer;
  /** pid → start time of every process seen as part of the run. */
  private readonly seen = new Map<number, string>();

  constructor(
    /** The run's program: leader of its own session and process group. */
    private readonly leader: number,
    marker: string,
  ) {
    this.needle = Buffer.from(`${marker}=`);
  }

  /**
   * Take into the run every process that holds one of `pipes` (pipesOf), and
   * say whether there was one. Costly (every descriptor of every process is looked at): only for a run whose pipes
   * stay open when nothing else of it is left.
   */
  adoptHolders(pipes: string[]): boolean {
    if (pipes.length === 0) return false;
    const all = livingProcesses() ?? [];
    let found = false;
    for (const p of all) {
      if (p.pid === process.pid) continue;
      let fds: string[];
      try {
        fds = readdirSync(`/proc/${p.pid}/fd`);
      } catch {
        continue; // gone, or not ours
      }
      const holds = fds.some((fd) => {
        try {
          return pipes.includes(readlinkSync(`/proc/${p.pid}/fd/${fd}`));
        } catch {
          return false;
        }
      });
      if (holds) {
        this.seen.set(p.pid, p.start);
        found = true;
      }
    }
    return found;
  }

  /**
   * The living processes of the run (never this process), or undefined where there is no /proc. `environ` reads
   * every process's environment for the marker; without it (the cheap scan while the run goes on) only the group,
   * the session, the processes seen before and their descendants count.
   */
  scan(environ = true): ProcInfo[] | undefined {
    const all = livingProcesses();
    if (!all) return undefined;
    const self = process.pid;
    const members = new Set<number>();
    const children = new Map<number, ProcInfo[]>();
    for (const p of all) {
      if (p.pid === self) continue;
      const list = children.get(p.ppid);
      if (list) list.push(p);
      else children.set(p.ppid, [p]);
      if (
        p.pgrp === this.leader ||
        p.session === this.leader ||
        this.seen.get(p.pid) === p.start ||
        (environ && holdsMarker(p.pid, this.needle))
      )
        members.add(p.pid);
    }
    const byPid = new Map(all.map((p) => [p.pid, p]));
    const queue = [...members];
    while (queue.length > 0) {
      for (const c of children.get(queue.pop()!) ?? []) {
        if (c.pid === self || members.has(c.pid)) continue;
        members.add(c.pid);
        queue.push(c.pid);
      }
    }
    const found = [...members].map((pid) => byPid.get(pid)!);
    for (const p of found) this.seen.set(p.pid, p.start);
    return found;
  }
}

/**
 * The child's ends of its stdio pipes (`socket:[inode]` or `pipe:[inode]`, as /proc/<pid>/fd shows them), read as
 * soon as it is started, when it has had no time to change them; none without /proc. Node's pipes are socket pairs,
 * whose two ends have two inodes: ours tell nothing about the child's.
 */
export function pipesOf(pid: number | undefined): string[] {
  const out: string[] = [];
  if (pid === undefined) return out;
  for (const fd of [0, 1, 2]) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (link.startsWith('pipe:') || link.startsWith('socket:')) out.push(link);
    } catch {
      /* no /proc, or gone */
    }
  }
  return out;
}
