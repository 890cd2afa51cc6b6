import { describe, expect, it } from 'vitest';
import {
  EXTENSIONS,
  interpreterOf,
  languageOfProgram,
  parseShebang,
  scriptLanguage,
  shebangProgram,
  suggestedShebang,
} from '../../../src/formats/shebang.js';
// What the lint rules (script-shebang, shell-set-e, env-undeclared) read a script's interpreter with.
const interpreter = shebangProgram;
import { chooseInterpreter } from '../../../src/run/interpreter.js';
import rule from '../../../src/lint/rules/script-shebang.js';
import { runRule } from '../../helpers/rule-tester.js';
import { skillMd } from '../../helpers/tree.js';

const fakeTsx = () => '/opt/tsx/cli.mjs';
/** What the runner runs a script with, as a language; undefined when it refuses to tell. */
const runnerLanguage = (path: string, text: string) => {
  try {
    return languageOfProgram(chooseInterpreter(path, text.split('\n', 1)[0]!, fakeTsx).label);
  } catch {
    return undefined;
  }
};

describe('the interpreter table', () => {
  it('decides by the shebang first, then by the extension', () => {
    expect(interpreterOf('x.py', '#!/usr/bin/env bash')).toMatchObject({
      via: 'shebang',
      prog: 'bash',
      command: 'bash',
    });
    expect(interpreterOf('x.py', '')).toEqual({ via: 'extension', prog: 'python3' });
    expect(interpreterOf('x.MJS', '')).toEqual({ via: 'extension', prog: 'node' });
    expect(interpreterOf('x.tsx', '')).toEqual({ via: 'extension', prog: 'tsx' });
    expect(interpreterOf('x', '\uFEFF#!/bin/sh -e')).toMatchObject({
      via: 'shebang',
      prog: 'sh',
      command: '/bin/sh',
      args: ['-e'],
    });
  });

  it('reads `npx tsx` and `nodejs` as the programs they run', () => {
    expect(interpreterOf('x', '#!/usr/bin/env -S npx --yes tsx --tsconfig t.json')).toMatchObject({
      prog: 'tsx',
      args: ['--tsconfig', 't.json'],
    });
    expect(interpreterOf('x', '#!/usr/bin/env -S npx cowsay')).toMatchObject({ prog: 'npx', args: ['cowsay'] });
    expect(interpreterOf('x', '#!/usr/bin/nodejs')).toMatchObject({ prog: 'node', command: '/usr/bin/nodejs' });
  });

  it('refuses a script it cannot tell, and an env option it does not know (unless lenient)', () => {
    expect(() => interpreterOf('x.rb', '')).toThrow(
      /cannot tell how to run x\.rb: it has no shebang \(#!\) and its extension \.rb is not one of/,
    );
    expect(() => interpreterOf('x', '#!/usr/bin/env --chdir=/ bash')).toThrow(
      /the shebang uses the env option --chdir=\/, which run-script does not understand/,
    );
    expect(parseShebang('#!/usr/bin/env --chdir=/ bash', { lenient: true })).toEqual({
      command: 'bash',
      args: [],
      env: {},
    });
  });

  it('suggests a shebang by extension, bash when the extension is unknown', () => {
    expect(suggestedShebang('scripts/a.PY')).toBe('#!/usr/bin/env python3');
    expect(suggestedShebang('scripts/a.ts')).toBe('#!/usr/bin/env -S npx tsx');
    expect(suggestedShebang('scripts/run')).toBe('#!/usr/bin/env bash');
  });
});

describe('the linter and the runner agree', () => {
  const cases: [string, string][] = [
    ['scripts/a.py', 'print(1)\n'],
    ['scripts/a.sh', 'echo hi\n'],
    ['scripts/a.bash', 'echo hi\n'],
    ['scripts/a.js', 'console.log(1)\n'],
    ['scripts/a.cjs', 'console.log(1)\n'],
    ['scripts/a.ts', 'console.log(1)\n'],
    ['scripts/a.mts', 'console.log(1)\n'],
    ['scripts/a.txt', '#!/usr/bin/env python3\nprint(1)\n'],
    ['scripts/a.sh', '#!/usr/bin/python3.12\nprint(1)\n'],
    ['scripts/a', '#!/bin/bash -eu\necho hi\n'],
    ['scripts/a', '#!/usr/bin/env -S bash -e\necho hi\n'],
    ['scripts/a', '#!/usr/bin/env FOO=1 node\nconsole.log(1)\n'],
    ['scripts/a', '#!/usr/bin/env -u HOME ruby\nputs 1\n'],
    ['scripts/a.js', '#!/usr/bin/env -S npx tsx\nconsole.log(1)\n'],
    ['scripts/a', '#!/usr/bin/nodejs\nconsole.log(1)\n'],
    ['scripts/a.pl', '#!/usr/bin/perl -w\nprint 1;\n'],
  ];

  it.each(cases)('%s starting %j', (path, text) => {
    const lint = scriptLanguage(path, text);
    expect(lint).toBeDefined();
    expect(runnerLanguage(path, text)).toBe(lint);
    if (text.startsWith('#!'))
      expect(interpreter(text)).toBe(chooseInterpreter(path, text.split('\n', 1)[0]!, fakeTsx).label);
  });

  it('every extension the runner runs without a shebang is one the linter knows, in the same language', () => {
    for (const [ext, entry] of Object.entries(EXTENSIONS)) {
      if (!entry.runner) continue;
      expect(runnerLanguage(`a${ext}`, ''), ext).toBe(scriptLanguage(`a${ext}`, ''));
    }
  });

  it('the shebang the rule suggests runs the script with what the runner runs it with by its extension', async () => {
    const tree: Record<string, string | { content: string; mode: number }> = {
      'SKILL.md': skillMd('name: demo\ndescription: Demo skill. Use when testing.\n'),
    };
    const exts = ['.sh', '.bash', '.py', '.js', '.mjs', '.cjs', '.ts'];
    for (const ext of exts) tree[`scripts/s${ext}`] = { content: 'x\n', mode: 0o755 };
    const r = await runRule(rule, { tree });
    try {
      expect(r.reports).toHaveLength(exts.length);
      for (const report of r.reports) {
        const path = `scripts/${report.file!.split('/').pop()!}`;
        const suggested = /start it with (.*)$/.exec(report.hint ?? '')![1]!;
        expect(shebangProgram(suggested), path).toBe(chooseInterpreter(path, '', fakeTsx).label);
        expect(chooseInterpreter(path, suggested, fakeTsx).label, path).toBe(
          chooseInterpreter(path, '', fakeTsx).label,
        );
      }
    } finally {
      r.cleanup();
    }
  });
});
