import { describe, expect, it } from 'vitest';
import { seeded } from '../../helpers/seeded.js';
import { MarkdownText } from '../../../src/formats/markdown-blocks.js';
import { findReferences, scanReferences } from '../../../src/formats/markdown-refs.js';

// The one-pass reference scan against the scanner it replaced (kept in old-markdown-refs.ts as the reference), on
// thousands of generated texts.

describe('scanReferences against the scanner it replaced (old-markdown-refs.ts)', () => {
  const pieces = [
    'word',
    'See',
    'e.g.',
    'example',
    'Examples:',
    '# Example',
    '## Files',
    '- ',
    '1. ',
    '    ',
    '\t',
    'scripts/run.sh',
    './scripts/a.py',
    'references/api.md',
    'assets\\logo.png',
    'docs/guide.md.',
    '../up.md',
    './',
    '/tmp/out.json',
    '~/x.md',
    '@scope/pkg',
    'C:\\dir\\a.txt',
    'https://example.com/a.md',
    'example.com/docs/a.html',
    '{baseDir}/scripts/x.py',
    '${CLAUDE_SKILL_DIR}/references/r.md',
    '/mnt/skills/user/my-skill/references/m.md',
    '/mnt/skills/my-skill/scripts/s.sh',
    'FORMS.md',
    'notes.MD',
    'data.ſh',
    'x.mdx',
    'a.json5',
    'SKILL.md',
    '[a](b.md)',
    '![i](assets/i.png)',
    '[![b](a.png)](c.md)',
    '[a](<my file.md>)',
    '[a](references/x.md "title")',
    '[a](x.md#frag)',
    '[a](y.md?v=1)',
    '[a](my%20file.md)',
    '[a](bad%zz.md)',
    '[x]: refs/y.md',
    '[^1]: note.md',
    '[r]: <a b.md>',
    '[a][b]',
    ']',
    '](',
    ']:',
    '[',
    '(',
    ')',
    '`',
    '``',
    '```',
    '````',
    '~~~',
    '```sh',
    '~~~~',
    '`scripts/in-code.py`',
    '``a ` b/c.md``',
    ':',
    ':scripts/x.py',
    'a:b/c.md',
    '.',
    '...',
    'a..',
    '\\',
    '\\`',
    'é',
    '中文/文件.md',
    'dé/f.md',
    '😀',
    '😀/x.md',
    '\ud800',
    '\udc00',
    'x\ud800/y.md',
    '%',
    '$',
    '{',
    '}',
  ];
  const seps = [' ', ' ', ' ', '', '\t', ',', '"', "'", '(', '\n', '\n', '\r\n', '\r', '\n\n'];

  function generate(next: (n: number) => number): string {
    const n = next(4) === 0 ? next(200) : next(30);
    let s = '';
    for (let k = 0; k < n; k++) {
      s += pieces[next(pieces.length)]! + seps[next(seps.length)]!;
      // Now and then a very long line.
      if (next(300) === 0) s += 'words and/or paths like a/b.md '.repeat(300);
    }
    return s;
  }

  it('finds the same references, in the same order, on thousands of generated texts', async () => {
    const old = await import('./old-markdown-refs.js');
    const next = seeded(6);
    const kinds = new Set<string>();
    for (let n = 0; n < 4000; n++) {
      const text = generate(next);
      const first = 1 + next(5);
      const mounts = next(2) === 0 ? ['my-skill'] : [];
      // `written` is newer than the old scanner (tested in markdown-refs.test.ts): left out of the comparison.
      const got = scanReferences(new MarkdownText(text), first, { mounts }).map(({ written: _, ...r }) => r);
      const want = old.scanReferences(new MarkdownText(text), first, { mounts });
      if (JSON.stringify(got) !== JSON.stringify(want)) expect(got, JSON.stringify(text)).toEqual(want);
      for (const r of got)
        kinds.add(`${r.kind}${r.name ? ' name' : ''}${r.loose ? ' loose' : ''}${r.rooted ? ' rooted' : ''}`);
      if (n % 10 === 0) {
        const all = findReferences(text, first, { mounts }).map(({ written: _, ...r }) => r);
        expect(all, JSON.stringify(text)).toEqual(old.findReferences(text, first, { mounts }));
      }
    }
    // The texts hold every kind of reference, so the comparison is not one of empty lists.
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(['bare', 'bare loose', 'bare name', 'bare rooted', 'image', 'link', 'link rooted']),
    );
  });
});
