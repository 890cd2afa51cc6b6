import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// Shapes that public skills (Anthropic's, OpenAI's, obra's and community collections) really have, reproduced by
// synthetic skills in test/fixtures/real-shapes and in temp folders, run through the built CLI as a user would.

const SHAPES = join(FIXTURES, 'real-shapes');
const { fresh, cleanup } = tempFolders('skills-real-shapes-e2e-');
afterAll(cleanup);

describe('run-script with command-line programs (built CLI)', () => {
  const lister = join(SHAPES, 'cli-lister');

  it('gives a JSON list to the script as its command-line words, with nothing on stdin', async () => {
    const r = await runCli(['run-script', lister, 'list-items', '--args', '["--format", "json"]']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ name: 'alpha' }, { name: 'beta' }]);
    const text = await runCli(['run-script', lister, 'list-items', '--args', '[]', '--json']);
    expect(JSON.parse(text.stdout)).toMatchObject({ success: true, exitCode: 0, stdout: '1. alpha\n2. beta\n' });
    // From stdin too, as the object form is.
    const piped = await runCli(['run-script', lister, 'list-items'], { input: '["--format", "json"]' });
    expect(JSON.parse(piped.stdout)).toHaveLength(2);
  });

  it('says how to give command-line words when a program refuses the JSON object', async () => {
    const r = await runCli(['run-script', lister, 'list-items']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: unrecognized arguments: {}');
    expect(r.stderr).toContain(
      `hint: scripts/list-items.py looks like a command-line program: it got the JSON {} as its first argument. Give it command-line words as a JSON list: --args '["--help"]'`,
    );
    // With --json nothing is added: the document says it all.
    const doc = await runCli(['run-script', lister, 'list-items', '--json']);
    expect(doc.stderr).toBe('');
    expect(JSON.parse(doc.stdout)).toMatchObject({ success: false, exitCode: 2 });
  });

  it('lint takes a module the script imports for a module, not a script without a shebang', async () => {
    const r = await runCli(['lint', lister, '--format', 'json']);
    expect(r.exitCode).toBe(0);
    const rules = (
      JSON.parse(r.stdout) as { skills: { diagnostics: { rule: string; file: string }[] }[] }
    ).skills[0]!.diagnostics.map((d) => d.rule);
    expect(rules).not.toContain('script-shebang');
    expect(rules).not.toContain('unreferenced-file');
  });
});

describe('SKILL.md shapes that validate reads kindly, or explains (built CLI)', () => {
  it('accepts spaces after the closing --- as it does after the opening one', async () => {
    const root = join(fresh(), 'fences');
    writeTree(root, {
      'SKILL.md': '--- \nname: fences\ndescription: Use when the fences carry trailing spaces.\n---  \t\n\n# Body\n',
    });
    const r = await runCli(['validate', root]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const rp = await runCli(['render-prompt', '--no-registry', '--select', 'fences', root]);
    expect(rp.stdout).toMatch(/<skill_content name="fences">\n+# Body\n/);
  });

  it('says a UTF-16 SKILL.md is UTF-16 (what Windows PowerShell 5 writes), not that it lacks a frontmatter', async () => {
    const le = join(fresh(), 'utf16le');
    const be = join(fresh(), 'utf16be');
    const text = skillMd('name: x\ndescription: Use when testing encodings.');
    mkdirSync(le);
    mkdirSync(be);
    writeFileSync(join(le, 'SKILL.md'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    writeFileSync(join(be, 'SKILL.md'), Buffer.from(text, 'utf16le').swap16());
    const r = await runCli(['validate', le, be]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(
      'SKILL.md:1:1  error    the file is UTF-16 (little-endian) text; agents read SKILL.md as UTF-8, and find no frontmatter in it  SK001 frontmatter-missing',
    );
    expect(r.stdout).toContain('the file is UTF-16 (big-endian) text');
    expect(r.stdout).toContain('hint: save it as UTF-8 (Windows PowerShell 5 writes UTF-16 by default');
    const rp = await runCli(['render-prompt', '--no-registry', le]);
    expect(rp.stderr).toContain(`warning: ${le}: skipped: SKILL.md: the file is UTF-16 (little-endian) text`);
  });

  it('description: | text: validate shows the line without the |, render-prompt reads it, lint --fix drops the |', async () => {
    const v = await runCli(['validate', join(SHAPES, 'inline-block')]);
    expect(v.exitCode).toBe(1);
    expect(v.stdout).toContain('SK003 yaml-syntax');
    expect(v.stdout).toContain(
      'hint: "|" starts a block of text on the lines below it, so no text may follow it on its line; drop the |: description: Use when the user asks for a summary of recent posts.',
    );

    const rp = await runCli([
      'render-prompt',
      '--no-registry',
      '--format',
      'json',
      '--query',
      'summary of recent posts',
      join(SHAPES, 'inline-block'),
    ]);
    expect(rp.exitCode).toBe(0);
    const doc = JSON.parse(rp.stdout) as {
      catalog: { name: string; description: string }[];
      selected: { name: string }[];
      warnings: string[];
    };
    expect(doc.catalog).toEqual([
      expect.objectContaining({
        name: 'inline-block',
        description: 'Use when the user asks for a summary of recent posts.',
      }),
    ]);
    expect(doc.selected.map((s) => s.name)).toEqual(['inline-block']);
    expect(doc.warnings).toContain(
      `${join(SHAPES, 'inline-block')}: SKILL.md: a value starts with | or > followed by text on the same line; read as that text (drop the | or > to silence this)`,
    );

    const root = join(fresh(), 'inline-block');
    writeTree(root, { 'SKILL.md': readFileSync(join(SHAPES, 'inline-block/SKILL.md'), 'utf8') });
    const fix = await runCli(['lint', '--fix', root]);
    expect(fix.stdout).toContain('SKILL.md: drop the | before the text of description');
    expect(readFileSync(join(root, 'SKILL.md'), 'utf8')).toBe(
      '---\nname: inline-block\ndescription: Use when the user asks for a summary of recent posts.\nmetadata:\n  author: someone\n---\n\n# Inline block\n\nSummarise the posts.\n',
    );
    expect((await runCli(['validate', root])).exitCode).toBe(0);
  });

  it('render-prompt cuts a description over 1,024 characters in the catalog, and says so', async () => {
    const dir = fresh();
    const long = `Use when the description runs on. ${'More words that repeat. '.repeat(5000)}`;
    writeTree(join(dir, 'runaway'), { 'SKILL.md': skillMd(`name: runaway\ndescription: ${JSON.stringify(long)}`) });
    writeTree(join(dir, 'small'), {
      'SKILL.md': skillMd('name: small\ndescription: Use when something small is asked.'),
    });
    const r = await runCli(['render-prompt', '--no-registry', '--format', 'json', dir]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      catalog: { name: string; description: string }[];
      warnings: string[];
      tokens: number;
    };
    const runaway = doc.catalog.find((c) => c.name === 'runaway')!;
    // 1,023 code points of text at most (a space before the cut is dropped), then the ellipsis.
    expect([...runaway.description].length).toBeLessThanOrEqual(1024);
    expect(runaway.description.startsWith(long.slice(0, 1000))).toBe(true);
    expect(runaway.description.endsWith('…')).toBe(true);
    expect(doc.warnings).toContain(
      `${join(dir, 'runaway')}: the description is ${long.trim().length} characters long, over the 1024 allowed; cut to 1024 in the catalog`,
    );
    expect(doc.tokens).toBeLessThan(1000);
  });
});

describe('lint on the layouts of real skills (built CLI)', () => {
  it('does not ask to flatten scripts/office/unpack.py (Anthropic docx), and hears "when building" as when to use', async () => {
    const r = await runCli(['lint', join(SHAPES, 'office-docs'), '--format', 'json']);
    expect(r.exitCode).toBe(0);
    const rules = (
      JSON.parse(r.stdout) as { skills: { diagnostics: { rule: string }[] }[] }
    ).skills[0]!.diagnostics.map((d) => d.rule);
    expect(rules).not.toContain('file-reference-depth');
    expect(rules).not.toContain('description-when-to-use');
  });
});
