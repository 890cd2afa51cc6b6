import { positionFinder } from '../../formats/text.js';
import { join } from 'node:path';
import { isEnvName } from '../helpers/env.js';
import type { Rule } from '../types.js';
import { scriptLanguage, type ScriptLanguage } from '../../formats/shebang.js';
import { byPath } from './script-shebang.js';

/** One environment variable read: its name and where it is first read (1-based). */
export interface EnvRead {
  name: string;
  line: number;
  column: number;
}

// Set by the system, the shell or the runner, never by the skill's user.
const STANDARD = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'PWD',
  'OLDPWD',
  'SHELL',
  'TERM',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SKILL_DIR',
  'RANDOM',
  'LINENO',
  'BASH',
  'BASH_*',
  'IFS',
  'HOSTNAME',
  'HOSTTYPE',
  'OSTYPE',
  'MACHTYPE',
  'UID',
  'EUID',
  'PPID',
  'SECONDS',
  'CI',
  'SHLVL',
  'OPTARG',
  'OPTIND',
  'OPTERR',
  'REPLY',
  'PIPESTATUS',
  'FUNCNAME',
  'BASHPID',
  'GROUPS',
  'DIRSTACK',
  'HISTFILE',
  'PS1',
  'PS2',
  'PS3',
  'PS4',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'DISPLAY',
  'COLUMNS',
  'LINES',
  'NO_COLOR',
  'FORCE_COLOR',
  'XDG_*',
  'NODE_ENV',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONPATH',
  'PYTHONUNBUFFERED',
  'PYTHONIOENCODING',
  'VIRTUAL_ENV',
  'npm_*',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
];

/** A test for names to leave alone: exact names, or prefixes written `LC_*`. */
const filters = new WeakMap<Record<string, unknown>, (name: string) => boolean>();

export function nameFilter(names: string[]): (name: string) => boolean {
  const exact = new Set(names.filter((n) => !n.endsWith('*')));
  const prefixes = names.filter((n) => n.endsWith('*')).map((n) => n.slice(0, -1));
  return (name) => exact.has(name) || prefixes.some((p) => name.startsWith(p));
}

const NAME = '[A-Za-z_][A-Za-z0-9_]{0,127}';
const Q = `(['"\`])(${NAME})\\1`;
const PQ = `(['"])(${NAME})\\1`;
const PATTERNS: Record<Exclude<ScriptLanguage, 'shell'>, RegExp[]> = {
  js: [
    new RegExp(`\\b(?:process|Bun)\\.env\\.(${NAME})`, 'g'),
    new RegExp(`\\b(?:process|Bun)\\.env\\[\\s{0,20}${Q}\\s{0,20}\\]`, 'g'),
    new RegExp(`\\bDeno\\.env\\.get\\(\\s{0,20}${Q}`, 'g'),
  ],
  python: [
    new RegExp(`\\b(?:os\\.)?environ\\[\\s{0,20}${PQ}\\s{0,20}\\]`, 'g'),
    new RegExp(`\\b(?:os\\.)?environ\\.get\\(\\s{0,20}${PQ}`, 'g'),
    new RegExp(`\\b(?:os\\.)?getenv\\(\\s{0,20}${PQ}`, 'g'),
  ],
  ruby: [new RegExp(`\\bENV\\[\\s{0,20}${PQ}\\s{0,20}\\]`, 'g'), new RegExp(`\\bENV\\.fetch\\(\\s{0,20}${PQ}`, 'g')],
  perl: [new RegExp(`\\$ENV\\{\\s{0,20}['"]?(${NAME})['"]?\\s{0,20}\\}`, 'g')],
};
const COMMENT: Record<Exclude<ScriptLanguage, 'shell'>, RegExp> = {
  js: /^\s*(?:\/\/|\/?\*)/,
  python: /^\s*#/,
  ruby: /^\s*#/,
  perl: /^\s*#/,
};
// `const { A, B: b, C = 1 } = process.env`
const DESTRUCTURE = /\{([^{}]{1,2000})\}\s{0,20}=\s{0,20}(?:process|Bun)\.env\b/g;

/** Environment variables a script reads, each once, at its first read, in order. */
export function envReads(path: string, text: string): EnvRead[] {
  const lang = scriptLanguage(path, text);
  if (lang === undefined) return [];
  const found: { name: string; offset: number }[] = lang === 'shell' ? shellReads(text) : codeReads(lang, text);
  found.sort((a, b) => a.offset - b.offset);
  const seen = new Set<string>();
  const at = positionFinder(text);
  const out: EnvRead[] = [];
  for (const f of found) {
    if (seen.has(f.name)) continue;
    seen.add(f.name);
    out.push({ name: f.name, ...at(f.offset) });
  }
  return out;
}

function codeReads(lang: Exclude<ScriptLanguage, 'shell'>, text: string): { name: string; offset: number }[] {
  const found: { name: string; offset: number }[] = [];
  const comment = COMMENT[lang];
  // Whether the line holding `offset` is a comment line; the last line's answer is kept, so one long line costs once.
  let from = -1;
  let to = -1;
  let last = false;
  const inComment = (offset: number) => {
    if (offset < from || offset >= to) {
      from = text.lastIndexOf('\n', offset - 1) + 1;
      const nl = text.indexOf('\n', offset);
      to = nl === -1 ? text.length : nl;
      last = comment.test(text.slice(from, Math.min(to, from + 200)));
    }
    return last;
  };
  for (const re of PATTERNS[lang]) {
    for (const m of text.matchAll(re)) {
      const name = m[2] ?? m[1]!;
      const end = m.index + m[0].length;
      // An assignment (`process.env.X = …`) sets the variable rather than reading it.
      if (/^\s{0,20}\]?\s{0,20}=(?!=)/.test(text.slice(end, end + 42))) continue;
      if (!inComment(m.index)) found.push({ name, offset: m.index + m[0].lastIndexOf(name) });
    }
  }
  if (lang === 'js') {
    for (const m of text.matchAll(DESTRUCTURE)) {
      if (inComment(m.index)) continue;
      let offset = m.index + 1;
      for (const part of m[1]!.split(',')) {
        const name = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(part);
        if (name) found.push({ name: name[1]!, offset: offset + part.indexOf(name[1]!) });
        offset += part.length + 1;
      }
    }
  }
  return found;
}

const SPECIAL = /['"\\#$]/g;
const ASSIGN =
  /(?:^|[\s;&|(])(?:(?:export|local|readonly|declare|typeset)\s+(?:-[a-zA-Z]+\s+){0,4})?([A-Za-z_][A-Za-z0-9_]{0,127})(?:\[[^\]]{0,64}\])?\+?=/g;

/**
 * `$X`, `${X}`, `${X:-…}` with UPPER_CASE names, outside single quotes, comments and quoted heredocs, for names
 * the script does not set itself (`X=…`, `export X=…`, `read X`, `for X in`).
 */
function shellReads(text: string): { name: string; offset: number }[] {
  const reads: { name: string; offset: number }[] = [];
  const assigned = new Set<string>();
  let squote = false;
  let dquote = false;
  let heredoc: { end: string; literal: boolean } | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    if (heredoc) {
      if (line.trim() === heredoc.end) heredoc = undefined;
      else if (!heredoc.literal)
        for (const m of line.matchAll(/(?<!\\)\$\{?#?([A-Z_][A-Z0-9_]{0,127})\b/g))
          reads.push({ name: m[1]!, offset: start + m.index + m[0].indexOf(m[1]!) });
      continue;
    }
    let code = '';
    let i = 0;
    while (i < line.length) {
      if (squote) {
        const close = line.indexOf("'", i);
        const stop = close === -1 ? line.length : close + 1;
        code += ' '.repeat(stop - i);
        if (close !== -1) squote = false;
        i = stop;
        continue;
      }
      SPECIAL.lastIndex = i;
      const sm = SPECIAL.exec(line);
      const j = sm ? sm.index : line.length;
      code += line.slice(i, j);
      if (!sm) break;
      const c = line[j]!;
      i = j + 1;
      if (c === '\\') {
        code += '  ';
        i++;
        continue;
      }
      if (c === "'" && !dquote) squote = true;
      else if (c === '"') dquote = !dquote;
      else if (c === '#') {
        if (!dquote && (j === 0 || /[\s;&|(]/.test(line[j - 1]!))) break;
      } else if (c === '$') {
        const m = /^\$\{?#?([A-Za-z_][A-Za-z0-9_]{0,127})/.exec(line.slice(j, j + 132));
        if (m && /^[A-Z_][A-Z0-9_]*$/.test(m[1]!) && m[1] !== '_')
          reads.push({ name: m[1]!, offset: start + j + m[0].indexOf(m[1]!) });
      }
      code += c;
    }
    if (code.includes('=')) for (const m of code.matchAll(ASSIGN)) assigned.add(m[1]!);
    if (code.includes('in'))
      for (const m of code.matchAll(/\b(?:for|select)\s+([A-Za-z_][A-Za-z0-9_]{0,127})\s+in\b/g)) assigned.add(m[1]!);
    const read = /read|getopts|mapfile/.test(code)
      ? /(?:^|[\s;&|(])(?:read|getopts|mapfile|readarray)\s([^;&|]{0,500})/.exec(code)
      : null;
    if (read) for (const w of read[1]!.split(/\s+/)) if (isEnvName(w)) assigned.add(w);
    if (!line.includes('<<')) continue;
    const h = /(?<!<)<<-?\s{0,5}(['"]?)([A-Za-z_][A-Za-z0-9_]{0,63})\1/.exec(line);
    if (h && h.index < code.length && !squote) heredoc = { end: h[2]!, literal: h[1] !== '' };
  }
  return reads.filter((r) => !assigned.has(r.name));
}

export default {
  names: ['SK116', 'env-undeclared'],
  description: 'environment variables that scripts read are declared in envVars',
  tags: ['scripts', 'env', 'manifest'],
  layouts: ['manifest'],
  severity: 'warning',
  sources: ['seed 000 (BuzyBeez): scripts, envVars, secrets'],
  fixable: false,
  options: {
    ignore: {
      default: [],
      description: `more names to leave alone, besides the standard ones (${STANDARD.slice(0, 6).join(', ')}, …); LC_* style prefixes allowed`,
    },
  },
  check(skill, ctx) {
    // Built once a run (the options object is the run's), and only when some script reads a variable.
    const standard = (name: string) => {
      let f = filters.get(ctx.options);
      if (!f) filters.set(ctx.options, (f = nameFilter([...STANDARD, ...(ctx.options.ignore as string[])])));
      return f(name);
    };
    const declared = new Set(skill.envVars);
    for (const script of byPath(skill.scripts)) {
      if (!script.exists) continue;
      const text = ctx.readText(script.path);
      if (text === undefined) continue;
      for (const r of envReads(script.path, text)) {
        if (declared.has(r.name) || standard(r.name)) continue;
        ctx.report({
          message: `${script.path} reads ${r.name}, which envVars does not declare`,
          file: join(skill.root, script.path),
          line: r.line,
          column: r.column,
          hint: `add "${r.name}" to envVars in manifest.json and a line ${r.name}= to .env.example`,
        });
      }
    }
  },
} satisfies Rule;
