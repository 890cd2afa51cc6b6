// Messages an adversarial check found wrong or garbled: each says what it found, and its hint fits the case.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { git, gitConfigGlobal } from '../helpers/git-repos.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-messages-');
afterAll(cleanup);

const good = (name: string) =>
  skillMd(`name: ${name}\ndescription: Does ${name} things for the user. Use when the user asks about ${name}.\n`);

describe('SK017: a value YAML would type, read as text', () => {
  it("calls null and ~ YAML's null, not a number, and reports a YAML 1.1 timestamp as a date, as yes and 1e3 are", async () => {
    const dir = fresh();
    writeTree(dir, {
      'a/SKILL.md': skillMd('name: a\ndescription: null\nlicense: ~\n'),
      'b/SKILL.md': skillMd('name: b\ndescription: Does b. Use when b.\nlicense: 2024-01-01\ncompatibility: yes\n'),
      'c/SKILL.md': skillMd('name: c\ndescription: Does c. Use when c.\nlicense: 2024-01-01 10:00:00\nversion: 1e3\n'),
    });
    const r = await runCli(['validate', 'a', 'b', 'c'], { cwd: dir });
    const sk017 = r.stdout.split('\n').filter((l) => l.includes('SK017'));
    expect(sk017).toEqual([
      `  a/SKILL.md:3:1  warning  description: null is read as the text "null", not as YAML's null (no value)  SK017 scalar-as-text`,
      `  a/SKILL.md:4:1  warning  license: ~ is read as the text "~", not as YAML's null (no value)  SK017 scalar-as-text`,
      '  b/SKILL.md:4:1  warning  license: 2024-01-01 is read as the text "2024-01-01", not as a date (a YAML 1.1 timestamp)  SK017 scalar-as-text',
      '  b/SKILL.md:5:1  warning  compatibility: yes is read as the text "yes", not as a boolean  SK017 scalar-as-text',
      '  c/SKILL.md:4:1  warning  license: 2024-01-01 10:00:00 is read as the text "2024-01-01 10:00:00", not as a date (a YAML 1.1 timestamp)  SK017 scalar-as-text',
      '  c/SKILL.md:5:1  warning  version: 1e3 is read as the text "1e3", not as a number  SK017 scalar-as-text',
    ]);
  });
});

describe('SK017: the spellings YAML types', () => {
  it('reports True, NULL and base 60 as typed, and tRUE as text', async () => {
    const dir = fresh();
    writeTree(dir, {
      'd/SKILL.md': skillMd(
        'name: d\ndescription: Does d. Use when d.\nlicense: NULL\ncompatibility: True\nversion: 1:30\n',
      ),
      'e/SKILL.md': skillMd('name: e\ndescription: Does e. Use when e.\nlicense: tRUE\n'),
    });
    const r = await runCli(['validate', 'd', 'e'], { cwd: dir });
    const sk017 = r.stdout.split('\n').filter((l) => l.includes('SK017'));
    expect(sk017).toEqual([
      `  d/SKILL.md:4:1  warning  license: NULL is read as the text "NULL", not as YAML's null (no value)  SK017 scalar-as-text`,
      '  d/SKILL.md:5:1  warning  compatibility: True is read as the text "True", not as a boolean  SK017 scalar-as-text',
      '  d/SKILL.md:6:1  warning  version: 1:30 is read as the text "1:30", not as a number  SK017 scalar-as-text',
    ]);
  });
});

describe('SK003 in a file that is not UTF-8', () => {
  it('says the file is not UTF-8 (SK037) and shows no value holding U+FFFD to copy', async () => {
    const dir = fresh();
    mkdirSync(join(dir, 'latin'));
    // "Café: …" in Latin-1: the byte E9, and an unquoted ": " that breaks the YAML.
    writeFileSync(
      join(dir, 'latin', 'SKILL.md'),
      Buffer.concat([
        Buffer.from('---\nname: latin\ndescription: Caf'),
        Buffer.from([0xe9]),
        Buffer.from(': a value with a colon. Use when testing.\n---\n\n# Latin\n'),
      ]),
    );
    const r = await runCli(['validate', 'latin'], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('latin/SKILL.md:3:17  warning  the replacement character U+FFFD');
    expect(r.stdout).toContain('SK037 text-encoding');
    const hint = r.stdout.split('\n').find((l) => l.includes('reads as a nested key'));
    expect(hint).toContain('save the file as UTF-8');
    expect(hint).not.toContain('\uFFFD');
  });
});

describe('SK035: an invisible character', () => {
  it('writes out, in the hint, the character found (U+200B), not U+202E', async () => {
    const dir = fresh();
    writeTree(dir, {
      'z/SKILL.md': skillMd(
        'name: z\ndescription: Does z things for the user. Use when the user asks about z.\n',
        '# Z\n\nRun\u200b this.\n',
      ),
    });
    const r = await runCli(['validate', 'z'], { cwd: dir });
    expect(r.stdout).toContain('U+200B');
    expect(r.stdout).toContain(
      'hint: remove it, or write it out as text (\\u200b) if the skill is about such characters',
    );
    expect(r.stdout).not.toContain('\\u202e');
  });
});

describe('render-prompt --soul naming a folder', () => {
  it('says to give a file, without "the folder the folder"', async () => {
    const dir = fresh();
    writeTree(dir, { 's/SKILL.md': good('s') });
    mkdirSync(join(dir, 'soul'));
    const r = await runCli(['render-prompt', '--soul', 'soul', '--no-registry', 's'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--soul: cannot read ${join(dir, 'soul')}: it is a folder, where a file was expected`);
    expect(r.stderr).toContain('hint: give the path of a file, not a folder');
    expect(r.stderr).not.toContain('the folder the folder');
  });
});

describe('configuration mistakes', () => {
  it('suggest the key or skill meant when two letters are swapped (did you mean)', async () => {
    const dir = fresh();
    writeTree(dir, { 'skills.config.json': '{"skilDirs": []}', '.agents/skills/pdf/SKILL.md': good('pdf') });
    const config = await runCli(['list'], { cwd: dir });
    expect(config.exitCode).toBe(2);
    expect(config.stderr).toContain('hint: did you mean "skillDirs"? If not, remove the key');
    writeTree(dir, { 'skills.config.json': '{}' });
    const run = await runCli(['run-script', 'pfd', 'x'], { cwd: dir });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('no skill "pfd"');
    expect(run.stderr).toContain('did you mean "pdf"?');
  });
  it('install --skill with two letters swapped suggests the skill the source holds', async () => {
    const dir = fresh();
    writeTree(dir, {
      'src/skills/brainstorming/SKILL.md': good('brainstorming'),
      'src/skills/writing-plans/SKILL.md': good('writing-plans'),
    });
    mkdirSync(join(dir, 'p'));
    const r = await runCli(['install', '../src', '--skill', 'brainstroming', '--json'], {
      cwd: join(dir, 'p'),
      env: { SKILLS_REGISTRY: join(dir, 'reg') },
    });
    expect(r.exitCode).toBe(2);
    const error = (JSON.parse(r.stdout) as { error: { message: string; hint: string } }).error;
    expect(error.message).toContain('--skill brainstroming: no such skill in ../src');
    expect(error.hint).toMatch(/^did you mean --skill brainstorming\? Else run skills install <source> --list/);
  });
  it('give each key its own hint: the rules hint only for rules', async () => {
    const cases: [string, string][] = [
      ['{"maxSkills": -1}', 'maxSkills is a whole number of 0 or more'],
      ['{"skillDirs": 3}', 'skillDirs is a list of folders of skills'],
      ['{"ignores": [""]}', 'ignores is a list of globs'],
      ['{"disabled_skills": [1]}', 'disabledSkills is a list of skill names'],
      ['[]', 'the file holds one JSON object'],
      ['null', 'the file holds one JSON object'],
      ['{"colour": "blue"}', 'remove the key, or spell it as one of those'],
      ['{"rules": {"SK102": "loud"}}', 'rules maps a rule id or alias to'],
    ];
    for (const [text, hint] of cases) {
      const dir = fresh();
      writeTree(dir, { 'skills.config.json': text, 's/SKILL.md': good('s') });
      const r = await runCli(['lint', 's', '--no-cache'], { cwd: dir });
      expect(r.exitCode, text).toBe(2);
      expect(r.stderr, text).toContain(`${join(dir, 'skills.config.json')}:1:`);
      const hintLine = r.stderr.split('\n').find((l) => l.startsWith('hint: '));
      expect(hintLine, text).toContain(hint);
      if (!text.includes('rules')) expect(hintLine, text).not.toContain('rules maps');
    }
  });
});

describe('a git repository with no commits', () => {
  it('is said to be empty, with no branch to name', async () => {
    const dir = fresh();
    const repo = join(dir, 'empty.git');
    mkdirSync(repo);
    git(repo, ['init', '-q', '--bare']);
    const home = fresh('home');
    const env = { ...gitConfigGlobal(home, {}), XDG_CACHE_HOME: join(home, '.cache'), SKILLS_REGISTRY: '' };
    const project = fresh('project');
    mkdirSync(join(project, '.git'));
    const r = await runCli(['install', `file://${repo}`], { cwd: project, env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: file://${repo} is an empty repository: it has no commits, no branch and no tag`);
    expect(r.stderr).toContain('hint: push a commit to it first');
    expect(r.stderr).not.toContain('#main');
  });
});

describe('numbers in messages', () => {
  it('says "1 character", and a --budget too large is too large, with the largest allowed', async () => {
    const dir = fresh();
    writeTree(dir, { 'o/SKILL.md': skillMd('name: o\ndescription: x\n') });
    const lint = await runCli(['lint', 'o', '--no-cache'], { cwd: dir });
    expect(lint.stdout).toContain('description is 1 character long; expected at least 20');
    writeFileSync(join(dir, 'o/SKILL.md'), good('o'));
    const r = await runCli(['render-prompt', '--budget', '99999999999999999999', '--no-registry', 'o'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `error: --budget is too large: "99999999999999999999"; the largest allowed is ${Number.MAX_SAFE_INTEGER}`,
    );
  });
});
