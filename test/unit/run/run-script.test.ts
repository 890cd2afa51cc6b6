import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadSkill } from '../../../src/skill/load.js';
import { MAX_ARGS_BYTES, parseScriptArgs } from '../../../src/run/args.js';
import { buildEnv } from '../../../src/run/env.js';
import { lastResultLine } from '../../../src/run/execute.js';
import { chooseInterpreter, tsxCli } from '../../../src/run/interpreter.js';
import { StreamMasker, maskList, maskText } from '../../../src/run/mask.js';
import { listScripts, pickScript } from '../../../src/run/scripts.js';
import { parseShebang, splitWords } from '../../../src/formats/shebang.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-run-script-unit-');
afterAll(cleanup);

describe('parseShebang', () => {
  it.each([
    ['#!/bin/bash', { command: '/bin/bash', args: [], env: {} }],
    ['#! /bin/bash -eu\r', { command: '/bin/bash', args: ['-eu'], env: {} }],
    ['#!/usr/bin/env python3', { command: 'python3', args: [], env: {} }],
    ['#!/usr/bin/env python3 -u', { command: 'python3', args: ['-u'], env: {} }],
    [
      '#!/usr/bin/env -S node --no-warnings --max-old-space-size=64',
      { command: 'node', args: ['--no-warnings', '--max-old-space-size=64'], env: {} },
    ],
    [
      '#!/usr/bin/env -S LANG=C FOO="a b" python3 -X utf8',
      { command: 'python3', args: ['-X', 'utf8'], env: { LANG: 'C', FOO: 'a b' } },
    ],
    [
      "#!/usr/bin/env -S deno run '--allow-read=a b' # a comment",
      { command: 'deno', args: ['run', '--allow-read=a b'], env: {} },
    ],
    ['#!/usr/bin/env -Snode', { command: 'node', args: [], env: {} }],
    ['#!/usr/bin/env --split-string="npx tsx"', { command: 'npx', args: ['tsx'], env: {} }],
    ['#!/usr/bin/env -i -u HOME bash', { command: 'bash', args: [], env: {} }],
  ])('%s', (line, expected) => {
    expect(parseShebang(line)).toEqual(expected);
  });

  it.each([['echo hi'], ['#!'], ['#!   '], ['#!/usr/bin/env'], ['# comment']])('no interpreter in %j', (line) => {
    expect(parseShebang(line)).toBeUndefined();
  });

  it('refuses an env option it does not know', () => {
    expect(() => parseShebang('#!/usr/bin/env --chdir=/ python3')).toThrow(
      /env option --chdir=\/, which run-script does not understand/,
    );
  });

  it('splits words as env -S does', () => {
    expect(splitWords(`a  'b c' "d \\"e\\"" f\\ g h#i # rest`)).toEqual(['a', 'b c', 'd "e"', 'f g', 'h#i']);
  });
});

describe('chooseInterpreter', () => {
  const fakeTsx = () => '/opt/tsx/cli.mjs';
  it.each([
    ['a.sh', '', 'bash', [], 'extension'],
    ['a.bash', '', 'bash', [], 'extension'],
    ['a.py', 'import sys', 'python3', [], 'extension'],
    ['a.js', '', process.execPath, [], 'extension'],
    ['a.mjs', '', process.execPath, [], 'extension'],
    ['a.cjs', '', process.execPath, [], 'extension'],
    ['a.ts', '', process.execPath, ['/opt/tsx/cli.mjs'], 'extension'],
    ['a.mts', '', process.execPath, ['/opt/tsx/cli.mjs'], 'extension'],
    ['a.cts', '', process.execPath, ['/opt/tsx/cli.mjs'], 'extension'],
    // The shebang wins over the extension; node and tsx mean ours.
    ['a.py', '#!/bin/bash -e', '/bin/bash', ['-e'], 'shebang'],
    ['run', '#!/usr/bin/env python3', 'python3', [], 'shebang'],
    ['a.js', '#!/usr/local/bin/node --no-warnings', process.execPath, ['--no-warnings'], 'shebang'],
    ['a', '#!/usr/bin/env tsx', process.execPath, ['/opt/tsx/cli.mjs'], 'shebang'],
    ['a.ts', '#!/usr/bin/env -S npx tsx', process.execPath, ['/opt/tsx/cli.mjs'], 'shebang'],
    [
      'a.ts',
      '#!/usr/bin/env -S npx --yes tsx --tsconfig x.json',
      process.execPath,
      ['/opt/tsx/cli.mjs', '--tsconfig', 'x.json'],
      'shebang',
    ],
    ['a.ts', '\uFEFF#!/usr/bin/env node', process.execPath, [], 'shebang'],
  ])('%s %j', (path, first, command, args, via) => {
    const it = chooseInterpreter(path, first, fakeTsx);
    expect({ command: it.command, args: it.args, via: it.via }).toEqual({ command, args, via });
  });

  it('labels the interpreter by its name', () => {
    expect(chooseInterpreter('a.sh', '#!/bin/bash').label).toBe('bash');
    expect(chooseInterpreter('a.ts', '', fakeTsx).label).toBe('tsx');
    expect(chooseInterpreter('a.cjs', '').label).toBe('node');
  });

  it('refuses a script with neither a shebang nor a known extension', () => {
    expect(() => chooseInterpreter('scripts/run', 'echo hi')).toThrow(
      /cannot tell how to run scripts\/run: it has no shebang/,
    );
    expect(() => chooseInterpreter('notes.rb', '')).toThrow(/extension \.rb is not one of/);
  });

  it('finds tsx in our own install', () => {
    const cli = tsxCli();
    expect(cli).toMatch(/node_modules\/tsx\/dist\/cli\.mjs$/);
    expect(existsSync(cli)).toBe(true);
  });
});

describe('masking', () => {
  const secrets = maskList(['s3cr3t-token', 'abcabd', 'x']);

  it('masks values of at least 4 characters, also as JSON escapes them, longest first', () => {
    expect(maskList(['abc', 'abcd'])).toEqual(['abcd']);
    expect(maskList(['pa"ss\\word'])).toEqual(['pa\\"ss\\\\word', 'pa"ss\\word']);
    expect(maskText('x s3cr3t-token x', secrets)).toBe('x *** x');
    expect(maskText(JSON.stringify({ p: 'pa"ss\\word' }), maskList(['pa"ss\\word']))).toBe('{"p":"***"}');
  });

  const text = 'go s3cr3t-token, abcabcabd and s3cr3t-tokens; abcab';
  const expected = maskText(text, secrets);

  it('masks a secret however the text is cut into two or three chunks', () => {
    expect(expected).toBe('go ***, abc*** and ***s; abcab');
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j++) {
        const m = new StreamMasker(secrets);
        const out = m.push(text.slice(0, i)) + m.push(text.slice(i, j)) + m.push(text.slice(j)) + m.end();
        expect(out, `cut at ${i} and ${j}`).toBe(expected);
      }
    }
  });

  it('masks one character at a time, and never lets a piece of a secret out early', () => {
    const m = new StreamMasker(secrets);
    let out = '';
    for (const c of text) {
      out += m.push(c);
      expect(expected.startsWith(out)).toBe(true);
    }
    expect(out + m.end()).toBe(expected);
  });

  it('holds back only what could begin a secret', () => {
    const m = new StreamMasker(secrets);
    expect(m.push('plain line\n')).toBe('plain line\n');
    expect(m.push('key s3cr')).toBe('key ');
    expect(m.push('3t-token\n')).toBe('***\n');
    expect(new StreamMasker([]).push('anything')).toBe('anything');
  });
});

describe('parseScriptArgs', () => {
  it('reads one JSON object; nothing is {}', () => {
    expect(parseScriptArgs(' {"a": [1, 2], "b": {"c": null}} \n', '--args')).toEqual({
      args: { a: [1, 2], b: { c: null } },
      json: '{"a":[1,2],"b":{"c":null}}',
    });
    expect(parseScriptArgs('  \n', 'stdin')).toEqual({ args: {}, json: '{}' });
  });

  it.each([
    ['{"a": 1,}', 'stdin:1:9: the arguments are not valid JSON: expected a property name in double quotes'],
    ['{\n  "a": 1\n  "b": 2\n}', 'stdin:3:3: the arguments are not valid JSON: expected "," between entries'],
    ["{'a': 1}", 'stdin:1:2: the arguments are not valid JSON'],
    ['[1, 2]', 'stdin: item 1 of the list is the number 1; command-line words are text'],
    ['["a", {"b": 1}]', 'stdin: item 2 of the list is an object; command-line words are text'],
    ['"text"', 'found a string'],
    ['null', 'found null'],
  ])('refuses %j with its position', (text, message) => {
    expect(() => parseScriptArgs(text, 'stdin')).toThrow(message);
  });

  it('reads a JSON list of text as command-line words, within 100 words and 4,096 bytes', () => {
    expect(parseScriptArgs('["--format", "json", ""]', '--args')).toEqual({
      argv: ['--format', 'json', ''],
      json: '["--format","json",""]',
    });
    expect(parseScriptArgs('[]', '--args')).toEqual({ argv: [], json: '[]' });
    const words = (n: number, w = 'x') => JSON.stringify(Array.from({ length: n }, () => w));
    expect(parseScriptArgs(words(100), 'x').argv).toHaveLength(100);
    expect(() => parseScriptArgs(words(101), 'x')).toThrow('x: 101 command-line words, more than the 100 allowed');
    // Each word counts with its terminating NUL, as the kernel counts it.
    expect(parseScriptArgs(words(2, 'a'.repeat(2047)), 'x').argv).toHaveLength(2);
    expect(() => parseScriptArgs(words(2, 'a'.repeat(2048)), 'x')).toThrow(
      'the command-line words take 4098 bytes, more than the 4096 allowed',
    );
    expect(() => parseScriptArgs('["a\\u0000b"]', 'x')).toThrow('NUL');
  });

  it('allows 100 entries and 4,096 bytes, not more', () => {
    const keys = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
    expect(Object.keys(parseScriptArgs(keys(100), 'x').args!)).toHaveLength(100);
    expect(() => parseScriptArgs(keys(101), 'x')).toThrow('x: 101 arguments, more than the 100 allowed');
    // Bytes, not characters: é is two.
    const sized = (bytes: number) => `{"a": "${'é'.repeat((bytes - 8) / 2)}"}`;
    expect(Buffer.byteLength(parseScriptArgs(sized(MAX_ARGS_BYTES), 'x').json)).toBe(MAX_ARGS_BYTES);
    expect(() => parseScriptArgs(sized(MAX_ARGS_BYTES + 2), 'x')).toThrow(
      '4098 bytes as JSON, more than the 4096 allowed',
    );
  });
});

describe('buildEnv', () => {
  const caller = {
    PATH: '/bin',
    HOME: '/home/u',
    LANG: 'C.UTF-8',
    SHELL: '/bin/zsh',
    AWS_SECRET: 'aws',
    API_TOKEN: 'from-caller',
  };

  it('passes PATH, HOME, LANG and TMPDIR when set, SKILL_DIR, and the declared secrets only', () => {
    const plan = buildEnv({
      caller,
      skillDir: '/s',
      declared: ['API_TOKEN', 'MISSING'],
      secrets: { API_TOKEN: 'secret-1' },
    });
    expect(plan.env).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      SKILL_DIR: '/s',
      API_TOKEN: 'secret-1',
    });
    expect(plan.missing).toEqual(['MISSING']);
    expect(plan.secretValues).toEqual(['secret-1']);
  });

  it('with inherit, passes everything; a declared variable the caller has is then present (and masked)', () => {
    const plan = buildEnv({ caller, skillDir: '/s', declared: ['API_TOKEN'], secrets: {}, inherit: true });
    expect(plan.env).toMatchObject({ SHELL: '/bin/zsh', AWS_SECRET: 'aws', API_TOKEN: 'from-caller', SKILL_DIR: '/s' });
    expect(plan.missing).toEqual([]);
    expect(plan.secretValues).toEqual(['from-caller']);
  });
});

describe('lastResultLine', () => {
  it('takes the last line that is a JSON object with a boolean success', () => {
    expect(
      lastResultLine('{"success": true, "result": 1}\nlog\n{"success": false, "error": "e"}\n{"other": 1}\ntrailing\n'),
    ).toEqual({ success: false, error: 'e' });
    expect(lastResultLine('{"success": "yes"}\n[1]\n')).toBeUndefined();
    expect(lastResultLine('')).toBeUndefined();
  });
});

describe('listScripts and pickScript', () => {
  const md = (parent: string, extra = '') => {
    const root = join(parent, 'md-skill');
    writeTree(root, {
      'SKILL.md': skillMd(`name: md-skill\ndescription: A skill. Use when testing.${extra}`),
      'scripts/scrape.py': '',
      'scripts/scrape.sh': '',
      'scripts/render.mjs': '',
      'scripts/lib/helper.py': '',
      'tools/declared.sh': '',
      'top.sh': '',
    });
    return root;
  };

  it('finds a script by path, by file name, or by name without extension; ambiguity names both', () => {
    const skill = loadSkill(md(fresh(), '\nscripts:\n  - tools/declared.sh'));
    expect(pickScript(skill, 'render').path).toBe('scripts/render.mjs');
    expect(pickScript(skill, './scripts/render.mjs').path).toBe('scripts/render.mjs');
    expect(pickScript(skill, 'scrape.sh').path).toBe('scripts/scrape.sh');
    expect(pickScript(skill, 'declared').path).toBe('tools/declared.sh');
    expect(pickScript(skill, 'lib/helper').path).toBe('scripts/lib/helper.py');
    expect(() => pickScript(skill, 'scrape')).toThrow('"scrape" is ambiguous in the skill md-skill');
    expect(() => pickScript(skill, 'top.sh')).toThrow('has no script "top.sh"');
  });

  it('in a manifest skill, refuses what is not declared and says a declared file is missing', () => {
    const root = join(fresh(), 'm');
    writeTree(root, {
      'manifest.json': JSON.stringify({
        id: 'm',
        name: 'M',
        version: '1.0.0',
        description: 'd',
        owner: 'built-in',
        scripts: ['scripts/a.sh', 'scripts/gone.sh'],
      }),
      'scripts/a.sh': '',
      'scripts/b.sh': '',
    });
    const skill = loadSkill(root);
    expect(listScripts(skill).map((s) => [s.path, s.declared, s.refused !== undefined])).toEqual([
      ['scripts/a.sh', true, false],
      ['scripts/gone.sh', true, true],
      ['scripts/b.sh', false, true],
    ]);
    expect(pickScript(skill, 'a').abs).toBe(join(root, 'scripts/a.sh'));
    expect(() => pickScript(skill, 'b')).toThrow(/not declared in manifest\.json "scripts"/);
    expect(() => pickScript(skill, 'gone')).toThrow(/declared in manifest\.json but does not exist/);
  });

  it('refuses a path through a linked folder that leads outside', () => {
    const parent = fresh();
    writeTree(parent, {
      'elsewhere/x.sh': 'echo',
      'skill/SKILL.md': skillMd('name: skill\ndescription: d\nscripts:\n  - lib/x.sh'),
      'skill/lib': { symlink: '../elsewhere' },
    });
    const skill = loadSkill(join(parent, 'skill'));
    expect(() => pickScript(skill, 'x')).toThrow(/its folder lib is a symlink that leads outside the skill/);
  });
});
