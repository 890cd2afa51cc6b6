import { describe, expect, it, vi } from 'vitest';
import { MarkdownText } from '../../../src/formats/markdown-blocks.js';
import {
  findReferences,
  machinePath,
  markExamples,
  scanReferences,
  type Ref,
} from '../../../src/formats/markdown-refs.js';

// Unconditional references only: bare names and loose fenced paths count only when the skill has the file.
const paths = (md: string) =>
  findReferences(md, 1)
    .filter((r) => !r.name && !r.loose)
    .map((r) => r.path);
const one = (md: string): Ref => {
  const refs = findReferences(md, 1);
  expect(refs, JSON.stringify(refs)).toHaveLength(1);
  return refs[0]!;
};

describe('findReferences: links and images', () => {
  it('finds links and images with line, column, raw and kind', () => {
    const line = 'See [the API](references/api.md) and ![logo](assets/logo.png).';
    const refs = findReferences(`# Title\n\n${line}\n`, 10);
    expect(refs).toEqual([
      {
        raw: 'references/api.md',
        path: 'references/api.md',
        line: 12,
        column: line.indexOf('references') + 1,
        kind: 'link',
      },
      { raw: 'assets/logo.png', path: 'assets/logo.png', line: 12, column: line.indexOf('assets') + 1, kind: 'image' },
    ]);
  });

  it('skips URLs with a scheme, protocol-relative URLs and pure anchors', () => {
    expect(
      paths(
        '[a](https://x.com/a.md) [b](http://x.com) [c](mailto:a@b.c) [d](#usage) [e](//cdn.x.com/a.js) [f](ftp://h/f.txt)',
      ),
    ).toEqual([]);
  });

  it('strips #fragment, ?query and <>, and decodes %20', () => {
    expect(one('[a](references/api.md#auth)')).toMatchObject({
      raw: 'references/api.md#auth',
      path: 'references/api.md',
    });
    expect(one('[a](assets/x.svg?v=2)').path).toBe('assets/x.svg');
    expect(one('[a](<references/my file.md>)')).toMatchObject({
      raw: '<references/my file.md>',
      path: 'references/my file.md',
      column: 5,
    });
    expect(one('[a](references/my%20file.md)').path).toBe('references/my file.md');
    expect(one('[a](references/bad%zz.md)').path).toBe('references/bad%zz.md');
  });

  it('reads titles and nested images in links', () => {
    expect(paths('[a](references/a.md "The A file")')).toEqual(['references/a.md']);
    expect(findReferences('[![badge](assets/b.png)](references/b.md)', 1).map((r) => [r.kind, r.path])).toEqual([
      ['image', 'assets/b.png'],
      ['link', 'references/b.md'],
    ]);
  });

  it('keeps absolute and parent link targets, and links without an extension', () => {
    expect(paths('[a](/etc/skill.md) [b](../other/SKILL.md) [c](references/) [d](C:\\docs\\a.md)')).toEqual([
      '/etc/skill.md',
      '../other/SKILL.md',
      'references/',
      'C:\\docs\\a.md',
    ]);
  });

  it('does not read links inside inline code, nor escaped brackets', () => {
    expect(paths('Write `[text](target.md)` for a link, or \\[x](y.md).')).toEqual([]);
    expect(paths('``[a](b.md) ` still code`` then [c](c.md)')).toEqual(['c.md']);
  });

  it('reads reference-style definitions, not footnotes', () => {
    const refs = findReferences(
      'Read [the guide][g].\n\n[g]: references/guide.md "Guide"\n[^1]: a note, see docs/note.md\n[w]: https://example.com\n',
      1,
    );
    expect(refs).toEqual([
      { raw: 'references/guide.md', path: 'references/guide.md', line: 3, column: 6, kind: 'link' },
      // A footnote is text: its paths are bare paths.
      { raw: 'docs/note.md', path: 'docs/note.md', line: 4, column: 19, kind: 'bare' },
    ]);
    expect(one('[g]: <references/a b.md>').path).toBe('references/a b.md');
  });

  it('ignores text that only looks like a link', () => {
    expect(paths('[a] (b.md) and [a](b c d) and ](x.md) and [a](')).toEqual([]);
  });
});

describe('findReferences: bare paths', () => {
  it('finds relative paths in text and inline code', () => {
    const line = 'Run `scripts/extract.py --in a.pdf`, then read references/api.md.';
    const refs = findReferences(`${line}\n`, 5);
    expect(refs).toEqual([
      { raw: 'scripts/extract.py', path: 'scripts/extract.py', line: 5, column: 6, kind: 'bare' },
      {
        raw: 'references/api.md',
        path: 'references/api.md',
        line: 5,
        column: line.indexOf('references') + 1,
        kind: 'bare',
      },
    ]);
  });

  it('accepts ./ and ../ paths, backslashes, and paths in HTML attributes and flags', () => {
    expect(paths('Open ./assets/logo.png, ./template (no extension), ..\\foo\\bar.md and scripts\\run.ps1.')).toEqual([
      './assets/logo.png',
      './template',
      '..\\foo\\bar.md',
      'scripts\\run.ps1',
    ]);
    expect(paths('<img src="assets/logo.png"> and --config=assets/conf.json')).toEqual([
      'assets/logo.png',
      'assets/conf.json',
    ]);
  });

  it('needs a folder and an extension (or a leading ./ or ../)', () => {
    expect(
      paths(
        'Use and/or input/output, text/plain, image/svg+xml, 24/7, 1/2.5, TCP/IP, see chart.py, cd ../ and ./ only',
      ),
    ).toEqual([]);
  });

  it('leaves out URLs, hosts without a scheme, absolute and home paths, packages, globs and variables', () => {
    expect(
      paths(
        'Fetch https://example.com/docs/a.html or www.example.com/b/c.html; write /tmp/out.json, ~/notes/a.md, C:\\Users\\x.md; install @scope/pkg/x.js; match scripts/*.py or **/x.md; use $HOME/x.md, {output_dir}/r.md, git@github.com:o/r.git',
      ),
    ).toEqual([]);
  });

  it('strips a full stop and keeps a line with the same path as a link once', () => {
    expect(paths('See scripts/a.py.')).toEqual(['scripts/a.py']);
    expect(findReferences('[references/a.md](references/a.md)', 1).map((r) => r.kind)).toEqual(['link']);
    expect(paths('Go to ../.')).toEqual([]);
  });

  it('resolves placeholders to the skill root', () => {
    const md = [
      'python {baseDir}/scripts/a.py',
      'cat {base_dir}/references/b.md',
      'open {skill_dir}/assets/c.png',
      'run ${CLAUDE_SKILL_DIR}/scripts/d.sh',
      'run $SKILL_DIR/scripts/e.sh',
      'run ${SKILL_DIR}/scripts/f.sh',
      'see {baseDir}/notes',
    ].join('\n');
    const refs = findReferences(md, 1);
    expect(refs.map((r) => [r.path, r.rooted])).toEqual([
      ['scripts/a.py', true],
      ['references/b.md', true],
      ['assets/c.png', true],
      ['scripts/d.sh', true],
      ['scripts/e.sh', true],
      ['scripts/f.sh', true],
      ['notes', true],
    ]);
    expect(refs[0]).toMatchObject({ raw: '{baseDir}/scripts/a.py', column: 8 });
    // In angle brackets, as letta-ai/skills and expo/skills write it: `<` and `>` end a word, so it is put back.
    const angled = findReferences(
      [
        'python3 <path-to-skill>/scripts/take.py --app x',
        'node <skill-root>/scripts/list.js <project-path>',
        'see <skill_dir>/references/r.md and <path-to-this-skill>/assets/a.png',
        'not <project-path>/src/app.ts nor <b>/scripts/x.py nor </scripts/y.py',
      ].join('\n'),
      1,
    );
    expect(angled.map((r) => [r.raw, r.path, r.rooted ?? false, r.line, r.column])).toEqual([
      ['<path-to-skill>/scripts/take.py', 'scripts/take.py', true, 1, 9],
      ['<skill-root>/scripts/list.js', 'scripts/list.js', true, 2, 6],
      ['<skill_dir>/references/r.md', 'references/r.md', true, 3, 5],
      ['<path-to-this-skill>/assets/a.png', 'assets/a.png', true, 3, 37],
    ]);
    expect(one('[a]({baseDir}/references/a.md)')).toMatchObject({
      path: 'references/a.md',
      rooted: true,
      kind: 'link',
    });
  });
});

describe('findReferences: bare file names', () => {
  const names = (md: string) =>
    findReferences(md, 1)
      .filter((r) => r.name)
      .map((r) => r.path);

  it('keeps file names with a text or script extension in text and inline code, marked as names', () => {
    // Anthropic's pdf skill: "see REFERENCE.md", "read FORMS.md"; obra's: `root-cause-tracing.md`.
    expect(
      names(
        'For more, see REFERENCE.md. To fill a form, read FORMS.md and `root-cause-tracing.md`, then run fix_it.PY.',
      ),
    ).toEqual(['REFERENCE.md', 'FORMS.md', 'root-cause-tracing.md', 'fix_it.PY']);
    expect(one('See guidelines.md')).toMatchObject({
      raw: 'guidelines.md',
      path: 'guidelines.md',
      kind: 'bare',
      name: true,
      column: 5,
    });
  });

  it('leaves out other extensions, dotted words, hidden files, names in fenced code and the text of a link to the same file', () => {
    expect(names('e.g. and i.e., example.com, logo.png, .env.json, a@b.md, http://x.md, Schema.v2')).toEqual([]);
    expect(names('```\ncat forms.md\n```')).toEqual([]);
    expect(
      findReferences('[FORMS.md](forms.md) and [the guide](guide.md): see notes.md', 1).map((r) => [
        r.path,
        r.kind,
        !!r.name,
      ]),
    ).toEqual([
      ['forms.md', 'link', false],
      ['guide.md', 'link', false],
      ['notes.md', 'bare', true],
    ]);
  });
});

describe('findReferences: illustrations', () => {
  const examples = (md: string) =>
    findReferences(md, 1)
      .filter((r) => r.example)
      .map((r) => r.path);

  it('marks bare paths on a line saying example, e.g., for instance, such as, i.e.', () => {
    const md = [
      '- **Example**: `scripts/rotate_pdf.py` for PDF rotation',
      'Put schemas in references/ (e.g. `references/finance.md`).',
      'Fonts, for instance assets/font.ttf, or files such as assets/logo.png; i.e. assets/a.json',
      'Run scripts/real.py; see [the guide](references/guide.md) for examples.',
      'Read examples/intro.md and references/example_schema.md.',
    ].join('\n\n');
    expect(examples(md)).toEqual([
      'scripts/rotate_pdf.py',
      'references/finance.md',
      'assets/font.ttf',
      'assets/logo.png',
      'assets/a.json',
      'scripts/real.py',
    ]);
  });

  it('marks whole list items, their nested items, lists led in by an example paragraph, and Example sections', () => {
    const md = [
      '- **Examples**:', // 1
      '  - `references/mnda.md`', // 2: nested in an example item
      '- Real: scripts/a.py', // 3
      '- A long item naming scripts/b.py', // 4
      '  and continuing, e.g. with more text', // 5: the item says it
      '',
      'Example: when building a pdf-editor skill, the analysis shows:', // 7
      '',
      '1. Rotating needs the same code each time', // 9
      '2. A `scripts/rotate.py` script would help', // 10: led in by line 7
      '',
      'Then run scripts/c.py.', // 12: a new paragraph ends the list
      '',
      '## Examples', // 14
      '',
      'Read references/x.md.', // 16
      '```sh',
      'python scripts/in_code.py', // 18
      '```',
      '### Step', // 20
      'See references/y.md.', // 21: still under Examples
      '## Usage',
      'See references/z.md.', // 23
    ].join('\n');
    expect(findReferences(md, 1).map((r) => [r.path, r.line, !!r.example])).toEqual([
      ['references/mnda.md', 2, true],
      ['scripts/a.py', 3, false],
      ['scripts/b.py', 4, true],
      ['scripts/rotate.py', 10, true],
      ['scripts/c.py', 12, false],
      ['references/x.md', 16, true],
      ['scripts/in_code.py', 18, true],
      ['references/y.md', 21, true],
      ['references/z.md', 23, false],
    ]);
  });

  it('reads list markers after tabs, headings after spaces (not after a tab), and a line of white space as blank', () => {
    const md = [
      'Example files:', // 1: leads in the list
      '',
      '+ scripts/a.py', // 3
      '\t* scripts/b.py', // 4: nested in 3
      '\u00a0', // 5: a no-break space alone: a blank line, which ends the list
      'Then scripts/c.py.', // 6
      '',
      '  ## Examples', // 8: a heading
      'See scripts/d.py.', // 9
      '\t# Usage', // 10: no heading
      'See scripts/e.py.', // 11: still under Examples
    ].join('\n');
    expect(findReferences(md, 1).map((r) => [r.path, r.line, !!r.example])).toEqual([
      ['scripts/a.py', 3, true],
      ['scripts/b.py', 4, true],
      ['scripts/c.py', 6, false],
      ['scripts/d.py', 9, true],
      ['scripts/e.py', 11, true],
    ]);
  });

  it('does not take a paragraph without a closing colon, or one before a heading, as a lead-in', () => {
    expect(examples('For example, these are the files.\n\n- scripts/a.py\n')).toEqual([]);
    expect(examples('Examples:\n\n## Files\n\n- scripts/a.py\n')).toEqual([]);
  });
});

describe('findReferences: mounts', () => {
  it('reads /mnt/skills/<anything>/<mount>/ as the skill root', () => {
    const md = [
      'bash /mnt/skills/user/vercel-deploy/scripts/deploy.sh',
      'cat /mnt/skills/vercel-deploy/references/a.md',
      'cat /mnt/skills/public/other/references/b.md',
      '[c](/mnt/skills/public/vercel-deploy/assets/c.png)',
    ].join('\n');
    expect(findReferences(md, 1, { mounts: ['vercel-deploy'] }).map((r) => [r.path, !!r.rooted, r.column])).toEqual([
      ['scripts/deploy.sh', true, 6],
      ['references/a.md', true, 5],
      ['assets/c.png', true, 5],
    ]);
    // Without mounts they are the machine's absolute paths (and a link is kept as one).
    expect(findReferences(md, 1).map((r) => r.path)).toEqual(['/mnt/skills/public/vercel-deploy/assets/c.png']);
  });
});

describe('findReferences: fenced code', () => {
  it('keeps only paths into scripts/, references/ and assets/ in fenced code', () => {
    const md = [
      'Intro.',
      '```bash',
      'python scripts/extract.py input/file.pdf > out/result.json',
      'cat ./references/api.md',
      '[x](docs/a.md)',
      '```',
      'After: docs/b.md',
    ].join('\n');
    expect(findReferences(md, 1).map((r) => [r.path, r.line, !!r.loose])).toEqual([
      ['scripts/extract.py', 3, false],
      // Other paths in code count only if the skill has the file (`./find-polluter.sh`): loose.
      ['input/file.pdf', 3, true],
      ['out/result.json', 3, true],
      ['./references/api.md', 4, false],
      ['docs/a.md', 5, true],
      ['docs/b.md', 7, false],
    ]);
  });

  it('after a cd in the same block, takes paths as relative to that folder: loose, unless the cd is to the skill', () => {
    const md = [
      '```bash',
      'python scripts/before.py',
      'git clone https://github.com/jquesnelle/yarn && cd yarn',
      'python scripts/train.py',
      '```',
      '```bash',
      'python scripts/next-block.py',
      'cd "${CLAUDE_SKILL_DIR}"',
      'python scripts/own.py',
      'pushd build; bash scripts/build.sh',
      '```',
      'Then run scripts/prose.py',
    ].join('\n');
    expect(findReferences(md, 1).map((r) => [r.path, !!r.loose])).toEqual([
      ['scripts/before.py', false],
      ['scripts/train.py', true],
      ['scripts/next-block.py', false],
      ['scripts/own.py', false],
      ['scripts/build.sh', true],
      ['scripts/prose.py', false],
    ]);
  });

  it('marks the paths a command in fenced code writes: after >, >>, -o, --output', () => {
    const md = [
      '```bash',
      'node scripts/x.mjs plan > scripts/plan.md',
      'node scripts/x.mjs more >>"scripts/log.txt"',
      'curl -o assets/logo.png https://example.com/logo.png',
      'gen --output=references/out.md',
      'cat scripts/plan.md | wc -l',
      'ls -> scripts/arrow.md',
      '```',
      'Read scripts/plan.md > then stop',
    ].join('\n');
    expect(findReferences(md, 1).map((r) => [r.path, !!r.written])).toEqual([
      ['scripts/x.mjs', false],
      ['scripts/plan.md', true],
      ['scripts/x.mjs', false],
      ['scripts/log.txt', true],
      ['assets/logo.png', true],
      ['references/out.md', true],
      ['scripts/plan.md', false],
      ['scripts/arrow.md', false],
      ['scripts/plan.md', false],
    ]);
  });

  it('closes a fence only with the same character, at least as long', () => {
    const md = [
      '````md',
      '```',
      'docs/in.md',
      '~~~',
      '````',
      'docs/out.md',
      '~~~',
      'docs/tilde.md',
      '~~~',
      'docs/after.md',
    ].join('\n');
    expect(paths(md)).toEqual(['docs/out.md', 'docs/after.md']);
  });

  it('reads fences indented in lists, and an unclosed fence runs to the end', () => {
    expect(paths('1. Step:\n   ```sh\n   cp docs/x.md scripts/y.sh\n   ```\n2. docs/z.md')).toEqual([
      'scripts/y.sh',
      'docs/z.md',
    ]);
    expect(paths('```\ndocs/a.md\nscripts/b.py')).toEqual(['scripts/b.py']);
  });

  it('does not take ``` with a backtick in its info string for a fence', () => {
    expect(paths('```a` docs/x.md\ndocs/y.md')).toEqual(['docs/x.md', 'docs/y.md']);
  });
});

describe('scanReferences: one pass over the text', () => {
  // Every kind of line that holds a reference, between lines of prose that hold none (which the scan skips).
  const prose = 'Plain words, a full stop. Then more words.\n'.repeat(3);
  const md = [
    '# Example',
    prose,
    'e.g. docs/a.md',
    'See [the guide](guide).',
    prose,
    '[g]: ref',
    prose,
    'Open FORMS.md, then run scripts\\win.py.',
    prose,
    '```sh',
    'python scripts/run.py',
    '```',
    prose,
  ].join('\n');

  it('finds what findReferences finds, without the example marks until they are asked for', () => {
    const text = new MarkdownText(md);
    const refs = scanReferences(text, 5);
    const all = findReferences(md, 5);
    expect(refs.map((r) => [r.path, r.line, r.column, r.kind])).toEqual(
      all.map((r) => [r.path, r.line, r.column, r.kind]),
    );
    expect(refs.map((r) => r.path)).toEqual([
      'docs/a.md',
      'guide',
      'ref',
      'FORMS.md',
      'scripts\\win.py',
      'scripts/run.py',
    ]);
    expect(refs.some((r) => r.example)).toBe(false);
    markExamples(text, refs, 5);
    expect(refs).toEqual(all);
    expect(refs.filter((r) => r.example).map((r) => r.path)).toEqual(all.filter((r) => r.example).map((r) => r.path));
    expect(all.find((r) => r.path === 'docs/a.md')?.example).toBe(true);
  });

  it('reads a whole word around its slash or extension, letters outside ASCII and astral ones included', () => {
    const refs = scanReferences(new MarkdownText('voir 𝒜été/ü.md, é-FORMS.md: and `données/b.py`'), 1);
    expect(refs.map((r) => [r.raw, r.column])).toEqual([
      ['𝒜été/ü.md', 6],
      ['é-FORMS.md', 18],
      ['données/b.py', 35],
    ]);
    // A lone surrogate is no letter: the word starts after it.
    expect(scanReferences(new MarkdownText('voir \ud835a/x.md'), 1).map((r) => [r.raw, r.column])).toEqual([
      ['a/x.md', 7],
    ]);
  });

  it('judges a word met again by where it stands: in fenced code, after a colon, or in prose', () => {
    const text = [
      'Run tools/b.py and scripts/a.py, then FORMS.md.',
      '```sh',
      'tools/b.py && scripts/a.py FORMS.md',
      '```',
      'host:tools/b.py and x:FORMS.md',
      'Run tools/b.py and scripts/a.py, then FORMS.md.',
    ].join('\n');
    const refs = scanReferences(new MarkdownText(text), 1);
    expect(refs.map((r) => [r.line, r.path, r.loose === true, r.name === true])).toEqual([
      [1, 'tools/b.py', false, false],
      [1, 'scripts/a.py', false, false],
      [1, 'FORMS.md', false, true],
      [3, 'tools/b.py', true, false],
      [3, 'scripts/a.py', false, false],
      [6, 'tools/b.py', false, false],
      [6, 'scripts/a.py', false, false],
      [6, 'FORMS.md', false, true],
    ]);
  });

  it('finds fences only where a line opens or closes one, however far apart', () => {
    const filler = 'words and `code` with ``` inside, and ~~~ too\n'.repeat(50);
    const md = new MarkdownText(`${filler}\`\`\`\n${filler}  ~~~\n${filler}\`\`\`\`\r\n${filler}\`\`\`\`\`\n${filler}`);
    const kinds = [...md.fences];
    const at = (k: number) => kinds.flatMap((v, i) => (v === k ? [i] : []));
    // ~~~ does not close ```; ```` does; the last fence is never closed, so it runs to the end.
    expect(at(2)).toEqual([50, 203]);
    expect(at(3)).toEqual([152]);
    expect(kinds.slice(51, 152).every((v) => v === 1)).toBe(true);
    expect(kinds.slice(0, 50).every((v) => v === 0)).toBe(true);
    expect(kinds.slice(153, 203).every((v) => v === 0)).toBe(true);
    expect(kinds.slice(204).every((v) => v === 1)).toBe(true);
  });

  it('finds its lines without splitting the text: each line as split would give it, and how many', () => {
    // Short and long texts (their line starts are kept differently).
    for (const text of [md, '', '\n', 'one', 'a\r\nb\n\nc\n', '\n\nx', `${md}\n`.repeat(300)]) {
      const t = new MarkdownText(text);
      const split = text.split('\n');
      expect(t.lineCount).toBe(split.length);
      expect(Array.from({ length: split.length + 1 }, (_, i) => t.line(i))).toEqual([...split, undefined]);
      let at = 0;
      expect(Array.from(t.starts)).toEqual(split.map((l) => (at += l.length + 1) - l.length - 1));
      expect(t.lines).toEqual(split);
    }
  });

  it('splits the text once and computes its fences and illustrations once', () => {
    const text = new MarkdownText(md);
    expect(text.lines).toEqual(md.split('\n'));
    expect(text.fences).toBe(text.fences);
    expect(text.examples).toBe(text.examples);
    expect(text.examples[0]).toBe(1);
  });
});

describe('findReferences: hostile input', () => {
  it('stays linear on long pathological lines', () => {
    const inputs = [
      '['.repeat(100_000),
      '[a](<'.repeat(40_000),
      '`'.repeat(50_000) + 'x' + '``'.repeat(20_000),
      'a/'.repeat(100_000) + '.',
      '.'.repeat(100_000) + 'x/y',
      '](x'.repeat(50_000),
      '![a]('.repeat(30_000),
      '{baseDir}'.repeat(20_000) + '/x.md',
      'a.'.repeat(100_000) + '/b.md',
      '[x]: ' + 'a'.repeat(200_000),
      '`a` [b](c.md) '.repeat(20_000),
      'a.md '.repeat(40_000),
      ':' + ' '.repeat(100_000) + 'x',
      'e.g.'.repeat(50_000) + ' scripts/a.py',
      '/mnt/skills/' + 'a/'.repeat(50_000) + 'x.md',
      // Deeply nested list items, then one line that closes them all.
      Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i)}- e.g. scripts/a.py`).join('\n') + '\nend',
      '- x\n'.repeat(20_000) + '```\n' + '  - y\n'.repeat(20_000),
    ];
    for (const s of inputs) {
      // A regex that backtracks on this input would hang here until the test times out.
      expect(Array.isArray(findReferences(s, 1, { mounts: ['a'] }))).toBe(true);
    }
  });

  it('handles CRLF, empty text and many lines', () => {
    expect(findReferences('', 1)).toEqual([]);
    expect(findReferences('see docs/a.md\r\nand docs/b.md\r\n', 1).map((r) => [r.raw, r.line])).toEqual([
      ['docs/a.md', 1],
      ['docs/b.md', 2],
    ]);
    expect(findReferences('scripts/a.py\n'.repeat(10_000), 1)).toHaveLength(10_000);
  });
});

describe('scanReferences over long texts', () => {
  it('finds references on any line, whatever the lines without one between them', () => {
    // 5,000 lines of prose, with references on the first two lines, on lines next to each other, at powers of two
    // (where the search for the next line doubles its steps), in a fence, and on the last line, unterminated.
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} of prose, with no path in it.`);
    const at = [0, 1, 999, 1000, 1023, 1024, 1025, 2048, 4095, 4999];
    for (const i of at) lines[i] = `${lines[i]} Run scripts/s${i}.py and [see](references/r${i}.md).`;
    lines.splice(3000, 0, '```sh', 'python scripts/fenced.py', '```');
    const refs = scanReferences(new MarkdownText(lines.join('\n')), 7);
    const lineOf = (i: number) => 7 + (i >= 3000 ? i + 3 : i);
    expect(refs.map((r) => [r.line, r.path])).toEqual(
      [...at.filter((i) => i < 3000), 3000, ...at.filter((i) => i >= 3000)].flatMap((i) =>
        i === 3000
          ? [[7 + 3001, 'scripts/fenced.py']]
          : [
              [lineOf(i), `scripts/s${i}.py`],
              [lineOf(i), `references/r${i}.md`],
            ],
      ),
    );
  });
});

describe('scanReferences: words judged once for many scans', () => {
  it('finds in each text what a first scan finds, whatever was scanned before and under whichever mounts', async () => {
    let a = 7;
    const next = (n: number) => {
      a = (Math.imul(a, 1103515245) + 12345) >>> 0;
      return (a >>> 8) % n;
    };
    const words = [
      'scripts/run.sh',
      '/mnt/skills/user/alpha/references/a.md',
      '/mnt/skills/beta/assets/b.png',
      '/mnt/skills/public/gamma/x/c.py',
      '{baseDir}/scripts/x.py',
      './local.sh',
      'FORMS.md',
      'notes.txt',
      'a/b',
      'example.com/docs/a.html',
      '@scope/pkg',
      '~/x.md',
      'see:',
      '`references/guide.md`',
      '[g](references/guide.md)',
      'e.g.',
      '```',
      '\n',
      '\n',
      ' ',
      ' ',
    ];
    const texts: string[] = [];
    for (let n = 0; n < 600; n++) {
      const len = next(30);
      let t = '';
      for (let k = 0; k < len; k++) t += words[next(words.length)];
      texts.push(t);
    }
    const mountsOf = (n: number) => [['alpha'], ['beta'], ['gamma', 'alpha'], []][n % 4]!;
    const scan = (scanner: typeof scanReferences, n: number) =>
      scanner(new MarkdownText(texts[n]!), 1, { mounts: mountsOf(n) });
    // Every 50th text in a module of its own, which has scanned nothing before.
    const fresh = new Map<number, Ref[]>();
    for (let n = 0; n < texts.length; n += 50) {
      vi.resetModules();
      const m = await import('../../../src/formats/markdown-refs.js');
      fresh.set(n, scan(m.scanReferences, n));
    }
    // The same texts one after the other, forwards and backwards, under mounts that change from text to text.
    const forwards = texts.map((_, n) => scan(scanReferences, n));
    const backwards = texts.map((_, n) => scan(scanReferences, texts.length - 1 - n)).reverse();
    expect(forwards).toEqual(backwards);
    for (const [n, refs] of fresh) expect(forwards[n], texts[n]).toEqual(refs);
    expect(forwards.some((refs) => refs.some((r) => r.rooted && r.path === 'references/a.md'))).toBe(true);
  });
});

describe('machinePath', () => {
  it('turns down URLs, absolute, home and package paths by their first character, and keeps mounts and the rest', () => {
    const words = ['//github.com/a/b.md', '/tmp/out.json', '\\server\\x.md', '~/notes.md', '@scope/pkg.js'];
    for (const w of words) expect(machinePath(` ${w}`, 1, ['my-skill']), w).toBe(true);
    expect(machinePath('/mnt/skills/user/my-skill/a.md', 0, [])).toBe(true);
    for (const w of ['/mnt/skills/user/my-skill/a.md', 'scripts/a.py', './a.md', '{baseDir}/a.md', 'FORMS.md', '$X/a'])
      expect(machinePath(w, 0, ['my-skill']), w).toBe(false);
  });

  it('turns down only words that the scan finds no reference in', () => {
    const firsts = ['/', '\\', '~', '@', '.', 'a', '{', '$', ':', 'é'];
    const rests = ['', 'a', '/', 'scripts/x.py', 'mnt/skills/user/my-skill/references/r.md', 'x.md', '{baseDir}/a.md'];
    for (const f of firsts)
      for (const r of rests)
        for (const mounts of [[], ['my-skill']]) {
          const word = f + r;
          if (!machinePath(word, 0, mounts)) continue;
          for (const text of [word, `see ${word}.`, `a:${word}`, `\`\`\`\n${word}\n\`\`\``])
            expect(findReferences(text, 1, { mounts }), JSON.stringify([text, mounts])).toEqual([]);
        }
  });
});

describe('findReferences: reference definitions as CommonMark reads them', () => {
  const paths = (md: string) => findReferences(md, 1).map((r) => [r.path, r.kind]);
  it('a definition has nothing but a title after its destination', () => {
    expect(paths('[guide]: references/guide.md\n')).toEqual([['references/guide.md', 'link']]);
    expect(paths('[guide]: references/guide.md "The guide"\n')).toEqual([['references/guide.md', 'link']]);
    expect(paths("[guide]: <references/a guide.md> 'T'\n")).toEqual([['references/a guide.md', 'link']]);
    expect(paths('[guide]: references/guide.md (The\n')).toEqual([['references/guide.md', 'link']]);
  });
  it('a label, a colon and words is a paragraph (kouko/monkey-skills: "[FATAL]: None of the following")', () => {
    expect(paths('[FATAL]: None of the following expressions\n[FIXABLE]: When a disclaimer\n')).toEqual([]);
    expect(paths('[note]: references/guide.md is where it lives\n')).toEqual([['references/guide.md', 'bare']]);
  });
});
