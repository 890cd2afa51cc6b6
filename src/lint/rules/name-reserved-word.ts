import type { Rule } from '../types.js';
import { RESERVED_NAME_WORDS as RESERVED, reservedWordIn } from '../../skill/names.js';
import { namesToCheck } from './name-vague.js';

function suggest(lower: string, word: string): string {
  const rest = lower
    .split(word)
    .join('-')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join('-');
  return rest === '' || RESERVED.some((w) => rest.includes(w)) ? 'pdf-processing' : rest;
}

// A warning, not an error: the Agent Skills specification allows these words, and Anthropic ships skills named
// with them (claude-api); only Anthropic's own hosts (skills uploaded to the Claude API or claude.ai) demand
// names without them. Other agents, Claude Code included, load such a skill.
export default {
  names: ['SK106', 'name-reserved-word'],
  description:
    'the name holds no word Anthropic reserves ("anthropic", "claude"): skills uploaded to the Claude API or claude.ai must do without them',
  tags: ['name', 'compatibility'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'Anthropic, Agent Skills overview and Skill authoring best practices: name cannot contain reserved words "anthropic" or "claude"',
    'agentskills.io specification: no reserved words (the name rules are length, characters and the folder name)',
  ],
  fixable: false,
  check(skill, ctx) {
    for (const { field, value } of namesToCheck(skill)) {
      const lower = value.toLowerCase();
      const word = reservedWordIn(value);
      if (!word) continue;
      const pos = skill.positions[field];
      ctx.report({
        message: `${field} "${value}" contains "${word}", a word Anthropic reserves: the Claude API and claude.ai refuse to upload a custom skill so named (other agents load it)`,
        file: skill.file,
        line: pos?.line,
        column: pos?.column,
        hint: `to upload it to Anthropic, rename it without the word, e.g. "${suggest(lower, word)}"; otherwise turn the rule off (SK106) in skills.config.json`,
      });
    }
  },
} satisfies Rule;
