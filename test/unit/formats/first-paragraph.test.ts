import { describe, expect, it } from 'vitest';
import { firstParagraph } from '../../../src/formats/first-paragraph.js';

describe('firstParagraph', () => {
  it('takes the first block of text lines, on one line', () => {
    expect(firstParagraph('Fill in PDF forms\nand  merge them.\n\nSecond paragraph.')).toBe(
      'Fill in PDF forms and merge them.',
    );
  });

  it('passes over headings, fenced code, thematic breaks and HTML comments before it', () => {
    const md = [
      '<!-- generated -->',
      '# Title',
      '',
      '```bash',
      'echo not this',
      '',
      '```',
      '---',
      '~~~',
      'nor this',
      '~~~',
      '## Overview',
      'This one.',
    ].join('\n');
    expect(firstParagraph(md)).toBe('This one.');
  });

  it('ends the paragraph at a heading or a fence right after it, and reads CRLF and CR', () => {
    expect(firstParagraph('One\r\ntwo\r\n# Next')).toBe('One two');
    expect(firstParagraph('One\rtwo\r```\ncode\n```')).toBe('One two');
  });

  it('keeps a longer fence open past a shorter one, and gives nothing for no paragraph', () => {
    expect(firstParagraph('````\n```\nin code\n````\nAfter.')).toBe('After.');
    expect(firstParagraph('# Only a heading\n\n```\ncode\n```\n')).toBe('');
    expect(firstParagraph('')).toBe('');
  });

  it('does not take #hashtag or a word with dashes for a heading or a break', () => {
    expect(firstParagraph('#hashtag text\n')).toBe('#hashtag text');
    expect(firstParagraph('--- not a break? yes it is text')).toBe('--- not a break? yes it is text');
  });
});
