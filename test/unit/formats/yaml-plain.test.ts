import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { readPlainYaml } from '../../../src/formats/yaml-plain.js';
import { ROOT } from '../../helpers/cli.js';

// readPlainYaml must give exactly what js-yaml's FAILSAFE schema gives, or undefined (js-yaml then reads the text):
// js-yaml itself is the oracle.
const jsYaml = (text: string): unknown => {
  try {
    return yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA, json: false });
  } catch {
    return 'ERROR';
  }
};

/** Read by the fast path, to what js-yaml reads. */
const fast = (text: string) => {
  const got = readPlainYaml(text);
  expect(got, JSON.stringify(text)).toBeDefined();
  expect(got).toEqual(jsYaml(text));
  return got;
};
/** Left to js-yaml, or read to the same result. */
const same = (text: string) => {
  const got = readPlainYaml(text);
  if (got !== undefined) expect(got, JSON.stringify(text)).toEqual(jsYaml(text));
  return got;
};

describe('readPlainYaml', () => {
  it('reads the plain frontmatter skills write, as js-yaml does', () => {
    expect(fast('name: pdf\ndescription: Fill PDF forms. Use when a form is given.\n')).toEqual({
      name: 'pdf',
      description: 'Fill PDF forms. Use when a form is given.',
    });
    fast('name: a\ndescription: "Quoted: with # and : inside"\nlicense: MIT\n');
    fast("name: a\ndescription: 'it''s single-quoted'\n");
    fast('name: a\nversion: 1.0\nflag: true\nn: 010\nempty:\nnull: ~\n');
    fast('name: a\nurl: http://example.com/x#y\nlang: C#\n');
    fast('name: a\nscripts:\n  - scripts/x.sh\n  - "scripts/y.py"\nafter: b\n');
    fast('name: a\nscripts:\n- scripts/x.sh\n- y\nafter: b\n');
    fast('name: a\nmetadata:\n  author: me\n  version: "1.2.3"\n\n# a comment\nlicense: MIT\n');
    fast(
      'name: a\ntriggers:\n  keywords: [pdf, forms]\n  verbs: [fill]\n  patterns: ["\\\\bfill\\\\s+\\\\w+", "^x$"]\n',
    );
    fast('name: a\ntriggers:\n  keywords: []\n  nested:\n    deeper: x\n    list:\n    - a\n');
    fast('description: "tab \\t, newline \\n, slash \\/, quote \\", backslash \\\\"\n');
    fast('name: a   \ndescription: trailing spaces are not part of a plain scalar   \n');
    fast('# leading comment\n\nname: é — ünïcödé\n');
  });

  it('leaves every other shape to js-yaml', () => {
    for (const text of [
      '',
      '# only a comment\n',
      'name: a\nname: b\n', // a duplicate key: js-yaml's error
      'name: a\ndescription: >\n  folded\n  text\n',
      'name: a\ndescription: |\n  literal\n',
      'name: a\ndescription: one\n  two\n', // a plain scalar over two lines
      'name: a\ndescription: "one\n  two"\n',
      'name: a\tb\n',
      'name: a\rb\n',
      'name: \ufeffa\n',
      'name: a\x85b\n',
      'name: &x a\nother: *x\n',
      'name: !tag a\n',
      'name: {a: b}\n',
      'name: [a, [b]]\n',
      'name: [a, b,]\n',
      'name: [a: b]\n',
      'name: a: b\n',
      'name: a #comment\n',
      'name: "a" #comment\n',
      'name: "a\\x41"\n',
      'name: "a\\"\n',
      "name: 'a'b'\n",
      'name: - a\n',
      'name: ? a\n',
      'name:a\n',
      '  name: a\n',
      'name: a\n  other: b\n',
      'list:\n  - a\n  -\n',
      'list:\n  - a\n    b\n',
      'list:\n  - a: b\n',
      'list:\n  - - a\n',
      '- a\n- b\n',
      '__proto__: a\n',
      'key with space: a\n',
      '"quoted key": a\n',
      'a:\n  b:\n    c:\n      d:\n        e:\n          f: deep\n',
    ]) {
      expect(readPlainYaml(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('agrees with js-yaml on every frontmatter of the examples, templates and test fixtures', () => {
    let read = 0;
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory() && e.name !== 'node_modules' && e.name !== '.git') walk(p);
        else if (e.isFile() && /^skill\.md$/i.test(e.name)) {
          const m = /^---\n([\s\S]*?\n)---[ \t]*(?:\n|$)/.exec(readFileSync(p, 'utf8').replace(/\r\n?/g, '\n'));
          if (m && same(m[1]!) !== undefined) read++;
        }
      }
    };
    for (const d of ['examples', 'templates', 'test']) walk(join(ROOT, d));
    expect(read).toBeGreaterThan(20);
  });

  it('agrees with js-yaml on 20,000 generated frontmatters of tricky pieces', () => {
    let seed = 12345;
    const rnd = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return ((seed >>> 0) % 1e6) / 1e6;
    };
    const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)]!;
    const bits = ['a', ' ', '\\\\', '\\"', '\\n', '\\t', '\\/', '\\x41', '\\ ', '\\', '"', "'", "''", ',', '#', ' #'];
    const more = [': ', ':', 'é', '[', ']', '{', '-', '~', '&', '*', '!', '|', '>', '?', '\t', '\u00a0'];
    const str = () => Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => pick([...bits, ...more])).join('');
    const val = () => pick([`"${str()}"`, `'${str()}'`, str(), `[${str()}, ${str()}]`, `["${str()}"]`, '']);
    const indent = () => pick(['', ' ', '  ', '  ', '    ']);
    let read = 0;
    for (let t = 0; t < 20_000; t++) {
      const lines: string[] = [];
      for (let i = Math.floor(rnd() * 4); i >= 0; i--) {
        const k = pick(['name', 'description', 'metadata', 'x', 'name']);
        const form = rnd();
        if (form < 0.55) lines.push(`${k}: ${val()}`);
        else if (form < 0.7) lines.push(`${k}:`, ...Array.from({ length: 1 + (t % 3) }, () => `${indent()}- ${val()}`));
        else if (form < 0.85)
          lines.push(`${k}:`, ...Array.from({ length: 1 + (t % 3) }, () => `${indent()}b: ${val()}`));
        else if (form < 0.95)
          lines.push(`${k}:`, `  ${pick(['a', 'b'])}:`, `    - ${val()}`, `  ${pick(['c', 'a'])}: ${val()}`);
        else lines.push(pick(['# c', '', '  # c', `${indent()}${str()}`]));
      }
      if (same(`${lines.join('\n')}\n`) !== undefined) read++;
    }
    // Enough of them are of the plain shape for the comparison to mean something.
    expect(read).toBeGreaterThan(1000);
  });
});
