import yaml from 'js-yaml';
import { loadYaml } from './yaml-load.js';
import type { Position } from '../model/diagnostic.js';
import type { CheckName } from '../model/checks.js';
import { yamlPositions } from './yaml-positions.js';
import { slipHint, slipNear, type SlipKind } from './yaml-repair.js';
import { DASHES_AND_MORE, syntaxHint } from './yaml-hints.js';

/** A problem found while parsing text, located in that text (1-based). */
export interface ParseProblem {
  check: CheckName;
  message: string;
  line?: number;
  column?: number;
  hint?: string;
  /** A YAML slip that formats/yaml-repair.ts can repair, and its line (1-based, in the text). */
  slip?: { kind: SlipKind; line: number };
}

export interface ParsedSkillMd {
  /** The frontmatter mapping with every scalar read as text (as the reference validator reads it). */
  data?: Record<string, unknown>;
  body: string;
  /** Line where the body starts. */
  bodyLine: number;
  /** The frontmatter text as given (between the --- lines). */
  frontmatter: string;
  positions: Record<string, Position>;
  problem?: ParseProblem;
}

const CLOSE = /^---[ \t]*$/;

/**
 * The frontmatter and body of SKILL.md text (already BOM-free, LF newlines), unparsed: the frontmatter is between a
 * first line of `---` and the next line that is `---` (spaces or tabs after the dashes allowed).
 */
export function splitSkillMd(
  text: string,
): { frontmatter: string; body: string; bodyLine: number } | 'no-frontmatter' | 'unclosed' {
  const firstEnd = text.indexOf('\n');
  const first = firstEnd === -1 ? text : text.slice(0, firstEnd);
  if (first.trimEnd() !== '---') return 'no-frontmatter';
  let close = -1;
  let pos = firstEnd + 1;
  let lineNo = 2;
  if (firstEnd !== -1) {
    for (;;) {
      const end = text.indexOf('\n', pos);
      const line = end === -1 ? text.slice(pos) : text.slice(pos, end);
      // Editors leave spaces after the dashes; every frontmatter reader but skills-ref's split accepts them.
      if (CLOSE.test(line)) {
        close = pos;
        break;
      }
      if (end === -1) break;
      pos = end + 1;
      lineNo++;
    }
  }
  if (close === -1) return 'unclosed';
  const afterClose = text.indexOf('\n', close);
  return {
    frontmatter: text.slice(firstEnd + 1, close),
    body: afterClose === -1 ? '' : text.slice(afterClose + 1),
    bodyLine: lineNo + 1,
  };
}

/**
 * Split SKILL.md text (already BOM-free, LF newlines) into frontmatter and body and parse the frontmatter.
 * The frontmatter ends at the first line that is `---` (spaces or tabs after it allowed). With `referenceSplit` it is
 * cut the way the
 * reference validator cuts it: at the second `---` anywhere in the text. `positions: false` skips locating the
 * keys (the catalog's light reading, which never reports a place); `lazy` locates them on first read of `positions`.
 */
export function parseSkillMd(
  text: string,
  options: { referenceSplit?: boolean; positions?: boolean | 'lazy' } = {},
): ParsedSkillMd {
  const empty = { body: text, bodyLine: 1, frontmatter: '', positions: {} };
  let frontmatter: string;
  let body: string;
  let bodyLine: number;
  if (options.referenceSplit) {
    if (!text.startsWith('---')) return { ...empty, problem: missingFrontmatter(text) };
    const close = text.indexOf('---', 3);
    if (close === -1) return { ...empty, problem: unclosed() };
    frontmatter = text.slice(3, close);
    body = text.slice(close + 3);
    bodyLine = text.slice(0, close + 3).split('\n').length;
    // The reference drops a first line that holds more than the dashes (e.g. "---foo") into the YAML text.
  } else {
    const split = splitSkillMd(text);
    if (split === 'no-frontmatter') return { ...empty, problem: missingFrontmatter(text) };
    if (split === 'unclosed') return { ...empty, problem: unclosed(text) };
    ({ frontmatter, body, bodyLine } = split);
  }
  // The YAML text starts on line 2, or (reference split) right after the opening dashes on line 1.
  const firstYamlLine = options.referenceSplit ? 1 : 2;
  // js-yaml refuses a NUL byte before it parses and places it as if the text were one line: placed here instead.
  const nul = frontmatter.indexOf('\0');
  if (nul !== -1)
    return { body, bodyLine, frontmatter, positions: {}, problem: nulProblem(frontmatter, nul, firstYamlLine) };
  let data: unknown;
  try {
    data = loadYaml(frontmatter, { schema: yaml.FAILSAFE_SCHEMA, json: false });
  } catch (err) {
    const e = err as yaml.YAMLException;
    const line = e.mark ? e.mark.line + firstYamlLine : undefined;
    const column = e.mark ? e.mark.column + 1 : undefined;
    const reason = e.reason ?? String(e.message);
    const lines = frontmatter.split('\n');
    const slip = e.mark ? slipNear(lines, e.mark.line) : undefined;
    return {
      body,
      bodyLine,
      frontmatter,
      positions: {},
      problem: {
        check: 'yaml-syntax',
        message: `frontmatter YAML does not parse: ${reason}${line !== undefined ? ` at line ${line}${excerpt(lines[e.mark!.line])}` : ''}`,
        line,
        column,
        hint: slip ? slipHint(slip) : syntaxHint(reason, lines, e.mark?.line, firstYamlLine),
        ...(slip ? { slip: { kind: slip.kind, line: slip.line + firstYamlLine } } : {}),
      },
    };
  }
  const positions = () => (options.positions === false ? {} : yamlPositions(frontmatter, firstYamlLine));
  if (data === null || data === undefined || typeof data !== 'object' || Array.isArray(data)) {
    return {
      body,
      bodyLine,
      frontmatter,
      positions: positions(),
      problem: {
        check: 'frontmatter-not-mapping',
        message: `frontmatter must be a YAML mapping of keys to values (name: …, description: …), found ${
          data === null || data === undefined ? 'nothing' : Array.isArray(data) ? 'a list' : 'a single value'
        }`,
        line: firstYamlLine,
        column: 1,
      },
    };
  }
  if (options.positions !== 'lazy') {
    return { data: data as Record<string, unknown>, body, bodyLine, frontmatter, positions: positions() };
  }
  // `lazy`: the keys are located on first use (a valid skill's places are seldom asked for).
  let located: Record<string, Position> | undefined;
  return {
    data: data as Record<string, unknown>,
    body,
    bodyLine,
    frontmatter,
    get positions() {
      return (located ??= positions());
    },
  };
}

/** A NUL byte in the frontmatter, at its own line and column (1-based, in the file). */
function nulProblem(frontmatter: string, at: number, firstYamlLine: number): ParseProblem {
  const before = frontmatter.slice(0, at);
  const lineIndex = before.split('\n').length - 1;
  const lineStart = before.lastIndexOf('\n') + 1;
  // With the reference split the YAML text starts after the opening dashes on line 1.
  const column = at - lineStart + 1 + (lineIndex === 0 && firstYamlLine === 1 ? 3 : 0);
  const line = lineIndex + firstYamlLine;
  const lineEnd = frontmatter.indexOf('\n', at);
  const text = frontmatter.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  return {
    check: 'yaml-syntax',
    message: `frontmatter YAML does not parse: null byte is not allowed in input (a NUL byte, \\0) at line ${line}, column ${column}${excerpt(text)}`,
    line,
    column,
    hint: 'remove the NUL byte; several of them usually mean the file was saved as UTF-16 or binary data was pasted in: save it as UTF-8 text',
  };
}

/** A source line, quoted and cut to a readable length, for a message. */
function excerpt(line: string | undefined): string {
  if (line === undefined || line.trim() === '') return '';
  const t = line.trim();
  return `: ${JSON.stringify(t.length > 80 ? `${t.slice(0, 77)}...` : t)}`;
}

// UTF-16 text read as UTF-8: its BOM (FF FE or FE FF) turns into two U+FFFD, and every ASCII character comes with a
// NUL.
const UTF16 = /^(?:\uFFFD\uFFFD)?(?:(\0)[^\0]|[^\0]\0)(?:\0[^\0]|[^\0]\0)/;

function missingFrontmatter(text: string): ParseProblem {
  const utf16 = UTF16.exec(text);
  if (utf16) {
    return {
      check: 'frontmatter-missing',
      message: `the file is UTF-16 (${utf16[1] === undefined ? 'little' : 'big'}-endian) text; agents read SKILL.md as UTF-8, and find no frontmatter in it`,
      line: 1,
      column: 1,
      hint: 'save it as UTF-8 (Windows PowerShell 5 writes UTF-16 by default: use Set-Content -Encoding utf8, or save as "UTF-8" in the editor)',
    };
  }
  return {
    check: 'frontmatter-missing',
    message: 'SKILL.md must begin with YAML frontmatter: a first line of ---, then name and description, then ---',
    line: 1,
    column: 1,
    hint: 'start the file with:\n---\nname: my-skill\ndescription: What it does. Use when …\n---',
  };
}

/** The frontmatter has no closing line: where a line that was likely meant to close it is, when there is one. */
function unclosed(text?: string): ParseProblem {
  const after = text === undefined ? -1 : text.indexOf('\n');
  const rest = after === -1 ? '' : text!.slice(after + 1);
  const m = DASHES_AND_MORE.exec(rest);
  if (m) {
    const at = after + 1 + m.index;
    const line = text!.slice(0, at).split('\n').length;
    const lineEnd = text!.indexOf('\n', at);
    const whole = text!.slice(at, lineEnd === -1 ? undefined : lineEnd);
    return {
      check: 'frontmatter-unclosed',
      message: `frontmatter is not closed: line ${line} starts with --- but goes on${excerpt(whole)}; the closing --- must be alone on its line`,
      line,
      column: 4,
      hint: 'end the frontmatter with a line that is --- alone, and put what followed the dashes on the next line',
    };
  }
  return {
    check: 'frontmatter-unclosed',
    message: 'frontmatter is not closed: expected a line that is --- (and nothing else) after the YAML',
    line: 1,
    column: 1,
    hint: 'add a line that is --- after the last key (name, description, …) and before the Markdown',
  };
}
