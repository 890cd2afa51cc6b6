// validate's checks shared by both layouts: seed 004's extension fields, version and dependencies.
import { isAbsolute, normalize } from 'node:path';
import type { Diagnostic, Position } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { isPackageRequirement, isStrictSemver, parseSpec, semverLike, skillPathId } from '../model/spec.js';
import { diag } from '../model/diagnostic.js';
import { checkPath } from './check-path.js';
import type { SafeRegex } from './validate.js';
import { describeChar, escapeChar, unsafeChars, type UnsafeChar } from '../formats/unsafe-text.js';
import { positionFinder } from '../formats/text.js';
import { lookalikeProblem } from './confusable-names.js';
import { checkEntryNames } from './check-entry-names.js';

/** Checks shared by both layouts: seed 004's extension fields, version and dependencies. */
export function checkExtensions(skill: Skill, out: Diagnostic[], safeRegex?: SafeRegex): void {
  const raw = skill.raw;
  const file = skill.file;
  const at = (k: string): Position | undefined => skill.positions[k];
  checkUnsafeText(skill, out);
  checkEncoding(skill, out);
  checkNameLookalike(skill, out);
  checkEntryNames(skill, out);
  // A SKILL.md without a top-level version is versioned by metadata.version, which is checked the same way.
  const meta = raw.metadata;
  const inMetadata =
    raw.version === undefined &&
    skill.layout === 'skill-md' &&
    meta &&
    typeof meta === 'object' &&
    !Array.isArray(meta);
  const field = inMetadata ? 'metadata.version' : 'version';
  const version = inMetadata ? (meta as Record<string, unknown>).version : raw.version;
  if (typeof version === 'string' && version !== '' && !isStrictSemver(version)) {
    // The manifest layout requires a semantic version; in SKILL.md a version is an extension the standard does not
    // define, and real skills write "1.0" or "v1.2.3": a warning there (pack, sync and install, which need
    // MAJOR.MINOR.PATCH, still refuse it with their own message).
    const loose = skill.layout === 'skill-md';
    const suggestion = semverLike(version);
    out.push(
      diag(
        'version-semver',
        loose ? 'warning' : 'error',
        `${field} "${version}" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. "${suggestion ?? '1.0.0'}"`,
        file,
        at(field) ?? at('metadata'),
        suggestion ? `write ${field}: ${suggestion}` : undefined,
      ),
    );
  }
  if (skill.layout === 'skill-md' && Array.isArray(raw.scripts)) {
    raw.scripts.forEach((p, i) => {
      if (typeof p === 'string') checkPath(skill, p, `scripts[${i}]`, out, false);
    });
  }
  if (Array.isArray(raw.dependencies)) {
    raw.dependencies.forEach((d, i) => {
      if (typeof d !== 'string') return;
      const s = parseSpec(d);
      if (!('error' in s)) return;
      const place = at(`dependencies[${i}]`) ?? at('dependencies');
      // In SKILL.md a package requirement is left out with a warning (readDependencies in load.ts), and so is a skill
      // named by its folder path, which is no id.
      const byPath = skillPathId(d);
      if (skill.layout === 'skill-md' && byPath !== undefined)
        out.push(
          diag(
            'dependency-spec',
            'warning',
            `dependencies[${i}]: "${d}" names a skill by its folder path; a dependency is a skill id (or id@range), so skills leaves it out`,
            file,
            place,
            `write the skill's id: ${byPath}`,
          ),
        );
      else if (skill.layout === 'skill-md' && isPackageRequirement(d))
        out.push(
          diag(
            'dependency-spec',
            'warning',
            `dependencies[${i}]: "${d}" is a package requirement (pip, npm), not a skill; skills does not install it`,
            file,
            place,
            'list skills here (id or id@range); say what packages the skill needs in compatibility',
          ),
        );
      else out.push(diag('dependency-spec', 'error', `dependencies[${i}]: ${s.error}`, file, place));
    });
  }
  const patterns = skill.triggers?.patterns ?? [];
  patterns.forEach((p, i) => {
    // Found only for a finding: a skill's positions are worked out from its text on first use.
    const pos = () => at(`triggers.patterns[${i}]`) ?? at('triggers.patterns') ?? at('triggers');
    let re: RegExp;
    try {
      re = new RegExp(p, 'i');
    } catch (err) {
      out.push(
        diag(
          'trigger-pattern',
          'error',
          `triggers.patterns[${i}] does not compile as a regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`,
          file,
          pos(),
        ),
      );
      return;
    }
    if (safeRegex && !safeRegex(re)) {
      out.push(
        diag(
          'trigger-pattern',
          'error',
          `triggers.patterns[${i}] "${p}" can backtrack catastrophically (nested or overlapping repetition)`,
          file,
          pos(),
          'remove the nested quantifier, e.g. (a+)+ → a+',
        ),
      );
    }
  });
  if (Array.isArray(raw.toolsets)) {
    raw.toolsets.forEach((t, i) => {
      if (typeof t !== 'string') return;
      const pos = () => at(`toolsets[${i}]`) ?? at('toolsets');
      const m = /^([^:]+):([A-Za-z_$][\w$]*)$/.exec(t);
      if (!m) {
        out.push(
          diag(
            'toolset-format',
            'error',
            `toolsets[${i}] "${t}" must be path:Export, e.g. "toolsets/index:HelloToolset"`,
            file,
            pos(),
          ),
        );
        return;
      }
      const p = m[1]!;
      if (isAbsolute(p) || normalize(p).replace(/\\/g, '/').startsWith('../')) {
        out.push(diag('path-inside', 'error', `toolsets[${i}] "${p}" leads out of the skill`, file, pos()));
        return;
      }
      const base = normalize(p).replace(/\\/g, '/').replace(/^\.\//, '');
      const exts = ['', '.ts', '.js', '.mjs', '.mts', '.cjs', '.tsx'];
      if (!skill.entries.some((e) => e.kind !== 'dir' && exts.some((x) => e.path === base + x))) {
        out.push(
          diag(
            'toolset-format',
            'error',
            `toolsets[${i}]: no file ${base} (or ${base}.ts, ${base}.js) in the skill`,
            file,
            pos(),
          ),
        );
      }
    });
  }
}

const WHAT: Record<UnsafeChar['kind'], string> = {
  control:
    'a control character, which a terminal obeys (escape sequences set the clipboard or the window title, move the cursor, rewrite what was shown)',
  bidi: 'a bidirectional control, which reorders how the text is shown, so that a reviewer reads something else than an agent does',
  invisible: 'an invisible character, which can carry text that an agent reads and a reviewer does not see',
};

/**
 * Control, bidirectional and invisible characters (formats/unsafe-text.ts) in the instructions (SKILL.md body,
 * manifest context files) and in every frontmatter or manifest value as decoded: one finding per place and kind.
 */
function checkUnsafeText(skill: Skill, out: Diagnostic[]): void {
  const reported = new Set<string>();
  const report = (file: string, pos: Position | undefined, where: string, found: UnsafeChar[]) => {
    for (const kind of ['control', 'bidi', 'invisible'] as const) {
      const of = found.filter((c) => c.kind === kind);
      if (of.length === 0) continue;
      const key = `${file}:${pos?.line ?? 0}:${where}:${kind}`;
      if (reported.has(key)) continue;
      reported.add(key);
      const names = [...new Set(of.map((c) => describeChar(c.cp)))];
      const listed =
        names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
      // The hint writes out the characters found (at most three), not an example of another.
      const cps = [...new Set(of.map((c) => c.cp))];
      const escapes = cps.slice(0, 3).map(escapeChar).join(', ') + (cps.length > 3 ? ', …' : '');
      const it = cps.length > 1 ? 'them' : 'it';
      out.push(
        diag(
          kind === 'control' ? 'control-characters' : 'invisible-characters',
          kind === 'control' ? 'error' : 'warning',
          `${listed} in ${where}: ${WHAT[kind]}`,
          file,
          pos ? { line: pos.line, column: pos.column } : undefined,
          kind === 'control'
            ? cps.every((cp) => cp === 0x1b)
              ? 'remove it; to show an escape sequence, write it out as text (\\x1b[31m) in a code block'
              : `remove ${it}; to show such a character, write ${it} out as text (${escapes}) in a code block`
            : `remove ${it}, or write ${it} out as text (${escapes}) if the skill is about such characters`,
        ),
      );
    }
  };
  const scan = (file: string, text: string, firstLine: number, whereOf: (line: number) => string, ascii = false) => {
    const found = unsafeChars(text, Infinity, ascii);
    if (found.length === 0) return;
    const at = positionFinder(text);
    const byLine = new Map<number, { column: number; chars: UnsafeChar[] }>();
    for (const c of found) {
      const p = at(c.index);
      const line = p.line + firstLine - 1;
      const entry = byLine.get(line);
      if (entry) entry.chars.push(c);
      else byLine.set(line, { column: p.column, chars: [c] });
    }
    for (const [line, { column, chars }] of byLine) report(file, { line, column }, whereOf(line), chars);
  };
  // What an agent reads as text: the SKILL.md body and a manifest's context files, where the characters stand.
  for (const part of skill.instructionParts)
    scan(part.file, part.text, part.line, () => 'the instructions', part.ascii);
  // Every frontmatter or manifest value, as decoded (a YAML or JSON escape such as "\u001b" holds the character
  // the text does not show), and every key: reported at the key.
  eachText(skill.raw, (text, pathOf, isKey) => {
    const found = unsafeChars(text);
    if (found.length === 0) return;
    const path = pathOf();
    if (isKey) report(skill.file, skill.positions[path], `the key of ${path}`, found);
    else report(skill.file, skill.positions[path] ?? skill.positions[topOf(path)], path, found);
  });
}

/** The top-level field of a value's path: `metadata` of `metadata.author`, `triggers` of `triggers.keywords[0]`. */
const topOf = (path: string) => path.replace(/[.[].*$/, '');

/** A value met by eachText: its path is made from its parent's only when asked for (most values need none). */
interface TextNode {
  value: unknown;
  parent: TextNode | undefined;
  /** The key in a mapping, or the index in a list. */
  key: string | number;
  path?: string;
}

function pathOf(node: TextNode): string {
  if (node.path !== undefined) return node.path;
  const parent = node.parent === undefined ? '' : pathOf(node.parent);
  node.path =
    typeof node.key === 'number' ? `${parent}[${node.key}]` : parent === '' ? node.key : `${parent}.${node.key}`;
  return node.path;
}

/**
 * Every string value of a frontmatter or manifest object, and every key of its mappings, with its path
 * (`metadata.author`, `triggers.keywords[0]`, made when `path()` is called), in the file's order. A stack, not
 * recursion, and each shared object once: YAML aliases make a small file a graph of billions of paths.
 */
function eachText(
  raw: Record<string, unknown>,
  visit: (text: string, path: () => string, isKey: boolean) => void,
): void {
  const seen = new Set<object>();
  const stack: TextNode[] = [{ value: raw, parent: undefined, key: '', path: '' }];
  for (let visits = 0; stack.length > 0 && visits < MAX_VALUES; visits++) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') visit(v, () => pathOf(node), false);
    else if (v && typeof v === 'object' && !seen.has(v)) {
      seen.add(v);
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: node, key: i });
      } else {
        const keys = Object.keys(v);
        for (let i = keys.length - 1; i >= 0; i--) {
          const child: TextNode = { value: (v as Record<string, unknown>)[keys[i]!], parent: node, key: keys[i]! };
          visit(keys[i]!, () => pathOf(child), true);
          stack.push(child);
        }
      }
    }
  }
}

/** U+FFFD, as a decoder writes it for each byte sequence that is not UTF-8. */
const REPLACEMENT = '\uFFFD';

/**
 * Text that is not UTF-8 (Latin-1 or Windows-1252 saved by an older editor: `café` as the byte E9) reaches every
 * agent as U+FFFD, the replacement character, in place of what was meant; so does text an earlier conversion broke
 * (emoji lost as `�`, 4 of 15,818 mirrored public SKILL.md files). One warning per file, at its first place, counting
 * the others.
 */
export function checkEncoding(skill: Skill, out: Diagnostic[]): void {
  const places = new Map<string, { pos?: Position; count: number }>();
  const note = (file: string, pos: Position | undefined, count: number) => {
    const p = places.get(file);
    if (p) p.count += count;
    else places.set(file, { ...(pos ? { pos } : {}), count });
  };
  const inText = (file: string, text: string, line: number) => {
    let i = text.indexOf(REPLACEMENT);
    if (i < 0) return;
    const at = positionFinder(text)(i);
    let count = 0;
    for (; i >= 0; i = text.indexOf(REPLACEMENT, i + 1)) count++;
    note(file, { line: at.line + line - 1, column: at.column }, count);
  };
  // A skill file that did not parse (SK003) has no values: its whole text is searched, where the bytes that are not
  // UTF-8 may be what broke it. Otherwise the frontmatter or manifest values and keys first (they come first in the
  // file), at the first top-level field that holds one.
  const unparsed = Object.keys(skill.raw).length === 0;
  if (unparsed) inText(skill.file, skill.source, 1);
  else
    eachText(skill.raw, (text, path) => {
      if (text.includes(REPLACEMENT)) note(skill.file, skill.positions[topOf(path())], 1);
    });
  for (const part of skill.instructionParts) {
    if (part.ascii || (unparsed && part.file === skill.file)) continue;
    inText(part.file, part.text, part.line);
  }
  for (const [file, { pos, count }] of places)
    out.push(
      diag(
        'text-encoding',
        'warning',
        `the replacement character U+FFFD${count > 1 ? ` (${count} places)` : ''}: text that is not UTF-8, or was broken by an earlier conversion; agents read it, not what was meant`,
        file,
        pos ? { line: pos.line, column: pos.column } : undefined,
        'save the file as UTF-8 (Latin-1 or Windows-1252 text: iconv -f windows-1252 -t utf-8, or "Save with encoding: UTF-8" in the editor); in a file that is UTF-8 already, the characters were lost before: write them again',
      ),
    );
}

/** The most values of one skill file checked for unsafe characters. */
const MAX_VALUES = 100_000;

/** A name that mixes scripts, or that is written in another script's letters that look Latin (TS #39). */
function checkNameLookalike(skill: Skill, out: Diagnostic[]): void {
  const key = skill.layout === 'skill-md' ? 'name' : 'id';
  const name = skill.raw[key];
  if (typeof name !== 'string' || name.trim() === '') return;
  const problem = lookalikeProblem(name.trim());
  if (!problem) return;
  out.push(
    diag(
      'name-confusable',
      'warning',
      `${problem.message}; such a name can pass for another skill's`,
      skill.file,
      skill.positions[key],
      problem.latin ? `write it in Latin letters: ${key}: ${problem.latin}` : 'write the name in one script',
    ),
  );
}
