import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { NOT_UTF8, planFixes, writeEdits } from '../../../src/lint/fix.js';
import { tempDir } from '../../helpers/cli.js';

const t = tempDir('skills-fix-');
afterAll(t.cleanup);
let n = 0;
const file = (text: string) => {
  const f = join(t.dir, `f${n++}.md`);
  writeFileSync(f, text);
  return f;
};

describe('planFixes / writeEdits', () => {
  it('replaces lines whose text is as expected, keeping a BOM and each line ending', () => {
    const f = file('\ufeffa\r\nb\nc\r\n');
    const { edits, applied } = planFixes([
      { description: 'b→B', changes: [{ kind: 'replace', file: f, line: 2, expect: 'b', text: 'B1\nB2' }] },
    ]);
    expect(applied).toHaveLength(1);
    writeEdits(edits);
    expect(readFileSync(f, 'utf8')).toBe('\ufeffa\r\nB1\nB2\nc\r\n');
  });

  it('counts a lone CR as a line break, as the skill reader does, and keeps it; appends with the common ending', () => {
    const f = file('a\rb\rc\r\nd');
    const { edits, applied } = planFixes([
      {
        description: 'b,c→x',
        changes: [{ kind: 'replace', file: f, line: 2, endLine: 3, expect: 'b\nc', text: 'x\ny' }],
      },
      { description: 'add', changes: [{ kind: 'append', file: f, text: 'e\n' }] },
    ]);
    expect(applied).toHaveLength(2);
    writeEdits(edits);
    expect(readFileSync(f, 'utf8')).toBe('a\rx\r\ny\r\nd\re\r');
  });

  it('skips a fix whose expected text is gone, and one that overlaps a fix already taken', () => {
    const f = file('a\nb\nc\n');
    const r = planFixes([
      { description: 'one', changes: [{ kind: 'replace', file: f, line: 1, endLine: 2, expect: 'a\nb', text: 'ab' }] },
      { description: 'overlap', changes: [{ kind: 'replace', file: f, line: 2, expect: 'b', text: 'x' }] },
      { description: 'stale', changes: [{ kind: 'replace', file: f, line: 3, expect: 'z', text: 'x' }] },
    ]);
    expect(r.applied.map((x) => x.description)).toEqual(['one']);
    expect(r.skipped.map((x) => x.description)).toEqual(['overlap', 'stale']);
    writeEdits(r.edits);
    expect(readFileSync(f, 'utf8')).toBe('ab\nc\n');
  });

  it('refuses every text change to a file that is not UTF-8, and plans no edit of it; a mode change still goes', () => {
    const f = join(t.dir, 'latin.md');
    writeFileSync(f, Buffer.from('caf\xe9: x\n', 'latin1'));
    const r = planFixes([
      { description: 'replace', changes: [{ kind: 'replace', file: f, line: 1, expect: 'caf\ufffd: x', text: 'y' }] },
      { description: 'append', changes: [{ kind: 'append', file: f, text: 'z\n' }] },
      { description: 'chmod', changes: [{ kind: 'chmod', file: f, mode: 0o755 }] },
    ]);
    expect(r.refused.map((x) => [x.fix.description, x.file, x.reason])).toEqual([
      ['replace', f, NOT_UTF8],
      ['append', f, NOT_UTF8],
    ]);
    expect(r.applied.map((x) => x.description)).toEqual(['chmod']);
    expect(r.edits.map((e) => [e.after === e.before, e.mode])).toEqual([[true, 0o755]]);
  });

  it('appends (creating the file when missing) and sets modes', () => {
    const env = join(t.dir, 'new.env');
    const script = file('#!/bin/sh\n');
    chmodSync(script, 0o644);
    const { edits } = planFixes([
      { description: 'env', changes: [{ kind: 'append', file: env, text: 'A=\n' }] },
      { description: 'x', changes: [{ kind: 'chmod', file: script, mode: 0o755 }] },
    ]);
    expect(existsSync(env)).toBe(false);
    writeEdits(edits);
    expect(readFileSync(env, 'utf8')).toBe('A=\n');
    expect(statSync(script).mode & 0o777).toBe(0o755);
    const more = file('A=1');
    writeEdits(planFixes([{ description: 'env', changes: [{ kind: 'append', file: more, text: 'B=\n' }] }]).edits);
    expect(readFileSync(more, 'utf8')).toBe('A=1\nB=\n');
  });

  it('writes no file changed since it was planned (an editor saved it): that edit is returned with the reason, the others written', () => {
    const a = file('a: b\n');
    const b = file('a: b\n');
    const quote = (f: string) => ({
      description: 'quote',
      changes: [{ kind: 'replace' as const, file: f, line: 1, expect: 'a: b', text: 'a: "b"' }],
    });
    const { edits } = planFixes([quote(a), quote(b)]);
    writeFileSync(b, 'a: c\n');
    const unwritten = writeEdits(edits);
    expect(unwritten).toEqual([
      { edit: expect.objectContaining({ file: b }), reason: 'it changed while lint was running; run lint --fix again' },
    ]);
    expect(readFileSync(a, 'utf8')).toBe('a: "b"\n');
    expect(readFileSync(b, 'utf8')).toBe('a: c\n');
  });

  it('plans nothing when nothing changes', () => {
    const f = file('a\n');
    chmodSync(f, 0o755);
    expect(planFixes([{ description: 'x', changes: [{ kind: 'chmod', file: f, mode: 0o755 }] }]).edits).toEqual([]);
  });
});

describe('writeEdits and symlinks', () => {
  it('writes through a link inside the root and refuses one that leads out, writing nothing', async () => {
    const { mkdirSync, symlinkSync, lstatSync } = await import('node:fs');
    const root = join(t.dir, 'root');
    mkdirSync(join(root, 'docs'), { recursive: true });
    writeFileSync(join(root, 'docs', 'real.md'), 'a\n');
    symlinkSync('docs/real.md', join(root, 'in.md'));
    writeFileSync(join(t.dir, 'outside.md'), 'a\n');
    symlinkSync('../outside.md', join(root, 'out.md'));
    const change = (f: string) => ({ kind: 'replace' as const, file: join(root, f), line: 1, expect: 'a', text: 'b' });
    const both = planFixes(
      [
        { description: 'in', changes: [change('in.md')] },
        { description: 'out', changes: [change('out.md')] },
      ],
      () => root,
    );
    expect(() => writeEdits(both.edits)).toThrow(/out\.md is a symlink that leads out of the skill .*wrote nothing/);
    expect(readFileSync(join(root, 'docs', 'real.md'), 'utf8')).toBe('a\n');
    writeEdits(planFixes([{ description: 'in', changes: [change('in.md')] }], () => root).edits);
    expect(readFileSync(join(root, 'docs', 'real.md'), 'utf8')).toBe('b\n');
    expect(lstatSync(join(root, 'in.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(t.dir, 'outside.md'), 'utf8')).toBe('a\n');
  });
});
