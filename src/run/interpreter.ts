import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SkillsError } from '../errors.js';
import { readRegularText } from '../fs/read.js';
import { interpreterOf } from '../formats/shebang.js';

export interface Interpreter {
  /** What to spawn: an absolute path (ours: node) or a name to find on the script's PATH. */
  command: string;
  /** Arguments before the script's path. */
  args: string[];
  /** NAME=value the shebang's env sets. */
  env: Record<string, string>;
  /** Short name to show: node, tsx, python3, bash, or the shebang's program. */
  label: string;
  via: 'shebang' | 'extension';
}

/** The path of tsx's command-line entry, from our own install (works from src/ and from dist/commands/*.cjs). */
export function tsxCli(): string {
  const req = createRequire(import.meta.url);
  try {
    return req.resolve('tsx/cli');
  } catch {
    try {
      const pkgFile = req.resolve('tsx/package.json');
      const bin = (JSON.parse(readRegularText(pkgFile)) as { bin?: string | Record<string, string> }).bin;
      const rel = typeof bin === 'string' ? bin : bin?.tsx;
      if (rel) return join(dirname(pkgFile), rel);
    } catch {
      /* reported below */
    }
  }
  throw new SkillsError(
    'E_NOT_FOUND',
    'cannot find tsx, which runs TypeScript scripts: it is a dependency of skills but is not installed',
    {
      hint: 'reinstall skills (npm install), or give the script a shebang naming another runner',
    },
  );
}

/**
 * How to run a script, as formats/shebang.ts decides it (its shebang first, else its extension), with node and tsx
 * meaning ours: this Node, and the tsx skills depends on. `firstLine` is the script's first line.
 */
export function chooseInterpreter(path: string, firstLine: string, resolveTsx: () => string = tsxCli): Interpreter {
  const choice = interpreterOf(path, firstLine);
  const { via, prog } = choice;
  const args = choice.via === 'shebang' ? choice.args : [];
  const env = choice.via === 'shebang' ? choice.env : {};
  if (prog === 'node') return { command: process.execPath, args, env, label: 'node', via };
  if (prog === 'tsx') return { command: process.execPath, args: [resolveTsx(), ...args], env, label: 'tsx', via };
  return { command: choice.via === 'shebang' ? choice.command : prog, args, env, label: prog, via };
}
