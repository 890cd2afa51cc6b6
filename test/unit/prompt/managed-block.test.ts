import { describe, expect, it } from 'vitest';
import { BEGIN, END, NOTE, blockText, findBlock, withBlock } from '../../../src/prompt/managed-block.js';

const PROMPT = '# Available Skills\n\n- a: does a (skills/a/SKILL.md)\n';
const block = (prompt = PROMPT, eol = '\n') => blockText(prompt, eol);

describe('blockText', () => {
  it('holds the markers, the note and the prompt, separated by blank lines, with no line ending after the end', () => {
    expect(block()).toBe(
      [BEGIN, NOTE, '', '# Available Skills', '', '- a: does a (skills/a/SKILL.md)', '', END].join('\n'),
    );
    expect(block(PROMPT, '\r\n')).toBe(block().split('\n').join('\r\n'));
  });

  it('an empty prompt gives the markers and the note alone', () => {
    expect(block('')).toBe([BEGIN, NOTE, END].join('\n'));
  });

  it('a prompt line that reads as a marker is escaped, so the block cannot be cut short', () => {
    const text = block(`before\n${END}\n  <!--skills:begin-->\nafter\n`);
    expect(text).toContain(`\n&lt;!-- skills:end -->\n`);
    expect(text).toContain(`\n  &lt;!--skills:begin-->\n`);
    expect(findBlock(`x\n${text}\ny\n`, 'F.md')).toEqual({ start: 2, end: 2 + text.length, eol: '\n' });
  });
});

describe('withBlock', () => {
  it('creates the text when there is no file', () => {
    expect(withBlock(undefined, PROMPT, 'F.md')).toEqual({ text: `${block()}\n`, change: 'created' });
  });

  it('appends the block after a blank line, whatever the text ends with', () => {
    expect(withBlock('# Notes\n', PROMPT, 'F.md').text).toBe(`# Notes\n\n${block()}\n`);
    expect(withBlock('# Notes', PROMPT, 'F.md').text).toBe(`# Notes\n\n${block()}\n`);
    expect(withBlock('', PROMPT, 'F.md').text).toBe(`${block()}\n`);
    expect(withBlock('# Notes\n', PROMPT, 'F.md').change).toBe('appended');
  });

  it('replaces the block in place, leaving every byte around it as it was, and is idempotent', () => {
    const before = '\uFEFF# Title  \n\ttabbed line\n\n';
    const after = '\n## After\ntrailing spaces   \nno newline at the end';
    const text = `${before}${block('old prompt\n')}${after}`;
    const once = withBlock(text, PROMPT, 'F.md');
    expect(once).toEqual({ text: `${before}${block()}${after}`, change: 'replaced' });
    expect(withBlock(once.text, PROMPT, 'F.md').text).toBe(once.text);
  });

  it('keeps CRLF: the block takes the line ending of the block it replaces, else the first of the file', () => {
    const crlf = '# Notes\r\nmore\r\n';
    const appended = withBlock(crlf, PROMPT, 'F.md').text;
    expect(appended).toBe(`${crlf}\r\n${block(PROMPT, '\r\n')}\r\n`);
    expect(appended.replace(/\r\n/g, '')).not.toContain('\n');
    expect(withBlock(appended, PROMPT, 'F.md').text).toBe(appended);
    // A file with mixed endings: the block's own begin line decides.
    const mixed = `a\n${block('x\n', '\r\n')}\r\nb\n`;
    expect(withBlock(mixed, PROMPT, 'F.md').text).toBe(`a\n${block(PROMPT, '\r\n')}\r\nb\n`);
  });

  it('keeps a byte-order mark before a block that starts on the first line', () => {
    const text = `\uFEFF${block('old\n')}\nmine\n`;
    const once = withBlock(text, PROMPT, 'F.md').text;
    expect(once).toBe(`\uFEFF${block()}\nmine\n`);
    expect(withBlock(once, PROMPT, 'F.md').text).toBe(once);
  });

  it('takes markers indented four spaces or a tab as text (indented code): the user’s example stays', () => {
    for (const indent of ['    ', '\t', '     ']) {
      const text = `# P\n\nThe block looks like this:\n\n${indent}${BEGIN}\n${indent}(the catalog)\n${indent}${END}\n\nmine\n`;
      expect(findBlock(text, 'F.md')).toBeUndefined();
      const r = withBlock(text, PROMPT, 'F.md');
      expect(r).toEqual({ text: `${text}\n${block()}\n`, change: 'appended' });
    }
    // Three spaces still make a marker (CommonMark's HTML block).
    expect(withBlock(`a\n   ${BEGIN}\nold\n   ${END}\nb\n`, PROMPT, 'F.md').text).toBe(`a\n${block()}\nb\n`);
  });

  it('keeps a lone CR (an old Mac editor’s line ending): appended and replaced with it', () => {
    const cr = '# Notes\rmore\r';
    const appended = withBlock(cr, PROMPT, 'F.md').text;
    expect(appended).toBe(`${cr}\r${block(PROMPT, '\r')}\r`);
    expect(appended).not.toContain('\n');
    expect(withBlock(appended, 'other\n', 'F.md').text).toBe(`${cr}\r${block('other\n', '\r')}\r`);
  });

  it('finds markers written with other spacing, and rewrites them as written here', () => {
    const text = 'a\n  <!--skills:begin-->  \nold\n<!--  skills:end -->\nb\n';
    expect(withBlock(text, PROMPT, 'F.md').text).toBe(`a\n${block()}\nb\n`);
  });
});

describe('findBlock', () => {
  const refuse = (text: string) => {
    try {
      findBlock(text, 'docs/AGENTS.md');
    } catch (err) {
      return (err as Error & { code: string }).code + ' ' + (err as Error).message;
    }
    return 'accepted';
  };

  it('none in a file without markers', () => {
    expect(findBlock('# Notes\n', 'F.md')).toBeUndefined();
  });

  it('refuses a begin without an end, an end without a begin, and a second begin, by file:line', () => {
    expect(refuse(`a\n${BEGIN}\nb\n`)).toBe(
      `E_INVALID docs/AGENTS.md:2: ${BEGIN} has no ${END} after it; the file was not changed`,
    );
    expect(refuse(`a\nb\n${END}\n`)).toMatch(
      /^E_INVALID docs\/AGENTS\.md:3: <!-- skills:end --> without a <!-- skills:begin --> before it/,
    );
    expect(refuse(`${BEGIN}\n${BEGIN}\n${END}\n`)).toMatch(
      /^E_INVALID docs\/AGENTS\.md:2: a second <!-- skills:begin -->/,
    );
    expect(refuse(`${BEGIN}\n${END}\n\n${BEGIN}\n${END}\n`)).toMatch(
      /^E_INVALID docs\/AGENTS\.md:4: a second <!-- skills:begin --> \(the block at line 1 is the one kept\)/,
    );
    expect(refuse(`${BEGIN}\n${END}\n${END}\n`)).toMatch(/AGENTS\.md:3: <!-- skills:end --> without/);
  });

  it('markers in fenced code outside the block are text (a README that shows them)', () => {
    const doc = `# How\n\n\`\`\`md\n${BEGIN}\n\`\`\`\n\n~~~\n${END}\n~~~\n`;
    expect(findBlock(doc, 'F.md')).toBeUndefined();
    const text = `${doc}${block()}\n`;
    expect(findBlock(text, 'F.md')?.start).toBe(doc.length);
  });

  it('a code fence left open inside the block does not hide what follows it', () => {
    const text = `${block('```sh\nunclosed\n')}\n\n${BEGIN}\n`;
    expect(refuse(text)).toMatch(/AGENTS\.md:9: a second <!-- skills:begin -->/);
    const ok = `${block('```sh\nunclosed\n')}\n\n\`\`\`\n${BEGIN}\n\`\`\`\n`;
    expect(refuse(ok)).toBe('accepted');
  });

  it('a marker that is not alone on its line is text', () => {
    expect(findBlock(`see ${BEGIN} here\n`, 'F.md')).toBeUndefined();
  });
});

describe('a code fence that is never closed', () => {
  const unclosed = '# Notes\n\n```sh\nnpm test\n';
  it('refuses to append a block after it, naming the fence, rather than add one the next run cannot see', () => {
    expect(() => withBlock(unclosed, 'P', 'AGENTS.md')).toThrow(
      /^AGENTS\.md:3: a code fence opened here is never closed, so a skills block added after it would read as code; the file was not changed$/,
    );
  });

  it('refuses, naming the fence and the marker, when the block sits after it (one added by an older version)', () => {
    const text = `${unclosed}\n${blockText('P', '\n')}\n`;
    expect(() => withBlock(text, 'Q', 'AGENTS.md')).toThrow(
      /^AGENTS\.md:3: a code fence opened here is never closed, so the skills marker at line 6 reads as code/,
    );
  });

  it('still writes a file whose fences are all closed', () => {
    const closed = '# Notes\n\n```sh\nnpm test\n```\n';
    const once = withBlock(closed, 'P', 'AGENTS.md');
    expect(once.change).toBe('appended');
    expect(withBlock(once.text, 'P', 'AGENTS.md')).toEqual({ text: once.text, change: 'replaced' });
  });
});
