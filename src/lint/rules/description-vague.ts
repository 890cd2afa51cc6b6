import type { Rule } from '../types.js';
import descriptionTooShort from './description-too-short.js';

// A lead that says nothing about what the skill does. Optional groups each start with a distinct literal word.
const VAGUE_LEAD =
  /^(?:(?:a|an|the|this)\s+)?(?:skill\s+(?:that\s+)?)?(?:helps?\s+(?:with|you)\b|helpers?\s+(?:for|to|with)\b|utility\s+(?:for|to)\b|utilities\b|utils?\b|various\b|misc(?:ellaneous)?\b|stuff\b|does\s+(?:things|stuff)\b|things\b|skill\s+(?:for|that|to)\b)/i;
const MIN_WORDS = 4;
// SK103 reports descriptions shorter than this; one finding is enough.
const SHORT = descriptionTooShort.options.minLength.default;

export default {
  names: ['SK104', 'description-vague'],
  description: 'the description is specific: no vague lead ("Helps with …", "Various tools") and at least four words',
  tags: ['description', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['Anthropic, Skill authoring best practices: avoid vague descriptions such as "Helps with documents"'],
  fixable: false,
  check(skill, ctx) {
    const text = skill.description;
    const chars = [...text];
    if (text === '' || chars.length < SHORT) return;
    const reasons: string[] = [];
    const lead = VAGUE_LEAD.exec(text);
    if (lead) reasons.push(`it starts with "${lead[0]}"`);
    const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
    if (words < MIN_WORDS) reasons.push(`it has ${words} word${words === 1 ? '' : 's'}`);
    if (reasons.length === 0) return;
    const pos = skill.positions['description'];
    const shown = chars.length > 60 ? `${chars.slice(0, 57).join('')}…` : text;
    ctx.report({
      message: `description "${shown}" is vague: ${reasons.join(' and ')}; expected what the skill does and when to use it`,
      file: skill.file,
      line: pos?.line,
      column: pos?.column,
      hint: 'name the task and the inputs, e.g. "Extract text and tables from PDF files and fill PDF forms. Use when the user mentions PDFs."',
    });
  },
} satisfies Rule;
