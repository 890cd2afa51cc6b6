import { slipAt, slipFix, writtenAs } from '../formats/yaml-repair.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import type { Fix } from './types.js';
import { envExampleFix } from './rules/env-example-sync.js';
import { chmodFix } from './rules/script-executable.js';

/**
 * Fixes for findings of validate's checks that can be fixed without changing what the skill means.
 * `readText` reads a file of the skill (relative path), as lint rules do.
 */
export function fixForCheck(
  skill: Skill,
  d: Diagnostic,
  readText: (rel: string) => string | undefined,
  stat: (rel: string) => { mode: number } | undefined,
): Fix | undefined {
  if (d.rule === 'yaml-syntax') return slipFixOf(skill, d);
  if (d.rule === 'field-type' && d.data?.field === 'allowed-tools') return joinAllowedTools(skill);
  if (d.rule === 'env-example') return envExampleFix(skill);
  if (d.rule === 'script-executable') {
    // Only a script that starts with #! may be made executable.
    const ref =
      d.data?.path === undefined ? undefined : skill.scripts.find((s) => s.declared && s.path === d.data!.path);
    const text = ref ? readText(ref.path) : undefined;
    const st = ref ? stat(ref.path) : undefined;
    return ref && st && text !== undefined && text.startsWith('#!') ? chmodFix(skill, ref.path, st.mode) : undefined;
  }
  return undefined;
}

/** The repair formats/yaml-repair.ts gives for the slip the parser found, as a fix of the skill file. */
function slipFixOf(skill: Skill, d: Diagnostic): Fix | undefined {
  const at = d.data?.slip;
  if (d.file !== skill.file || !at) return undefined;
  const lines = skill.source.split('\n');
  const slip = slipAt(lines, at.line - 1);
  const fix = slip?.kind === at.kind ? slipFix(slip) : undefined;
  if (!slip || !fix) return undefined;
  const expect = lines.slice(slip.line, slip.end + 1).join('\n');
  return {
    description: fix.description,
    changes: [
      { kind: 'replace', file: skill.file, line: slip.line + 1, endLine: slip.end + 1, expect, text: fix.text },
    ],
  };
}

/** `allowed-tools` as a YAML list becomes the space-separated string the specification defines. */
function joinAllowedTools(skill: Skill): Fix | undefined {
  const list = skill.raw['allowed-tools'];
  const keyPos = skill.positions['allowed-tools'];
  if (!Array.isArray(list) || list.length === 0 || !keyPos) return undefined;
  if (!list.every((t) => typeof t === 'string' && t !== '' && !/\s/.test(t))) return undefined;
  const lines = skill.source.split('\n');
  let end = keyPos.line;
  for (let i = 0; i < list.length; i++)
    end = Math.max(end, skill.positions[`allowed-tools[${i}]`]?.line ?? keyPos.line);
  // Every line in the span is the key or one item: nothing else (comments, other keys) would be lost.
  const span = lines.slice(keyPos.line - 1, end);
  if (span.slice(1).some((l) => !/^\s*-\s+\S/.test(l)) || /#/.test(span.join('\n'))) return undefined;
  const joined = (list as string[]).join(' ');
  const written = writtenAs('allowed-tools', joined);
  const indent = span[0]!.slice(0, span[0]!.length - span[0]!.trimStart().length);
  return {
    description: 'write allowed-tools as one space-separated string',
    changes: [
      {
        kind: 'replace',
        file: skill.file,
        line: keyPos.line,
        endLine: end,
        expect: span.join('\n'),
        text: `${indent}allowed-tools: ${written}`,
      },
    ],
  };
}
