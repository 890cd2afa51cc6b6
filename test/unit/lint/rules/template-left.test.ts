import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultDescription, TEMPLATE_LINES } from '../../../../src/formats/template-marks.js';
import rule, { searchedEnd, templateLine } from '../../../../src/lint/rules/template-left.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const TEMPLATES = fileURLToPath(new URL('../../../../templates/', import.meta.url));
const fm = (description: string) => `name: demo\ndescription: ${description}\n`;
const mine = 'Turns CSV exports of the ledger into monthly reports. Use when the user asks for a monthly report.';

it('template-left', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': skillMd(fm(mine), '# Demo\n\n1. Read the ledger.\n') } },
      // Words of the template inside a longer line are the author's own.
      {
        tree: {
          'SKILL.md': skillMd(
            fm(mine),
            "# Demo\n\nFirst: 1. Restate the user's goal in one sentence and confirm any missing details. Then go on.\n",
          ),
          // Another skill's default description is not this one's.
          'references/notes.md': `${defaultDescription('other-skill')}\n`,
        },
      },
    ],
    invalid: [
      {
        tree: { 'SKILL.md': skillMd(fm(defaultDescription('demo')), '# Demo\n\nSteps.\n') },
        messages: [/^the description is the one skills init wrote \("Demo gives step-by-step instructions for demo/],
        lines: [3],
      },
      {
        tree: {
          'SKILL.md': skillMd(fm(mine), `# Demo\n\n## Instructions\n\n  ${TEMPLATE_LINES[0]}  \n2. More.\n`),
          'references/REFERENCE.md': `# Ref\n\n## Rules\n\n${TEMPLATE_LINES[3]}\n`,
          'references/other.md': '# Fine\n',
        },
        messages: [
          /^the text is still skills init's template \("1\. Restate the user's goal in one sentence and confirm any missing details\."\); expected instructions/,
          /^the text is still skills init's template \("List the rules/,
        ],
        lines: [9, 5],
      },
    ],
  }));

describe('the template lines', () => {
  /** Every file of the templates, as text. */
  const texts = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? texts(join(dir, d.name)) : [readFileSync(join(dir, d.name), 'utf8')],
    );
  it('are each a whole line of some template, so that lint and init cannot drift apart', () => {
    const lines = new Set(texts(TEMPLATES).flatMap((t) => t.split('\n').map((l) => l.trim())));
    for (const l of TEMPLATE_LINES) expect(lines.has(l), l).toBe(true);
  });
});

// The search before this change (the whole line looked for), kept as the reference for templateLine.
function oldTemplateLine(text: string): { line: string; index: number } | undefined {
  if (!TEMPLATE_LINES.some((l) => text.includes(l))) return undefined;
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (TEMPLATE_LINES.includes(line)) return { line, index };
  }
  return undefined;
}

describe('templateLine', () => {
  it('looks for an end of each line that starts at an apostrophe or a capital letter', () => {
    expect(TEMPLATE_LINES.map(searchedEnd)).toEqual([
      "'s goal in one sentence and confirm any missing details.",
      'Agent:** Follows the instructions above step by step and reports the result.',
      'Define the words that the instructions use with a specific meaning.',
      'List the rules the agent must follow, one per line, with an example for each.',
    ]);
    for (const l of TEMPLATE_LINES) expect(l.endsWith(searchedEnd(l))).toBe(true);
    expect(searchedEnd('no capitals here')).toBe('no capitals here');
  });

  it('answers as the whole-line search did, on 6,000 generated texts', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
      return (seed >>> 0) % n;
    };
    const pieces = [
      ...TEMPLATE_LINES,
      ...TEMPLATE_LINES.map((l) => `\n ${l}\t\n`),
      ...TEMPLATE_LINES.map((l) => `\n${l}\r\n`),
      ...TEMPLATE_LINES.map(searchedEnd),
      ...TEMPLATE_LINES.map((l) => `\n${searchedEnd(l)}\n`),
      ...TEMPLATE_LINES.map((l) => l.slice(0, -1)),
      ...TEMPLATE_LINES.map((l) => l.slice(1)),
      ...TEMPLATE_LINES.map((l) => l.toUpperCase()),
      '1. ',
      '**',
      '  ',
      '\t',
      '\n',
      '\r\n',
      '\r',
      'x',
      'prose of the skill ',
      "user's ",
      'İ',
      'ẞ',
      '\u212a',
      '\ufeff',
      '\ufffd',
      '\ud800',
      '\udc00',
      '\0',
      '😀',
      'Agent',
      "'",
    ];
    let found = 0;
    for (let n = 0; n < 6000; n++) {
      let text = '';
      for (let k = rand(12); k >= 0; k--) text += pieces[rand(pieces.length)];
      if (rand(4) === 0) text = 'p'.repeat(rand(3000)) + text;
      const want = oldTemplateLine(text);
      if (want) found++;
      expect(templateLine(text), JSON.stringify(text)).toEqual(want);
    }
    expect(found).toBeGreaterThan(500);
  });
});
