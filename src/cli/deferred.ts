// Defining every command (its options, arguments, help text) costs about 2 ms of every start, and a run uses one.
// The program's top-level commands are recorded rather than built, and built (the recorded calls replayed in order)
// when the run needs them: only the command the first argument names (or one of its aliases), or every one of them
// when it names none (`--help`, `help`, a mistyped command, which commander answers with the whole list).
import type { Command, CommandOptions } from 'commander';

type Call = { method: string; args: unknown[]; child?: Recorded };
interface Recorded {
  calls: Call[];
}

/** A stand-in for a command being defined: every method call is kept, `command()` gives a stand-in of its own. */
function recorder(): { proxy: Command; recorded: Recorded } {
  const recorded: Recorded = { calls: [] };
  const proxy: Command = new Proxy({} as Command, {
    get: (_, method) => {
      if (typeof method !== 'string') return undefined;
      return (...args: unknown[]) => {
        if (method === 'command') {
          const child = recorder();
          recorded.calls.push({ method, args, child: child.recorded });
          return child.proxy;
        }
        recorded.calls.push({ method, args });
        return proxy;
      };
    },
  });
  return { proxy, recorded };
}

/** Make the recorded calls on the real command, in their order; each recorded subcommand on the real subcommand. */
function replay(target: Command, recorded: Recorded): void {
  for (const { method, args, child } of recorded.calls) {
    const result = (target as unknown as Record<string, (...a: unknown[]) => Command>)[method]!(...args);
    if (child) replay(result, child);
  }
}

/** The names a recorded command answers to: its own and its aliases. */
function namesOf(nameAndArgs: string, recorded: Recorded): string[] {
  const names = [nameAndArgs.split(/\s+/)[0]!];
  for (const { method, args } of recorded.calls) {
    if (method === 'alias') names.push(String(args[0]));
    if (method === 'aliases') names.push(...(args[0] as string[]).map(String));
  }
  return names;
}

/**
 * The program's top-level `command()` calls, deferred: `define(nameAndArgs)` gives a stand-in to define the command
 * on; `build(first)` builds the commands a run whose first argument is `first` may reach, in their order.
 */
export function deferredCommands(create: (nameAndArgs: string, opts?: CommandOptions) => Command): {
  define: (nameAndArgs: string, opts?: CommandOptions) => Command;
  build: (first: string | undefined) => void;
} {
  const pending: { nameAndArgs: string; opts?: CommandOptions; recorded: Recorded }[] = [];
  return {
    define(nameAndArgs, opts) {
      const { proxy, recorded } = recorder();
      pending.push({ nameAndArgs, opts, recorded });
      return proxy;
    },
    build(first) {
      const named = pending.filter((p) => first !== undefined && namesOf(p.nameAndArgs, p.recorded).includes(first));
      for (const p of named.length > 0 ? named : pending) replay(create(p.nameAndArgs, p.opts), p.recorded);
      pending.length = 0;
    },
  };
}
