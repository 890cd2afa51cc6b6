import yaml from 'js-yaml';
import { BLOCK_INDICATOR_WITH_TEXT } from '../formats/skill-md.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import type { Fix } from './types.js';
import { envExampleFix } from './rules/env-example-sync.js';
import { chmodFix } from './rules/script-executable.js';


const KEY_LINE = /^([ \t]*)([A-Za-z_][\w-]*):[ \t]+(\S.*)$/;

/**
 * Fixes for findings of validate's checks that can be fixed without changing what the skill means.
 * `readText` reads a file of the skill (relative path), as lint rules do.
 */
export function fixForCheck(skill: Skill, d: Diagnostic, readText: (rel: string) => string | undefined, stat: (rel: string) => { mode: number } | undefined): Fix | undefined {
  if (d.rule === 'yaml-syntax') return inlineBlockValue(skill, d) ?? quoteColonValue(skill, d);
  if (d.rule === 'field-type' && /^allowed-tools must be text/.test(d.message)) return joinAllowedTools(skill);
  if (d.rule === 'env-example') return envExampleFix(skill);
  if (d.rule === 'script-executable') {
    // validate names the script as `scripts[i] "path"`; only one that starts with #! may be made executable.
    const m = /^scripts\[\d+\] "([^"]+)"/.exec(d.message);
    const ref = m ? skill.scripts.find((s) => s.declared && (s.path === m[1] || `./${s.path}` === m[1])) : undefined;
    const text = ref ? readText(ref.path) : undefined;
    const st = ref ? stat(ref.path) : undefined;
    return ref && st && text !== undefined && text.startsWith('#!') ? chmodFix(skill, ref.path, st.mode) : undefined;
  }
  return undefined;
}

/** Reads as YAML text exactly `value` when written after `key: `? */
function readsAs(key: string, written: string, value: string): boolean {
  try {
    const data = yaml.load(`${key}: ${written}`, { schema: yaml.FAILSAFE_SCHEMA }) as Record<string, unknown> | null;
    return data !== null && typeof data === 'object' && data[key] === value;
  } catch {
    return false;
  }
}

/**
 * `description: Use when: …` breaks YAML; quoting the value keeps its text. A plain value folded over more
 * lines is joined with single spaces, as YAML itself would read it, and quoted as one line.
 */
function quoteColonValue(skill: Skill, d: Diagnostic): Fix | undefined {
  if (d.file !== skill.file || d.line === undefined) return undefined;
  const lines = skill.source.split('\n');
  for (const line of [d.line, d.line - 1]) {
    const text = lines[line - 1];
    const m = text === undefined ? null : KEY_LINE.exec(text);
    if (!m) continue;
    const [, indent, key, value] = m as unknown as [string, string, string, string];
    // Not a plain scalar, or the colon is followed by a comment marker: the meaning is not clear enough.
    if (/^['"|>[{&*!%@`]/.test(value) || !/:\s/.test(value) || /\s#/.test(value)) continue;
    const folded = foldedValue(lines, line, indent, value);
    if (!folded) return undefined;
    const { end, joined } = folded;
    const quoted = JSON.stringify(joined);
    if (!readsAs(key, quoted, joined)) return undefined;
    return {
      description: `quote the value of ${key} (it holds ": ")`,
      changes: [{ kind: 'replace', file: skill.file, line, endLine: end, expect: lines.slice(line - 1, end).join('\n'), text: `${indent}${key}: ${quoted}` }],
    };
  }
  return undefined;
}

/**
 * A value that starts on (1-based) `line` and goes on over the more indented lines below it, joined with single
 * spaces as YAML folds a plain scalar; `end` is its last line. Undefined when a line below holds a comment, whose
 * meaning a fix cannot be sure of. A blank line or the closing `---` (indented no deeper) ends it.
 */
function foldedValue(lines: string[], line: number, indent: string, value: string): { end: number; joined: string } | undefined {
  let end = line;
  const parts = [value.trim()];
  while (end < lines.length) {
    const next = lines[end]!;
    if (next.trim() === '' || next.length - next.trimStart().length <= indent.length) break;
    if (/\s#/.test(next)) return undefined;
    parts.push(next.trim());
    end++;
  }
  return { end, joined: parts.join(' ') };
}


/**
 * `description: | Use when …` breaks YAML: a block indicator must end its line. Dropping it keeps the text (more
 * indented lines that follow are joined with single spaces); the value is quoted when it needs to be.
 */
function inlineBlockValue(skill: Skill, d: Diagnostic): Fix | undefined {
  if (d.file !== skill.file || d.line === undefined) return undefined;
  const lines = skill.source.split('\n');
  for (const line of [d.line, d.line - 1]) {
    const m = lines[line - 1] === undefined ? null : BLOCK_INDICATOR_WITH_TEXT.exec(lines[line - 1]!);
    if (!m || !/^[A-Za-z_]/.test(m[2]!)) continue;
    const [, indent, key, indicator, value] = m as unknown as [string, string, string, string, string];
    if (/(^|\s)#/.test(value)) return undefined;
    const folded = foldedValue(lines, line, indent, value);
    if (!folded) return undefined;
    const { end, joined } = folded;
    const written = readsAs(key, joined, joined) ? joined : JSON.stringify(joined);
    if (!readsAs(key, written, joined)) return undefined;
    return {
      description: `drop the ${indicator} before the text of ${key}`,
      changes: [{ kind: 'replace', file: skill.file, line, endLine: end, expect: lines.slice(line - 1, end).join('\n'), text: `${indent}${key}: ${written}` }],
    };
  }
  return undefined;
}

/** `allowed-tools` as a YAML list becomes the space-separated string the specification defines. */
function joinAllowedTools(skill: Skill): Fix | undefined {
  const list = skill.raw['allowed-tools'];
  const keyPos = skill.positions['allowed-tools'];
  if (!Array.isArray(list) || list.length === 0 || !keyPos) return undefined;
  if (!list.every((t) => typeof t === 'string' && t !== '' && !/\s/.test(t))) return undefined;
  const lines = skill.source.split('\n');
  let end = keyPos.line;
  for (let i = 0; i < list.length; i++) end = Math.max(end, skill.positions[`allowed-tools[${i}]`]?.line ?? keyPos.line);
  // Every line in the span is the key or one item: nothing else (comments, other keys) would be lost.
  const span = lines.slice(keyPos.line - 1, end);
  if (span.slice(1).some((l) => !/^\s*-\s+\S/.test(l)) || /#/.test(span.join('\n'))) return undefined;
  const joined = (list as string[]).join(' ');
  const written = readsAs('allowed-tools', joined, joined) ? joined : JSON.stringify(joined);
  const indent = span[0]!.slice(0, span[0]!.length - span[0]!.trimStart().length);
  return {
    description: 'write allowed-tools as one space-separated string',
    changes: [{ kind: 'replace', file: skill.file, line: keyPos.line, endLine: end, expect: span.join('\n'), text: `${indent}allowed-tools: ${written}` }],
  };
}
