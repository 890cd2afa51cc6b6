import { describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import { parseSkillMd } from '../../../src/formats/skill-md.js';
import { lenientCandidates, slipAt, slipFix, slipHint, slipNear } from '../../../src/formats/yaml-repair.js';

const read = (fm: string) => yaml.load(fm, { schema: yaml.FAILSAFE_SCHEMA }) as Record<string, unknown>;

/** The frontmatter with the fix of the slip the parser reported applied, as lint --fix applies it. */
function fixed(fm: string): string | undefined {
  const problem = parseSkillMd(`---\n${fm}---\n`).problem!;
  const lines = `---\n${fm}---\n`.split('\n');
  const slip = slipAt(lines, problem.slip!.line - 1)!;
  const fix = slipFix(slip);
  if (!fix) return undefined;
  lines.splice(slip.line, slip.end - slip.line + 1, fix.text);
  return lines.slice(1, -2).join('\n') + '\n';
}

describe('yaml-repair: the hint, the lenient reading and the fix agree', () => {
  const cases: {
    fm: string;
    kind: 'colon' | 'block' | 'indicator';
    key: string;
    value: string;
    hint: string;
    fix: string;
  }[] = [
    {
      fm: 'name: a\ndescription: Use when: you scrape\n',
      kind: 'colon',
      key: 'description',
      value: 'Use when: you scrape',
      hint: 'quote it: description: "Use when: you scrape"',
      fix: 'quote the value of description (it holds ": ")',
    },
    {
      fm: 'name: a\ndescription: Use when: pages\n  and prices pile up\nlicense: MIT\n',
      kind: 'colon',
      key: 'description',
      value: 'Use when: pages and prices pile up',
      hint: 'quote it: description: "Use when: pages and prices pile up"',
      fix: 'quote the value of description (it holds ": ")',
    },
    {
      fm: 'name: a\ndescription: | Use when posts pile up.\n',
      kind: 'block',
      key: 'description',
      value: 'Use when posts pile up.',
      hint: 'drop the |: description: Use when posts pile up.',
      fix: 'drop the | before the text of description',
    },
    {
      fm: 'description: >- Use when: posts\n  pile up\nname: a\n',
      kind: 'block',
      key: 'description',
      value: 'Use when: posts pile up',
      hint: 'drop the >: description: "Use when: posts pile up"',
      fix: 'drop the > before the text of description',
    },
    // Text that starts with a character YAML reads as syntax (found in public skills: tomevault-io/skills-registry).
    ...(
      [
        ['**WORKFLOW SKILL** — Create agents. Use when asked.', '*', 'an alias'],
        ['* **Depends on**: None * **Conflicts with**: Use when needed.', '*', 'an alias'],
        ['[Git] Use when the user compares branches', '[', 'a list'],
        ['{{SKILL_DESCRIPTION}} Use this skill for keyboards', '{', 'a mapping'],
        ['- **Name:** Cortex engine. Use when trading.', '-', 'a list item'],
        ['!important read this first', '!', 'a tag'],
        ['@mentions in Slack. Use when posting.', '@', 'nothing (a reserved character)'],
        ['`jq` filters. Use when: querying JSON.', '`', 'nothing (a reserved character)'],
      ] as const
    ).map(([value, first, as]) => ({
      fm: `name: a\ndescription: ${value}\n`,
      kind: 'indicator' as const,
      key: 'description',
      value,
      hint: `starts with "${first}", which YAML reads as ${as}, not text; quote it: description: ${JSON.stringify(value)}`,
      fix: `quote the value of description (it starts with "${first}")`,
    })),
    {
      fm: 'name: a\ndescription: [Docs] Search the docs\n  when asked\nallowed-tools: [Read, Grep]\n',
      kind: 'indicator',
      key: 'description',
      value: '[Docs] Search the docs when asked',
      hint: 'quote it: description: "[Docs] Search the docs when asked"',
      fix: 'quote the value of description (it starts with "[")',
    },
  ];
  it.each(cases)('$fm', ({ fm, kind, key, value, hint, fix }) => {
    const parsed = parseSkillMd(`---\n${fm}---\n`);
    expect(parsed.problem?.check).toBe('yaml-syntax');
    expect(parsed.problem?.slip?.kind).toBe(kind);
    expect(parsed.problem?.hint).toContain(hint);
    // The lenient reading gets the value the hint names.
    const lenient = lenientCandidates(parsed.frontmatter)
      .map((c) => read(c.text))
      .find((d) => d[key] === value);
    expect(lenient?.[key]).toBe(value);
    // The fix writes the line the hint shows, and the file then reads as the lenient reading did.
    const after = fixed(fm)!;
    expect(after).toContain(hint.slice(hint.indexOf(': ') + 2));
    expect(read(after)).toEqual(lenient);
    const lines = `---\n${fm}---\n`.split('\n');
    expect(slipFix(slipAt(lines, parsed.problem!.slip!.line - 1)!)?.description).toBe(fix);
  });

  it('keeps a list a list: only the items YAML cannot read unquoted are quoted (HoangNguyen0403/agent-skills-standard)', () => {
    const fm =
      'name: a\ndescription: Use when building.\nmetadata:\n  triggers:\n    keywords: [angular component, ref.watch, @if, @for]\n';
    const parsed = parseSkillMd(`---\n${fm}---\n`);
    expect(parsed.problem?.check).toBe('yaml-syntax');
    expect(parsed.problem?.hint).toBe(
      'the value of "keywords" is a list whose items "@if", "@for" YAML cannot read unquoted (it reserves @ and `, and reads * & ! as syntax); quote them: keywords: [angular component, ref.watch, "@if", "@for"]',
    );
    const list = ['angular component', 'ref.watch', '@if', '@for'];
    const after = fixed(fm)!;
    expect(after).toContain('    keywords: [angular component, ref.watch, "@if", "@for"]\n');
    expect((read(after).metadata as { triggers: { keywords: unknown } }).triggers.keywords).toEqual(list);
    const lines = `---\n${fm}---\n`.split('\n');
    expect(slipFix(slipAt(lines, parsed.problem!.slip!.line - 1)!)?.description).toBe(
      'quote the items "@if", "@for" of the list keywords',
    );
    // At the top level the lenient reading reads the list too, not the text "[…]".
    const top = 'name: a\ndescription: Use when building.\nallowed-tools: [Read, @Bash]\n';
    const lenient = lenientCandidates(parseSkillMd(`---\n${top}---\n`).frontmatter).map((c) => read(c.text));
    expect(lenient.map((d) => d['allowed-tools'])).toContainEqual(['Read', '@Bash']);
    // Anything else that starts with [ is quoted whole, as before: text after the list, nested brackets, quotes.
    for (const value of ['[Docs] Search the docs', '[a, [b, @c]]', '[a, "b", @c]', '[a, , @c]'])
      expect(parseSkillMd(`---\nname: a\ndescription: ${value}\n---\n`).problem?.hint).toContain(
        `quote it: description: ${JSON.stringify(value)}`,
      );
  });

  it('leaves a value with a comment to the author in the fix and the hint; the lenient reading drops the comment', () => {
    const fm = 'description: Use when: x # not sure\n';
    const p = parseSkillMd(`---\n${fm}---\n`);
    expect(p.problem?.hint).toBe('the value of "description" holds ": " and so reads as a nested key; quote it');
    expect(fixed(fm)).toBeUndefined();
    expect(read(lenientCandidates(fm)[0]!.text)).toEqual({ description: 'Use when: x' });
  });

  it('finds no slip in values that are fine, and looks at the line before the one js-yaml names', () => {
    for (const line of [
      // Syntax that stands on its own is meant, not a slip.
      'allowed-tools: [Read, Grep]',
      'metadata: {author: me}',
      'version: !!str 1.0',
      'url: https://example.com',
      'description: "quoted: fine"',
      'description: |',
      'description: |- # a comment',
      'note: plain text',
    ]) {
      expect(slipAt([line], 0)).toBeUndefined();
    }
    // An alias of an anchor set above is meant too.
    expect(slipAt(['a: &who Ada', 'author: *who'], 1)).toBeUndefined();
    expect(slipAt(['author: *who'], 0)).toMatchObject({ kind: 'indicator', value: '*who' });
    expect(slipNear(['description: Use when: x', '  more'], 1)).toMatchObject({
      kind: 'colon',
      line: 0,
      end: 1,
      value: 'Use when: x more',
    });
    expect(slipHint(slipAt(['  note: | text'], 0)!)).toBe(
      '"|" starts a block of text on the lines below it, so no text may follow it on its line; drop the |: note: text',
    );
  });
});
