import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/config.js';
import { resolveSettings } from '../../../src/lint/linter.js';
import { tempDir } from '../../helpers/cli.js';

describe('loadConfig', () => {
  it('finds skills.config.json upward, allows comments, and normalises settings', () => {
    const t = tempDir();
    try {
      mkdirSync(join(t.dir, 'a/b'), { recursive: true });
      writeFileSync(
        join(t.dir, 'skills.config.json'),
        '{\n // tuned\n "rules": {"SK102": "warn", "SK100": ["error", {"maxLines": 9}], "SK103": {"options": {"minLength": 5}}},\n "ignores": ["x/**"],\n}\n',
      );
      const c = loadConfig(join(t.dir, 'a/b'));
      expect(c.file).toBe(join(t.dir, 'skills.config.json'));
      expect(c.dir).toBe(t.dir);
      expect(c.rules).toEqual({
        SK102: { severity: 'warning' },
        SK100: { severity: 'error', options: { maxLines: 9 } },
        SK103: { severity: undefined, options: { minLength: 5 } },
      });
      expect(c.ignores).toEqual(['x/**']);
    } finally {
      t.cleanup();
    }
  });

  it('reads disabledSkills and maxSkills, and the snake_case spellings of seeds 003 and 004 (camelCase wins)', () => {
    const t = tempDir();
    try {
      writeFileSync(
        join(t.dir, 'skills.config.json'),
        '{"skill_dirs": ["team"], "disabled_skills": ["a"], "max_skills": 2}',
      );
      expect(loadConfig(t.dir)).toMatchObject({
        skillDirs: [join(t.dir, 'team')],
        disabledSkills: ['a'],
        maxSkills: 2,
      });
      writeFileSync(
        join(t.dir, 'skills.config.json'),
        '{"disabledSkills": ["b"], "disabled_skills": ["a"], "maxSkills": 0, "max_skills": 2}',
      );
      expect(loadConfig(t.dir)).toMatchObject({ disabledSkills: ['b'], maxSkills: 0 });
      writeFileSync(join(t.dir, 'skills.config.json'), '{"maxSkills": -1}');
      expect(() => loadConfig(t.dir)).toThrow(/maxSkills/);
    } finally {
      t.cleanup();
    }
  });

  it('reads the file --config names, absolute or relative to the working folder, not the nearest one', () => {
    const t = tempDir();
    try {
      mkdirSync(join(t.dir, 'work/conf'), { recursive: true });
      writeFileSync(join(t.dir, 'work/skills.config.json'), '{"ignores": ["nearest/**"]}');
      const file = join(t.dir, 'work/conf/team.json');
      writeFileSync(file, '{"ignores": ["named/**"], "skillDirs": ["skills"]}');
      const abs = loadConfig(join(t.dir, 'work'), file);
      expect(abs).toMatchObject({ file, dir: join(t.dir, 'work/conf'), ignores: ['named/**'] });
      expect(abs.skillDirs).toEqual([join(t.dir, 'work/conf/skills')]);
      expect(loadConfig(join(t.dir, 'work'), 'conf/team.json')).toMatchObject({ file, ignores: ['named/**'] });
      expect(loadConfig(join(t.dir, 'work/conf'), '../conf/./team.json')).toMatchObject({ file });
      // An empty name (`-c "$CONFIG"`, the variable unset) is refused, not read as "the nearest file".
      expect(() => loadConfig(join(t.dir, 'work'), '')).toThrow(
        expect.objectContaining({ code: 'E_USAGE', message: '--config needs a file, and was given an empty name' }),
      );
      expect(() => loadConfig(join(t.dir, 'work'), '  ')).toThrow('--config needs a file');
      // A file that is not there is named by its resolved path.
      expect(() => loadConfig(join(t.dir, 'work'), join(t.dir, 'gone.json'))).toThrow(
        `cannot read ${join(t.dir, 'gone.json')}: ENOENT`,
      );
    } finally {
      t.cleanup();
    }
  });

  it('gives defaults when there is no file', () => {
    const t = tempDir();
    try {
      expect(loadConfig(t.dir)).toEqual({ dir: t.dir, rules: {}, ignores: [] });
    } finally {
      t.cleanup();
    }
  });

  it('passes over a folder named skills.config.json in the search; named by --config, it is refused with a hint', () => {
    const t = tempDir();
    try {
      mkdirSync(join(t.dir, 'a/skills.config.json/x'), { recursive: true });
      mkdirSync(join(t.dir, 'a/b'), { recursive: true });
      expect(loadConfig(join(t.dir, 'a/b'))).toEqual({ dir: join(t.dir, 'a/b'), rules: {}, ignores: [] });
      writeFileSync(join(t.dir, 'skills.config.json'), '{"ignores": ["top/**"]}');
      expect(loadConfig(join(t.dir, 'a/b'))).toMatchObject({ file: join(t.dir, 'skills.config.json') });
      const folder = join(t.dir, 'a/skills.config.json');
      expect(() => loadConfig(join(t.dir, 'a/b'), '../skills.config.json')).toThrow(
        expect.objectContaining({
          code: 'E_CONFIG',
          hint: `--config names a file, and ${folder} is a folder: give the configuration file itself`,
        }),
      );
    } finally {
      t.cleanup();
    }
  });

  it("says that a quoted ~ was taken literally (-c '~/x.json'), where the shell did not expand it", () => {
    const t = tempDir();
    try {
      for (const name of ['~/x.json', '~'])
        expect(() => loadConfig(t.dir, name)).toThrow(
          expect.objectContaining({
            code: 'E_CONFIG',
            hint: expect.stringMatching(
              /^".*" was taken literally, .*expands ~ to your home only when it is not quoted/,
            ),
          }),
        );
      // A folder really named ~ is read as any other folder: the file missing in it gets no such hint.
      mkdirSync(join(t.dir, '~'));
      expect(() => loadConfig(t.dir, '~/x.json')).toThrow(expect.objectContaining({ hint: undefined }));
    } finally {
      t.cleanup();
    }
  });

  it('reports unknown keys and bad types with file:line:column', () => {
    const t = tempDir();
    try {
      writeFileSync(join(t.dir, 'skills.config.json'), '{\n  "rulez": {}\n}');
      expect(() => loadConfig(t.dir)).toThrow(
        /skills\.config\.json:2:3: unknown key "rulez" \(expected rules, ignores, skillDirs, disabledSkills, maxSkills\)/,
      );
      writeFileSync(join(t.dir, 'skills.config.json'), '{\n  "ignores": "x"\n}');
      expect(() => loadConfig(t.dir)).toThrow(/skills\.config\.json:2:3: ignores must be array, found string/);
    } finally {
      t.cleanup();
    }
  });

  it('reads a file that begins with a BOM (Notepad, PowerShell 5), and says a syntax error in words', () => {
    const t = tempDir();
    const problem = (text: string) => {
      writeFileSync(join(t.dir, 'skills.config.json'), text);
      try {
        loadConfig(t.dir);
      } catch (err) {
        return (err as Error).message.slice(join(t.dir, 'skills.config.json').length);
      }
      return undefined;
    };
    try {
      writeFileSync(join(t.dir, 'skills.config.json'), '\uFEFF{\n  "rules": {"SK102": "off"}\n}\n');
      expect(loadConfig(t.dir).rules).toEqual({ SK102: { severity: 'off' } });
      // Columns as an editor counts them: the BOM has none.
      expect(problem('\uFEFF{"rules": {"SK102": "off"}')).toBe(':1:27: not valid JSON: expected "}"');
      expect(problem('{\n  "rules": {}\n  "ignores": []\n}')).toBe(
        ':3:3: not valid JSON: expected "," between entries',
      );
      expect(problem('')).toBe(':1:1: not valid JSON: it is empty');
      expect(problem('\uFEFF \n ')).toBe(':1:1: not valid JSON: it is empty');
    } finally {
      t.cleanup();
    }
  });

  it('refuses a key written twice, at the second, naming the first (JSON would keep the last without a word)', () => {
    const t = tempDir();
    try {
      writeFileSync(
        join(t.dir, 'skills.config.json'),
        '{\n  "rules": {"SK102": "off"},\n  "rules": {"SK100": "off"}\n}',
      );
      expect(() => loadConfig(t.dir)).toThrow(
        /skills\.config\.json:3:3: "rules" is written twice \(first at line 2, column 3\); JSON keeps only the last/,
      );
      writeFileSync(join(t.dir, 'skills.config.json'), '{"rules": {\n  "SK102": "off",\n  "SK102": "error"}}');
      expect(() => loadConfig(t.dir)).toThrow(/:3:3: "rules\.SK102" is written twice \(first at line 2, column 3\)/);
    } finally {
      t.cleanup();
    }
  });

  it('names the line and column of an unknown rule or option, as it does every other mistake of the file', () => {
    const t = tempDir();
    try {
      const file = join(t.dir, 'skills.config.json');
      writeFileSync(file, '{\n  "rules": {\n    "SK102": "off",\n    "no-such-rule": "off"\n  }\n}');
      expect(() => resolveSettings(loadConfig(t.dir))).toThrow(`${file}:4:5: unknown rule "no-such-rule" in rules`);
      writeFileSync(file, '{\n  "rules": {\n    "SK100": ["error", {"maxLinez": 3}]\n  }\n}');
      expect(() => resolveSettings(loadConfig(t.dir))).toThrow(`${file}:3:5: rule SK100 has no option "maxLinez"`);
      // An id and its alias are one rule: set twice, the second object form's missing severity undid the first's.
      writeFileSync(
        file,
        '{"rules": {\n  "SK100": "error",\n  "instructions-max-lines": {"options": {"maxLines": 9}}\n}}',
      );
      expect(() => resolveSettings(loadConfig(t.dir))).toThrow(
        `${file}:3:3: "instructions-max-lines" and "SK100" in rules are one rule (SK100)`,
      );
      writeFileSync(file, '{"rules": {"SK100": {"options": {"maxLines": "9"}}}}');
      expect(() => resolveSettings(loadConfig(t.dir))).toThrow(`${file}:1:12: option maxLines of rule SK100 must be`);
    } finally {
      t.cleanup();
    }
  });

  it('refuses unknown rules and options of the wrong type when resolved', () => {
    const cfg = (rules: Record<string, unknown>) => ({
      file: 'skills.config.json',
      dir: '/',
      ignores: [],
      rules: rules as never,
    });
    expect(() => resolveSettings(cfg({ 'no-such-rule': { severity: 'off' } }))).toThrow(/unknown rule "no-such-rule"/);
    expect(() => resolveSettings(cfg({ SK100: { options: { maxLines: '9' } } }))).toThrow(/must be a number/);
    expect(() => resolveSettings(cfg({ SK100: { options: { nope: 1 } } }))).toThrow(
      /has no option "nope" \(it has: maxLines\)/,
    );
    expect(resolveSettings(cfg({ 'name-lowercase': { severity: 'off' } })).get('SK007')).toEqual({ severity: 'off' });
  });
});

describe('a configuration written with Windows paths', () => {
  const problemOf = (json: string) => {
    const t = tempDir();
    try {
      writeFileSync(join(t.dir, 'skills.config.json'), json);
      try {
        loadConfig(t.dir);
      } catch (err) {
        return err as { code: string; message: string; hint?: string };
      }
      return undefined;
    } finally {
      t.cleanup();
    }
  };

  it('refuses a skillDirs folder with a backslash, at its line and column, with the / spelling as the hint', () => {
    for (const [dir, fixed] of [
      ['.\\\\skills', './skills'],
      ['C:\\\\skills', 'C:/skills'],
      ['\\\\\\\\server\\\\share', '//server/share'],
    ]) {
      const err = problemOf(`{\n  "skillDirs": ["team", "${dir}"]\n}\n`);
      expect(err?.code).toBe('E_CONFIG');
      expect(err?.message).toContain('skills.config.json:2:');
      expect(err?.message).toContain('skillDirs[1]');
      expect(err?.message).toContain('holds a backslash');
      expect(err?.hint).toContain(`"${fixed}"`);
    }
  });

  it('refuses an ignores pattern whose backslash comes before a letter; an escape of a glob character stays', () => {
    const err = problemOf('{"ignores": ["skills\\\\docx\\\\**"]}');
    expect(err?.message).toContain('ignores[0]');
    expect(err?.hint).toContain('"skills/docx/**"');
    expect(problemOf('{"ignores": ["notes\\\\[draft\\\\].md", "x/**"]}')).toBeUndefined();
  });
});
