// Inline disable comments in Markdown files: `<!-- skills-lint-disable … -->` and its -next-line form.
import { join } from 'node:path';
import { positionFinder } from '../formats/text.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';

const DISABLE = /<!--\s*skills-lint-disable(-next-line)?((?:\s+[\w-]+,?)*)\s*-->/g;

type Off = Set<string> | 'all' | undefined;

/** What the comments of one file turn off: for the whole file, and line by line. */
export interface FileDisables {
  all: Off;
  lines: Map<number, Set<string> | 'all'>;
}

const NONE: FileDisables = { all: undefined, lines: new Map() };

/** A disable comment of a text: where it starts, whether it is the -next-line form, and each name it gives. */
export interface DisableComment {
  index: number;
  nextLine: boolean;
  /** The names as written, each with its offset in the text. */
  names: { name: string; index: number }[];
}

/** The disable comments of a text, in order. */
export function disableComments(text: string): DisableComment[] {
  const out: DisableComment[] = [];
  for (const m of text.matchAll(DISABLE)) {
    // The names' part ends where the comment's closing `-->` and the spaces before it begin.
    const start = m.index! + m[0].length - /\s*-->$/.exec(m[0])![0].length - m[2]!.length;
    const names = [...m[2]!.matchAll(/[\w-]+/g)].map((n) => ({ name: n[0], index: start + n.index! }));
    out.push({ index: m.index!, nextLine: !!m[1], names });
  }
  return out;
}

/** Whether a text may hold a disable comment: false rules it out without a search for the comments. */
function mayHoldDisables(text: string | undefined): text is string {
  return !!text && text.includes('<!--') && text.includes('skills-lint-disable');
}

/** The skill's Markdown files that hold a disable comment (SK134, SK135): path in the skill, absolute file, text. */
export function disableTexts(
  skill: Pick<Skill, 'root' | 'entries'>,
  readText: (rel: string) => string | undefined,
): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const e of skill.entries) {
    if (e.kind !== 'file' || !/\.(md|markdown)$/i.test(e.path)) continue;
    const text = readText(e.path);
    if (mayHoldDisables(text)) out.push({ file: join(skill.root, e.path), text });
  }
  return out;
}

/** The comments of one Markdown text; `names` maps every rule id and alias to its id (knownNames). */
export function parseDisables(text: string | undefined, names: Map<string, string>): FileDisables {
  // Every comment starts with <, rare in prose: found alone (indexOf) it rules out most texts far sooner than the
  // comment's long name, whose common letters let a search skip little.
  if (!mayHoldDisables(text)) return NONE;
  const d: FileDisables = { all: undefined, lines: new Map() };
  const at = positionFinder(text);
  for (const c of disableComments(text)) {
    const ids = c.names.map((n) => names.get(n.name) ?? n.name);
    const set: Set<string> | 'all' = ids.length === 0 ? 'all' : new Set(ids);
    if (c.nextLine) d.lines.set(at(c.index).line + 1, set);
    else if (set === 'all' || d.all === 'all') d.all = 'all';
    else d.all = new Set([...(d.all ?? []), ...set]);
  }
  return d;
}

/** True when the comments keep the finding (it is not turned off where it is). */
export function keptBy(d: FileDisables, diag: Pick<Diagnostic, 'ruleId' | 'line'>): boolean {
  const off = (s: Off) => s === 'all' || (s !== undefined && s.has(diag.ruleId));
  return !off(d.all) && !(diag.line !== undefined && off(d.lines.get(diag.line)));
}

/**
 * The comments of a skill's Markdown files, read when first asked for: `<!-- skills-lint-disable SK012 -->` turns
 * rules off for the whole file it is in, `<!-- skills-lint-disable-next-line SK012 -->` for the line after it; no
 * ids means every rule. Files that are not Markdown of the skill have none.
 */
export function skillDisables(
  skill: Pick<Skill, 'root'>,
  readText: (rel: string) => string | undefined,
  names: Map<string, string>,
): (file: string) => FileDisables {
  const byFile = new Map<string, FileDisables>();
  return (file) => {
    let d = byFile.get(file);
    if (!d) {
      d =
        /\.(md|markdown)$/i.test(file) && file.startsWith(skill.root)
          ? parseDisables(readText(file.slice(skill.root.length + 1)), names)
          : NONE;
      byFile.set(file, d);
    }
    return d;
  };
}

/** A disable comment, or one name of it, that turned nothing off: where it is, and the name (none: a bare comment). */
export interface UnusedDisable {
  line: number;
  column: number;
  name?: string;
}

/**
 * The parts of a text's disable comments that turn off none of `findings` (those of this file): each name whose rule
 * reported nothing where the comment reaches (the file, or the next line), and each bare comment where nothing was
 * reported at all. Names that are no rule (SK134's) and those `skip` says (a rule that reports later) are not judged.
 */
export function unusedDisables(
  text: string,
  names: ReadonlyMap<string, string>,
  findings: readonly Pick<Diagnostic, 'ruleId' | 'line'>[],
  skip: (id: string | undefined) => boolean,
): UnusedDisable[] {
  const out: UnusedDisable[] = [];
  const at = positionFinder(text);
  for (const c of disableComments(text)) {
    const line = c.nextLine ? at(c.index).line + 1 : undefined;
    const reached = line === undefined ? findings : findings.filter((f) => f.line === line);
    if (c.names.length === 0) {
      if (reached.length === 0 && !skip(undefined)) out.push(at(c.index));
      continue;
    }
    for (const n of c.names) {
      const id = names.get(n.name);
      if (id === undefined || skip(id)) continue;
      if (!reached.some((f) => f.ruleId === id)) out.push({ ...at(n.index), name: n.name });
    }
  }
  return out;
}
