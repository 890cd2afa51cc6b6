// What `skills init` writes that only stands in for the author's own words: its default description and the
// generic lines of its templates (templates/). Lint's SK130 (template-left) looks for them; a test checks that each
// line is still in the templates, so the two cannot drift apart.

/** "pdf-tools" → "Pdf Tools": the name in words, for titles and the manifest's human-readable name. */
export function titleOf(name: string): string {
  return name
    .split('-')
    .filter(Boolean)
    .map((w) => {
      const [first = '', ...rest] = [...w];
      return first.toUpperCase() + rest.join('');
    })
    .join(' ');
}

/** A description that passes validation and says when to use the skill; the author refines it. */
export function defaultDescription(name: string): string {
  const words = name.split('-').filter(Boolean).join(' ');
  return `${titleOf(name)} gives step-by-step instructions for ${words} tasks. Use when the user asks for help with ${words}.`;
}

/**
 * Lines of the templates that say nothing about any task (each whole, as a line of the file holds it), by the file
 * of a skill they are written to. A skill that still holds one of them has instructions nobody wrote yet.
 */
export const TEMPLATE_LINES: readonly string[] = [
  "1. Restate the user's goal in one sentence and confirm any missing details.",
  '**Agent:** Follows the instructions above step by step and reports the result.',
  'Define the words that the instructions use with a specific meaning.',
  'List the rules the agent must follow, one per line, with an example for each.',
];
