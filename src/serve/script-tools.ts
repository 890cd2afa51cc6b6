// Scripts as tools (seeds 000, 002, 004): one tool per script a skill may run, named <skill>_<script>, described by
// the script's leading comment, run through run-script. Only with --allow-scripts: all, or a list of
// <skill>/<script> (or <skill> for all of its scripts).
import { createHash } from 'node:crypto';
import { basename, extname, join } from 'node:path';
import { SkillsError } from '../errors.js';
import { readHead, scriptDescription } from '../skill/script-info.js';
import type { SkillSet } from './skill-set.js';
import type { SourceSkill } from './source.js';

export interface AllowScripts {
  all: boolean;
  rules: { skill: string; script?: string }[];
}

/** `--allow-scripts` as given: true or `all` (every script), a comma list, or undefined (none). */
export function parseAllowScripts(v: string | boolean | undefined): AllowScripts | undefined {
  if (v === undefined || v === false) return undefined;
  if (v === true || v.trim() === 'all') return { all: true, rules: [] };
  const rules = v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((item) => {
      const slash = item.indexOf('/');
      const skill = slash < 0 ? item : item.slice(0, slash);
      const script = slash < 0 ? undefined : item.slice(slash + 1);
      if (skill === '' || script === '')
        throw new SkillsError('E_USAGE', `--allow-scripts: "${item}" is not <skill>/<script> or <skill>`, {
          hint: '--allow-scripts web-scraping/scraper,data-analysis (or --allow-scripts alone for every script)',
        });
      return { skill, script: script === '*' ? undefined : script };
    });
  if (rules.length === 0)
    throw new SkillsError('E_USAGE', '--allow-scripts: the list is empty', {
      hint: '--allow-scripts web-scraping/scraper',
    });
  return { all: false, rules };
}

const stem = (p: string) => basename(p, extname(p));

/** True when a rule's script names this path: its path, its path below scripts/, its file name or its stem. */
function names(rule: string, path: string): boolean {
  return (
    rule === path ||
    `scripts/${rule}` === path ||
    basename(path) === rule ||
    stem(path) === rule ||
    `scripts/${rule}` === path.slice(0, path.length - extname(path).length)
  );
}

export interface ScriptTool {
  /** The tool's name: <skill>_<script stem>, [A-Za-z0-9_-], at most 64 characters. */
  name: string;
  skill: string;
  root: string;
  /** The script's path in the skill. */
  path: string;
  description: string;
}

/**
 * The script tools the allowance gives, over the skills served now. A skill is listed from a light read; its scripts
 * need the full load, which may find what the light read does not (a manifest's "scripts" that is not a list, a
 * declared script that is missing): that is said through `warn`, once a run, and the other skills are served.
 */
export function scriptTools(
  set: SkillSet,
  allow: AllowScripts,
  timeoutSeconds: number,
  warn: (line: string) => void,
): ScriptTool[] {
  const now = set.current();
  const skills: SourceSkill[] = allow.all
    ? now.listed
    : [...now.listed, ...now.hidden].filter((s) => allow.rules.some((r) => r.skill === s.name));
  const out: ScriptTool[] = [];
  const taken = new Set<string>();
  const tell = (s: SourceSkill, offered: number, problems: string[]) => {
    const what = offered === 0 ? 'offers no script tool' : `offers ${offered} script tool${offered === 1 ? '' : 's'}`;
    const line = `warning: the skill ${s.name} (${s.root}) ${what}: loading it in full found ${problems.join('; ')}`;
    if (set.firstTime(line)) warn(line);
  };
  for (const s of skills) {
    let loaded;
    try {
      // A skill whose folder was swapped since it was loaded (checkRoot) offers no tools.
      loaded = set.entry(s).load();
    } catch (err) {
      tell(s, 0, [(err as Error).message]);
      continue;
    }
    const problems = loaded.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.file}${d.line ? `:${d.line}:${d.column ?? 1}` : ''}: ${d.message}`);
    const before = out.length;
    for (const script of set.source.scripts(loaded)) {
      if (
        !allow.all &&
        !allow.rules.some((r) => r.skill === s.name && (r.script === undefined || names(r.script, script.path)))
      )
        continue;
      if (script.refused) {
        // What the skill declares and cannot run is said; a file below scripts/ a manifest does not declare is not.
        if (script.declared) problems.push(`${script.path}: ${script.refused}`);
        continue;
      }
      let said: string | undefined;
      try {
        said = scriptDescription(readHead(join(s.root, script.path), 16 * 1024, s.root), script.path);
      } catch {
        /* unreadable: described by its path alone */
      }
      const name = toolName(s.name, script.path, taken);
      out.push({
        name,
        skill: s.name,
        root: s.root,
        path: script.path,
        description: `${said ? `${said} ` : ''}(Script ${script.path} of the skill ${s.name}, run by skills run-script: a clean environment with the secrets the skill declares, output masked, stopped after ${timeoutSeconds} s.)`,
      });
    }
    if (problems.length > 0) tell(s, out.length - before, problems);
  }
  return out;
}

/** <skill>_<stem>; with the extension when the stem is taken; cut to 64 characters with a hash when long. */
function toolName(skill: string, path: string, taken: Set<string>): string {
  const clean = (t: string) => t.replace(/[^A-Za-z0-9_-]+/g, '_');
  let name = clean(`${skill}_${stem(path)}`);
  if (taken.has(name)) name = clean(`${skill}_${stem(path)}_${extname(path).slice(1)}`);
  if (name.length > 64 || taken.has(name))
    name = `${name.slice(0, 55)}_${createHash('sha256').update(`${skill}/${path}`).digest('hex').slice(0, 8)}`;
  taken.add(name);
  return name;
}

/** The input a script tool takes: the JSON object the script reads, or command-line words. */
export const SCRIPT_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    args: {
      type: 'object',
      description:
        'The JSON object the script reads (as its first argument and on stdin), e.g. {"html": "<h2>A</h2>", "selector": "h2"}',
      additionalProperties: true,
    },
    words: {
      type: 'array',
      items: { type: 'string' },
      description: 'Instead of args, for a command-line program: its words, e.g. ["--format", "json"]',
    },
  },
  additionalProperties: false,
} as const;
