import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultDescription, TEMPLATE_LINES } from '../../../../src/formats/template-marks.js';
import rule from '../../../../src/lint/rules/template-left.js';
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
