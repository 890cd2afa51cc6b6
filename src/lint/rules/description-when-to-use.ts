import type { Rule } from '../types.js';

// Phrases that tell an agent when to pick the skill. Each alternative starts with a literal word, and no two
// repetitions over the same characters touch, so matching stays linear on long descriptions.
const WHEN =
  /\b(?:use[sd]?|using|invoke[sd]?|call|apply|activate|load|choose|pick)\s+(?:(?:this|it|me)\s+(?:skill\s+)?)?(?:when|whenever|if|for|to|on|in|with)\b|\b(?:useful|helpful|ideal|best|good|designed|intended|meant)\s+(?:for|when|if)\b|\bwhen(?:ever)?\s+(?:the\s+|a\s+|an\s+|you\s+)?(?:users?|you|agents?|asked|someone|working|dealing|handling|needed|needing|task|request|prompt|conversation|question|mail|message)\b|\bwhen\s+to\s+use\b|\btrigger|\bfor\s+example\b|\be\.g\.|\bif\s+the\s+user\b/i;

export default {
  names: ['SK102', 'description-when-to-use'],
  description: 'the description says when to use the skill, so an agent knows when to load it',
  tags: ['description', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['agentskills.io specification: description says what the skill does and when to use it', 'Anthropic, Skill authoring best practices'],
  fixable: false,
  check(skill, ctx) {
    // An empty description is validate's (SK011).
    if (skill.description === '' || WHEN.test(skill.description)) return;
    const pos = skill.positions['description'];
    ctx.report({
      message: 'description does not say when to use the skill; expected a phrase such as "Use when …"',
      file: skill.file,
      line: pos?.line,
      column: pos?.column,
      hint: 'add a sentence naming the requests it serves, e.g. "Use when the user asks to extract text from a PDF."',
    });
  },
} satisfies Rule;
