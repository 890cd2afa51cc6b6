import { describe, expect, it } from 'vitest';
import { parseSkillMd } from '../../../src/formats/skill-md.js';
import { normalizeText, codePoints, positionFinder } from '../../../src/formats/text.js';

describe('parseSkillMd', () => {
  it('splits frontmatter and body at the first line that is exactly ---', () => {
    const r = parseSkillMd('---\nname: a\ndescription: x --- y\n---\n# Body\n---\nmore\n');
    expect(r.problem).toBeUndefined();
    expect(r.data).toEqual({ name: 'a', description: 'x --- y' });
    expect(r.body).toBe('# Body\n---\nmore\n');
    expect(r.bodyLine).toBe(5);
  });

  it('reads every scalar as text, as the reference validator does', () => {
    const r = parseSkillMd('---\nname: a\nversion: 1.0\nflag: true\nn: 010\n---\n');
    expect(r.data).toEqual({ name: 'a', version: '1.0', flag: 'true', n: '010' });
  });

  it('reports a missing frontmatter at 1:1', () => {
    const r = parseSkillMd('# Title\n');
    expect(r.problem).toMatchObject({ check: 'frontmatter-missing', line: 1, column: 1 });
  });

  it('reports an unclosed frontmatter', () => {
    expect(parseSkillMd('---\nname: a\n').problem?.check).toBe('frontmatter-unclosed');
    expect(parseSkillMd('---').problem?.check).toBe('frontmatter-unclosed');
    expect(parseSkillMd('---\nname: a\n').problem).toMatchObject({ line: 1, hint: /add a line that is ---/ });
  });

  it('points at a line that starts with --- but goes on, as a likely closing line (1 skill in 70 of a ClawHub mirror)', () => {
    const r = parseSkillMd('---\nname: a\ndescription: b\n---# Title\nbody\n');
    expect(r.problem).toMatchObject({
      check: 'frontmatter-unclosed',
      message:
        'frontmatter is not closed: line 4 starts with --- but goes on: "---# Title"; the closing --- must be alone on its line',
      line: 4,
      column: 4,
      hint: /a line that is --- alone, and put what followed the dashes on the next line/,
    });
    expect(parseSkillMd('---\nname: a\n----\n').problem).toMatchObject({ line: 3, message: /line 3 starts with ---/ });
  });

  it('closes the frontmatter at a --- followed by spaces or tabs, as it opens it', () => {
    const r = parseSkillMd('--- \nname: a\n---  \t\n# Body\n');
    expect(r.problem).toBeUndefined();
    expect(r.data).toEqual({ name: 'a' });
    expect(r.body).toBe('# Body\n');
    expect(parseSkillMd('---\nname: a\n--- x\n').problem?.check).toBe('frontmatter-unclosed');
  });

  // Shapes from AgentWorkers/skills (1,018 skills of a ClawHub mirror), where the general advice was all there was.
  it('says what a YAML error that is no slip of one value comes from', () => {
    const hint = (text: string) => parseSkillMd(text).problem?.hint;
    expect(hint('---\nname: a\nversion: 1\nversion: 2\n---\n')).toBe(
      '"version" is given twice (lines 3 and 4); a key may appear once: merge the two or drop one',
    );
    expect(hint('---\nname: a\nmetadata:\n  - x\nmetadata:\n  y: 1\n---\n')).toMatch(
      /^"metadata" is given twice \(lines 3 and 5\)/,
    );
    expect(hint('---\nname: a\ndescription: Use the CLI for these tasks.\n- login\n- unlock\n---\n')).toMatch(
      /^a list item follows "description", which already has a value on its line; make it one text \(description: \|/,
    );
    expect(hint('---\nname: a\ndescription: Query data.\n  Use it where\n  v2 applies: balances, logs\n---\n')).toMatch(
      /^the value of "description" goes on over the lines below it, and line 5 holds ": "/,
    );
    expect(hint('---\n**Name:** a\n**Description:**\ntext\n---\n')).toMatch(/^line 2 is no "key: value" line/);
    expect(
      hint('---\nname: a\ndescription: >\n  text\n\n# Usage\n1. **Python** - runs it\n2. **jq**\n\n## More\n---\n'),
    ).toMatch(/^line 8 is no "key: value" line: the frontmatter holds only YAML keys/);
    expect(hint('---\nname: a\nemoji: \u0001f4e7\n---\n')).toMatch(/^remove the control character/);
    // A new author's slips (adv18): a quote that ends its value early, a key without its space, a tab.
    expect(hint("---\nname: a\ndescription: 'Fills the user's PDF forms.'\n---\n")).toBe(
      `the ' inside the value of "description" on line 3 ends its quoted text early; inside single quotes an apostrophe is written twice (''), or quote it with double quotes: description: "Fills the user's PDF forms."`,
    );
    expect(hint('---\nname: a\ndescription: "Fills "PDF" forms."\n---\n')).toBe(
      `the " inside the value of "description" on line 3 ends its quoted text early; inside double quotes write \\", or quote it with single quotes: description: 'Fills "PDF" forms.'`,
    );
    expect(hint("---\nname: a\ndescription: 'It's the \"best\" tool.'\n---\n")).toMatch(
      /write twice \(''\)$|written twice \(''\)$/,
    );
    expect(hint('---\nname:no-space\ndescription: Fills forms.\n---\n')).toBe(
      'line 2 has no space after "name:", so YAML reads it as text, not a key: write name: no-space',
    );
    expect(hint('---\nname: a\nmetadata:\n\tversion: "1.0"\n---\n')).toBe(
      'line 4 is indented with a tab: YAML indents with spaces only (two per level)',
    );
    expect(hint('---\nname: a\ndescription: b\n---**Base:** x\n\n## Quick\n\n| a | b |\n---\n')).toMatch(
      /^line 4 starts with --- but goes on: if it was meant to end the frontmatter/,
    );
  });

  it('says that UTF-16 text is UTF-16, with or without its byte-order mark', () => {
    const text = '---\nname: a\n---\n';
    const asUtf8 = (b: Buffer) => b.toString('utf8');
    const le = parseSkillMd(asUtf8(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])));
    expect(le.problem).toMatchObject({ check: 'frontmatter-missing', line: 1, column: 1 });
    expect(le.problem?.message).toBe(
      'the file is UTF-16 (little-endian) text; agents read SKILL.md as UTF-8, and find no frontmatter in it',
    );
    expect(parseSkillMd(asUtf8(Buffer.from(text, 'utf16le').swap16())).problem?.message).toContain(
      'UTF-16 (big-endian)',
    );
    expect(parseSkillMd(asUtf8(Buffer.from(text, 'utf16le'))).problem?.message).toContain('UTF-16 (little-endian)');
    expect(parseSkillMd('# Title\n').problem?.message).toContain('must begin with YAML frontmatter');
  });

  it('hints that a block indicator cannot have text after it on its line', () => {
    const r = parseSkillMd('---\nname: a\ndescription: | Use when posts pile up.\n---\n');
    expect(r.problem?.check).toBe('yaml-syntax');
    expect(r.problem?.hint).toBe(
      '"|" starts a block of text on the lines below it, so no text may follow it on its line; drop the |: description: Use when posts pile up.',
    );
    // Text that would break as a plain value is shown quoted.
    expect(parseSkillMd('---\ndescription: >- Use when: posts pile up\n---\n').problem?.hint).toContain(
      'drop the >: description: "Use when: posts pile up"',
    );
  });

  it('reports broken YAML with the file line and a hint for the unquoted colon', () => {
    const r = parseSkillMd('---\nname: a\ndescription: Use when: you scrape\n---\n');
    expect(r.problem?.check).toBe('yaml-syntax');
    expect(r.problem?.line).toBe(3);
    expect(r.problem?.hint).toContain('description: "Use when: you scrape"');
  });

  it('reports a frontmatter that is a list or a scalar, not a mapping', () => {
    expect(parseSkillMd('---\n- a\n---\n').problem?.message).toContain('found a list');
    expect(parseSkillMd('---\njust text\n---\n').problem?.message).toContain('found a single value');
    expect(parseSkillMd('---\n---\n').problem?.message).toContain('found nothing');
  });

  it('cuts the way the reference does with referenceSplit: at the second --- anywhere', () => {
    const r = parseSkillMd('---\nname: a\ndescription: x---\nextra: 1\n---\n', { referenceSplit: true });
    expect(r.data).toEqual({ name: 'a', description: 'x' });
    expect(parseSkillMd('---foo\n', { referenceSplit: true }).problem?.check).toBe('frontmatter-unclosed');
  });

  it('locates keys, nested keys and list items', () => {
    const r = parseSkillMd('---\nname: a\nmetadata:\n  author: me\ntriggers:\n  patterns:\n    - "x"\n    - y\n---\n');
    expect(r.positions['name']).toEqual({ line: 2, column: 1 });
    expect(r.positions['metadata.author']).toEqual({ line: 4, column: 3 });
    expect(r.positions['triggers.patterns[1]']).toEqual({ line: 8, column: 5 });
  });
});

describe('text helpers', () => {
  it('strips a BOM and CRLF', () => {
    expect(normalizeText('\ufeff---\r\na\r\n')).toEqual({ text: '---\na\n', bom: true, crlf: true });
  });
  it('counts code points, not UTF-16 units', () => {
    expect(codePoints('a😀b')).toBe(3);
    expect('a😀b'.length).toBe(4);
  });
  it('maps offsets to lines and columns', () => {
    const at = positionFinder('ab\ncd\n\nef');
    expect(at(0)).toEqual({ line: 1, column: 1 });
    expect(at(4)).toEqual({ line: 2, column: 2 });
    expect(at(7)).toEqual({ line: 4, column: 1 });
  });
});

describe('parseSkillMd and a NUL byte', () => {
  it('places it on its own line and column, in both splits', () => {
    const text = '---\nname: a\ndescription: b\nlicense: MI\0T\n---\nbody\n';
    for (const referenceSplit of [false, true]) {
      const p = parseSkillMd(text, { referenceSplit }).problem!;
      expect(p).toMatchObject({ check: 'yaml-syntax', line: 4, column: 12 });
      expect(p.message).toContain(
        'null byte is not allowed in input (a NUL byte, \\0) at line 4, column 12: "license: MI\\u0000T"',
      );
    }
    expect(parseSkillMd('---\0\nname: a\n---\n', { referenceSplit: true }).problem).toMatchObject({
      line: 1,
      column: 4,
    });
  });
});
