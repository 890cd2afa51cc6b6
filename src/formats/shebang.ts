import { basename, extname } from 'node:path';
import { SkillsError } from '../errors.js';

// The one interpreter table: which program runs a script, from its `#!` line or else its extension. run-script
// runs what it says; the linter's rules read the same answer, so the two cannot disagree about a script.

export interface Shebang {
  /** The program: a path, or a name to find on PATH (after `env`). */
  command: string;
  args: string[];
  /** NAME=value assignments given to env. */
  env: Record<string, string>;
}

/** The language of a script, as the linter's rules need it. */
export type ScriptLanguage = 'shell' | 'js' | 'python' | 'ruby' | 'perl';

/** What run-script runs a script with when it has no shebang. */
export type ExtensionRunner = 'bash' | 'python3' | 'node' | 'tsx';

interface ExtensionEntry {
  language: ScriptLanguage;
  /** The runner run-script uses without a shebang; none: run-script needs a shebang for it. */
  runner?: ExtensionRunner;
  /** The shebang to suggest for a script without one. */
  shebang?: string;
}

/** By extension (lower case): the language, the runner without a shebang, the shebang to suggest. */
export const EXTENSIONS: Readonly<Record<string, ExtensionEntry>> = {
  '.sh': { language: 'shell', runner: 'bash', shebang: '#!/usr/bin/env bash' },
  '.bash': { language: 'shell', runner: 'bash', shebang: '#!/usr/bin/env bash' },
  '.zsh': { language: 'shell', shebang: '#!/usr/bin/env zsh' },
  '.py': { language: 'python', runner: 'python3', shebang: '#!/usr/bin/env python3' },
  '.js': { language: 'js', runner: 'node', shebang: '#!/usr/bin/env node' },
  '.mjs': { language: 'js', runner: 'node', shebang: '#!/usr/bin/env node' },
  '.cjs': { language: 'js', runner: 'node', shebang: '#!/usr/bin/env node' },
  '.ts': { language: 'js', runner: 'tsx', shebang: '#!/usr/bin/env -S npx tsx' },
  '.mts': { language: 'js', runner: 'tsx' },
  '.cts': { language: 'js', runner: 'tsx' },
  '.tsx': { language: 'js', runner: 'tsx' },
  '.jsx': { language: 'js' },
  '.rb': { language: 'ruby', shebang: '#!/usr/bin/env ruby' },
  '.pl': { language: 'perl', shebang: '#!/usr/bin/env perl' },
};

/** The shebang suggested for a file without one (files with no known extension: bash). */
export const DEFAULT_SHEBANG = '#!/usr/bin/env bash';

const BY_PROGRAM: Record<string, ScriptLanguage> = {
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  dash: 'shell',
  ksh: 'shell',
  ash: 'shell',
  node: 'js',
  nodejs: 'js',
  deno: 'js',
  bun: 'js',
  tsx: 'js',
  'ts-node': 'js',
  ruby: 'ruby',
  perl: 'perl',
};

/** The language a program (a shebang's, or an extension's runner) runs. */
export function languageOfProgram(prog: string): ScriptLanguage | undefined {
  return /^python[\d.]*$/.test(prog) ? 'python' : BY_PROGRAM[prog];
}

/** The shebang to suggest for a script, by its extension. */
export function suggestedShebang(path: string): string {
  return EXTENSIONS[extname(path).toLowerCase()]?.shebang ?? DEFAULT_SHEBANG;
}

/**
 * Parse a `#!` line. Arguments are split on whitespace, with quotes, as `env -S` splits them (and as macOS splits
 * every shebang); through `env`, its options -S, -i and -u and NAME=value assignments are understood. Another env
 * option is an E_USAGE, or skipped with `lenient` (the linter reads what it can).
 */
export function parseShebang(line: string, { lenient = false }: { lenient?: boolean } = {}): Shebang | undefined {
  if (!line.startsWith('#!')) return undefined;
  const words = splitWords(line.slice(2).replace(/\r$/, ''));
  if (words.length === 0) return undefined;
  const [first, ...rest] = words;
  if (basename(first!) !== 'env') return { command: first!, args: rest, env: {} };
  const env: Record<string, string> = {};
  const queue = [...rest];
  while (queue.length > 0) {
    const w = queue.shift()!;
    if (w === '-S' || w === '--split-string' || w === '-i' || w === '--ignore-environment' || w === '-') continue;
    if (w.startsWith('--split-string=')) queue.unshift(...splitWords(w.slice('--split-string='.length)));
    else if (w.startsWith('-S')) queue.unshift(...splitWords(w.slice(2)));
    else if (w === '-u' || w === '--unset') queue.shift();
    else if (w.startsWith('-u') || w.startsWith('--unset=')) continue;
    else if (w.startsWith('-') && lenient) continue;
    else if (w.startsWith('-'))
      throw new SkillsError('E_USAGE', `the shebang uses the env option ${w}, which run-script does not understand`, {
        hint: 'use #!/usr/bin/env <interpreter> [args], or env -S',
      });
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
      const eq = w.indexOf('=');
      env[w.slice(0, eq)] = w.slice(eq + 1);
    } else return { command: w, args: queue, env };
  }
  return undefined;
}

/**
 * Split like `env -S`: whitespace separates words; '…' is literal, "…" and \ escape; an unquoted # starts a comment.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (c === '#' && !inWord) {
      break;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word += text.slice(i + 1, end === -1 ? undefined : end);
      i = end === -1 ? text.length : end;
      inWord = true;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        word += text[i];
      }
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * The program a shebang runs, by name, and its arguments: `npx tsx` (with npx's own flags) is tsx, `nodejs` is node.
 */
export function shebangRunner(shebang: Shebang): { prog: string; args: string[] } {
  const prog = basename(shebang.command);
  if (prog === 'npx') {
    const at = shebang.args.findIndex((a) => !a.startsWith('-'));
    if (
      at >= 0 &&
      shebang.args[at] === 'tsx' &&
      shebang.args.slice(0, at).every((a) => /^(?:-y|--yes|--no-install|--no|--quiet|-q)$/.test(a))
    ) {
      return { prog: 'tsx', args: shebang.args.slice(at + 1) };
    }
  }
  return { prog: prog === 'nodejs' ? 'node' : prog, args: shebang.args };
}

/** How run-script runs a script, before it finds its own node and tsx: by the shebang, else by the extension. */
export type InterpreterChoice =
  | { via: 'shebang'; prog: string; command: string; args: string[]; env: Record<string, string> }
  | { via: 'extension'; prog: ExtensionRunner };

/**
 * The interpreter of a script from its path and first line: the shebang first, else the extension (.sh bash, .py
 * python3, .js/.mjs/.cjs node, .ts/.mts/.cts tsx); an E_USAGE when neither tells.
 */
export function interpreterOf(path: string, firstLine: string): InterpreterChoice {
  const shebang = parseShebang(firstLine.replace(/^\uFEFF/, ''));
  if (shebang) return { via: 'shebang', ...shebangRunner(shebang), command: shebang.command, env: shebang.env };
  const runner = EXTENSIONS[extname(path).toLowerCase()]?.runner;
  if (runner) return { via: 'extension', prog: runner };
  throw new SkillsError(
    'E_USAGE',
    `cannot tell how to run ${path}: it has no shebang (#!) and its extension${extname(path) ? ` ${extname(path)}` : ''} is not one of .sh, .py, .js, .mjs, .cjs, .ts, .mts, .cts`,
    {
      hint: 'start it with a shebang such as #!/usr/bin/env python3, or give it one of those extensions',
    },
  );
}

/** The program a file's `#!` line runs (`bash` for `#!/usr/bin/env -S bash -e`), or undefined without one. */
export function shebangProgram(text: string): string | undefined {
  if (!text.startsWith('#!')) return undefined;
  const nl = text.indexOf('\n');
  const shebang = parseShebang(nl === -1 ? text : text.slice(0, nl), { lenient: true });
  const prog = shebang ? shebangRunner(shebang).prog : '';
  return prog === '' ? undefined : prog;
}

/** What language a script is in: its shebang decides, then its extension. */
export function scriptLanguage(path: string, text: string): ScriptLanguage | undefined {
  const prog = shebangProgram(text);
  if (prog !== undefined) return languageOfProgram(prog);
  return EXTENSIONS[extname(path).toLowerCase()]?.language;
}
