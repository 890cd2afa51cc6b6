import { basename, extname, join } from 'node:path';
import type { Rule } from '../types.js';

export type ScriptLanguage = 'shell' | 'js' | 'python' | 'ruby' | 'perl';

const BY_EXTENSION: Record<string, ScriptLanguage> = {
  '.sh': 'shell', '.bash': 'shell', '.zsh': 'shell',
  '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.ts': 'js', '.mts': 'js', '.cts': 'js', '.jsx': 'js', '.tsx': 'js',
  '.py': 'python', '.rb': 'ruby', '.pl': 'perl',
};

const BY_INTERPRETER: Record<string, ScriptLanguage> = {
  sh: 'shell', bash: 'shell', zsh: 'shell', dash: 'shell', ksh: 'shell', ash: 'shell',
  node: 'js', deno: 'js', bun: 'js', tsx: 'js', 'ts-node': 'js',
  ruby: 'ruby', perl: 'perl',
};

// Files without an extension that are not scripts run by path.
const NOT_SCRIPTS = new Set(['Makefile', 'GNUmakefile', 'Dockerfile', 'Containerfile', 'Gemfile', 'Procfile', 'Rakefile', 'Pipfile', 'Brewfile', 'Vagrantfile', 'Justfile', 'justfile', 'LICENSE', 'README', 'CODEOWNERS']);

/** The program a `#!` line runs (`bash` for `#!/usr/bin/env -S bash -e`), or undefined without one. */
export function interpreter(text: string): string | undefined {
  if (!text.startsWith('#!')) return undefined;
  const nl = text.indexOf('\n');
  const words = text.slice(2, nl === -1 ? Math.min(text.length, 256) : Math.min(nl, 256)).trim().split(/\s+/);
  let prog = basename(words[0] ?? '');
  if (prog === 'env') prog = basename(words.slice(1).find((w) => !w.startsWith('-') && !w.includes('=')) ?? '');
  return prog === '' ? undefined : prog;
}

/** What language a script is in: its shebang decides, then its extension. */
export function scriptLanguage(path: string, text: string): ScriptLanguage | undefined {
  const prog = interpreter(text);
  if (prog !== undefined) return /^python[\d.]*$/.test(prog) ? 'python' : BY_INTERPRETER[prog];
  return BY_EXTENSION[extname(path).toLowerCase()];
}

/** Scripts in path order, so findings do not depend on the order the file system lists them in. */
export function byPath<T extends { path: string }>(items: T[]): T[] {
  return items.length < 2 ? items : [...items].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Whether a file is of a kind that is run by path (and so needs a shebang), by its extension. */
export function runsDirectly(path: string, extensions: string[]): boolean {
  const name = basename(path);
  if (name.startsWith('.') || name === '__init__.py' || name.endsWith('.d.ts') || NOT_SCRIPTS.has(name)) return false;
  const ext = extname(name).toLowerCase();
  return ext === '' ? extensions.includes('') : extensions.includes(ext);
}

const SUGGEST: Record<string, string> = {
  '.sh': '#!/usr/bin/env bash', '.bash': '#!/usr/bin/env bash', '.zsh': '#!/usr/bin/env zsh', '': '#!/usr/bin/env bash',
  '.py': '#!/usr/bin/env python3', '.js': '#!/usr/bin/env node', '.mjs': '#!/usr/bin/env node', '.cjs': '#!/usr/bin/env node',
  '.ts': '#!/usr/bin/env -S npx tsx', '.rb': '#!/usr/bin/env ruby', '.pl': '#!/usr/bin/env perl',
};

export default {
  names: ['SK113', 'script-shebang'],
  description: 'scripts that are run by path start with a #! line naming their interpreter',
  tags: ['scripts', 'portability', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['seed 000 (BuzyBeez): scripts, envVars, secrets', 'Anthropic, Skill authoring best practices: utility scripts'],
  fixable: false,
  options: {
    extensions: {
      default: ['.sh', '.bash', '.zsh', '.py', '.js', '.mjs', '.cjs', '.ts', '.rb', '.pl', ''],
      description: 'extensions of scripts that need a shebang ("" for files without one)',
    },
  },
  check(skill, ctx) {
    const extensions = ctx.options.extensions as string[];
    for (const script of byPath(skill.scripts)) {
      if (!script.exists || !runsDirectly(script.path, extensions)) continue;
      const text = ctx.readText(script.path);
      // Empty files are another rule's business; binary or huge ones are not scripts we can read.
      if (text === undefined || text.trim() === '' || text.startsWith('#!')) continue;
      const bom = text.startsWith('\ufeff#!');
      const suggestion = SUGGEST[extname(script.path).toLowerCase()] ?? '#!/usr/bin/env bash';
      ctx.report({
        message: bom
          ? `${script.path} starts with a byte-order mark before #!, so the system does not see the shebang`
          : `${script.path} has no shebang line (#!), so running it by path fails or picks the wrong interpreter`,
        file: join(skill.root, script.path),
        line: 1,
        column: 1,
        hint: bom ? 'save the file as UTF-8 without a BOM' : `start it with ${suggestion}`,
      });
    }
  },
} satisfies Rule;
