import { describe, expect, it } from 'vitest';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { ROOT, runCli, tempDir, testEnv, withSmallFileLimit } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

/** ro/a1 and ro/b2, each with a description lint --fix quotes; ro/b2/SKILL.md read-only (mode 444). */
function readOnlyTree(dir: string): { colon: (name: string) => string; locked: string } {
  const colon = (name: string) => `---\nname: ${name}\ndescription: Use when: you need ${name} done well\n---\nbody\n`;
  writeTree(dir, { 'ro/a1/SKILL.md': colon('a1'), 'ro/b2/SKILL.md': colon('b2') });
  const locked = join(dir, 'ro/b2/SKILL.md');
  chmodSync(locked, 0o444);
  return { colon, locked };
}

const good = (name: string, extra = '') =>
  skillMd(
    `name: ${name}\ndescription: Does ${name} things for the user. Use when the user asks about ${name}.\n${extra}`,
    `# ${name}\n\nFollow these steps.\n`,
  );

async function inTemp(fn: (dir: string) => Promise<void>) {
  const t = tempDir();
  try {
    await fn(t.dir);
  } finally {
    t.cleanup();
  }
}

describe('skills lint (built CLI)', () => {
  it('includes every validate error and exits 1 on it', () =>
    inTemp(async (dir) => {
      writeTree(dir, { 'Bad/SKILL.md': good('Bad') });
      const r = await runCli(['lint', 'Bad'], { cwd: dir });
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toContain('Bad/SKILL.md:2:1  error    name "Bad" must be lowercase');
    }));

  it("finds the skills of a collection of collections 7 folders down, and passes over GitBook's image tokens", () =>
    inTemp(async (dir) => {
      const deep = 'skills/owner--repo/plugins/community/tool/skills/tool-use';
      const token = 'a3f19c2e-7b4d-4e8a-9c61-2d5f0b8e7a43';
      const link = 'https://4711-files.gitbook.io/~/files/v0/b/gitbook-x-prod.appspot.com/o/spaces%2FAb%2Fchart.png';
      writeTree(dir, {
        [`${deep}/SKILL.md`]: good('tool-use', '') + 'Read [the docs](references/docs.md).\n',
        [`${deep}/references/docs.md`]: `# Docs\n\n<img src="${link}?alt=media&#x26;token=${token}" alt="">\n`,
        // The same token as a plain setting is a secret like any other.
        'skills/leaky/SKILL.md': good('leaky', '') + 'Read [the setup](references/setup.md).\n',
        'skills/leaky/references/setup.md': `# Setup\n\nTOKEN=${token}\n`,
      });
      const r = await runCli(['lint', '.', '--format', 'json', '--no-cache'], { cwd: dir });
      const skills = JSON.parse(r.stdout).skills as { path: string; diagnostics: { ruleId: string; file: string }[] }[];
      expect(skills.map((s) => s.path).sort()).toEqual([join(dir, 'skills/leaky'), join(dir, deep)]);
      const secrets = skills.flatMap((s) => s.diagnostics.filter((d) => d.ruleId === 'SK119').map((d) => d.file));
      expect(secrets).toEqual([join(dir, 'skills/leaky/references/setup.md')]);
      expect(r.exitCode).toBe(1);
    }));

  it('reads skills.config.json from the working folder upward: off, severity, options and ignores', () =>
    inTemp(async (dir) => {
      writeTree(dir, {
        'skills.config.json': JSON.stringify({
          rules: { 'instructions-max-lines': ['error', { maxLines: 2 }], SK016: 'off' },
          ignores: ['vendor/**'],
        }),
        'skills/long/SKILL.md': good('long', 'colour: blue\n'),
        'vendor/broken/SKILL.md': '# no frontmatter',
      });
      const r = await runCli(['lint', '--json', '.'], { cwd: join(dir, 'skills') });
      expect(r.exitCode).toBe(1);
      const doc = JSON.parse(r.stdout);
      expect(doc.skills.map((s: { id: string }) => s.id)).toEqual(['long']);
      const rules = doc.skills[0].diagnostics.map(
        (d: { ruleId: string; severity: string }) => `${d.ruleId}:${d.severity}`,
      );
      expect(rules).toContain('SK100:error');
      expect(rules).not.toContain('SK016:warning');
      const all = await runCli(['lint', '--json', '.'], { cwd: dir });
      expect(JSON.parse(all.stdout).skills.map((s: { id: string }) => s.id)).toEqual(['long']);
    }));

  it('explains a broken configuration with file, line and column, and exits 2', () =>
    inTemp(async (dir) => {
      writeTree(dir, { 'a/SKILL.md': good('a') });
      writeFileSync(join(dir, 'skills.config.json'), '{\n  "rules": {\n    "instructions-max-line": "off"\n  }\n}\n');
      const r = await runCli(['lint', 'a'], { cwd: dir });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(
        /unknown rule "instructions-max-line" in rules; did you mean "instructions-max-lines"\?/,
      );
      writeFileSync(join(dir, 'skills.config.json'), '{\n  "rules": {\n    "SK100": "loud"\n  }\n}\n');
      const bad = await runCli(['lint', 'a'], { cwd: dir });
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toMatch(/skills\.config\.json:3:5: rules\.SK100 must be "off", "error", "warning" or "info"/);
      writeFileSync(join(dir, 'skills.config.json'), '{"rules": {"SK100": ["error", {"maxLines": "many"}]}}');
      const opt = await runCli(['lint', 'a'], { cwd: dir });
      expect(opt.stderr).toMatch(/option maxLines of rule SK100 must be a number, e\.g\. 500/);
      writeFileSync(join(dir, 'skills.config.json'), '{"rules": ');
      const json = await runCli(['lint', '--json', 'a'], { cwd: dir });
      expect(json.exitCode).toBe(2);
      expect(JSON.parse(json.stdout).error).toMatchObject({
        code: 'E_CONFIG',
        message: expect.stringMatching(/skills\.config\.json:1:\d+: not valid JSON/),
      });
    }));

  it('honours inline disable comments for a file and for the next line', () =>
    inTemp(async (dir) => {
      const body = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join('\n');
      writeTree(dir, {
        'skills.config.json': JSON.stringify({ rules: { SK100: ['warning', { maxLines: 3 }] } }),
        'off/SKILL.md': good('off').replace('# off', `<!-- skills-lint-disable instructions-max-lines -->\n${body(5)}`),
        'on/SKILL.md': good('on').replace('# on', body(5)),
      });
      const r = await runCli(['lint', '--json', '.'], { cwd: dir });
      const ids = Object.fromEntries(
        JSON.parse(r.stdout).skills.map((s: { id: string; diagnostics: { ruleId: string }[] }) => [
          s.id,
          s.diagnostics.map((d) => d.ruleId),
        ]),
      );
      expect(ids.on).toContain('SK100');
      expect(ids.off).not.toContain('SK100');
    }));

  it('reads shell code, TODO mentions and disable comments as real skills write them', () =>
    inTemp(async (dir) => {
      const body = [
        '# Train',
        '',
        '```bash',
        'git clone https://github.com/jquesnelle/yarn && cd yarn',
        'python scripts/train.py',
        '```',
        '',
        '```bash',
        'node scripts/run.mjs plan > scripts/plan.md',
        'python scripts/gone.py',
        '```',
        '',
        'Read `scripts/plan.md`, look for TODO/FIXME comments, and leave an explicit TODO.',
        '',
        '<!-- skills-lint-disable SK1O8 -->',
        '',
      ].join('\n');
      writeTree(dir, {
        'train/SKILL.md': good('train').replace('# train\n\nFollow these steps.\n', body),
        'train/scripts/run.mjs': 'console.log(1)\n',
      });
      const r = await runCli(['lint', '--json', '--no-cache', 'train'], { cwd: dir });
      const found = (JSON.parse(r.stdout).skills[0].diagnostics as { ruleId: string; message: string; line: number }[])
        .filter((d) => ['SK108', 'SK124', 'SK134'].includes(d.ruleId))
        .map((d) => `${d.ruleId}:${d.line} ${d.message}`);
      // Only the script the skill lacks, named where the skill runs it, and the disable comment's slip.
      expect(found).toEqual([
        'SK108:14 "scripts/gone.py" does not exist in the skill',
        'SK134:19 unknown rule "SK1O8" in a skills-lint-disable comment: it turns nothing off; did you mean "SK108"?',
      ]);
    }));

  it("reads <path-to-skill>/, a comment that turns nothing off, and one skill in each agent's plugin", () =>
    inTemp(async (dir) => {
      const body = [
        '# Shot',
        '',
        '```bash',
        'python3 <path-to-skill>/scripts/take.py --app x',
        '```',
        '',
        '<!-- skills-lint-disable-next-line SK108 -->',
        'Nothing here is missing.',
        '',
      ].join('\n');
      const shot = good('shot').replace('# shot\n\nFollow these steps.\n', body);
      writeTree(dir, {
        'repo/skills/shot/SKILL.md': shot,
        'repo/skills/shot/scripts/take.py': '#!/usr/bin/env python3\nprint(1)\n',
        ...Object.fromEntries(
          ['claude', 'codex', 'cursor'].flatMap((a) => [
            [`repo/providers/${a}/plugin/.${a}-plugin/plugin.json`, '{"name":"shot"}'],
            [`repo/providers/${a}/plugin/skills/shot/SKILL.md`, good('shot')],
          ]),
        ),
      });
      const r = await runCli(['lint', '--json', '--no-cache', 'repo'], { cwd: dir });
      type Found = { ruleId: string; message: string; line: number; hint?: string };
      const all = (JSON.parse(r.stdout).skills as { path: string; diagnostics: Found[] }[]).flatMap((s) =>
        s.diagnostics.map((d) => ({ ...d, path: s.path })),
      );
      // The script is run through its interpreter: no execute bit asked for, and the path is the skill's own.
      expect(all.filter((d) => ['SK108', 'SK114', 'SK120'].includes(d.ruleId))).toEqual([]);
      expect(all.filter((d) => d.ruleId === 'SK135').map((d) => `${d.line} ${d.message}`)).toEqual([
        '11 unused skills-lint-disable: nothing was reported by "SK108" where this comment reaches',
      ]);
      // The plugins' copies clash with the repository's own skill only, and the hint names their folder.
      const dup = all.filter((d) => d.ruleId === 'SK127');
      expect(dup).toHaveLength(4);
      expect(
        dup.find((d) => d.path.endsWith(join('skills', 'shot')) && !d.path.includes('providers'))!.message,
      ).toMatch(/is also used by .*claude.*codex.*cursor/);
      for (const d of dup.filter((x) => x.path.includes('providers')))
        expect(d.message).not.toMatch(/providers.*providers/);
      for (const d of dup) expect(d.hint).toContain('e.g. ["providers/**"]');
    }));

  it('fixes what is safe, reports each change, loses no content, and a second --fix changes nothing', () =>
    inTemp(async (dir) => {
      const body = '# Colon\n\nBody: keep every line.\r\n\r\n- item one\r\n';
      const crlf = `---\r\nname: colon\r\ndescription: Scrapes pages. Use when: the user wants prices\r\n  and stock levels\r\nallowed-tools:\r\n  - Read\r\n  - Bash(git:*)\r\n---\r\n${body}`;
      writeTree(dir, { 'colon/SKILL.md': crlf });
      const r = await runCli(['lint', '--fix', 'colon'], { cwd: dir });
      expect(r.stdout).toMatch(/fixed {2}colon\/SKILL\.md: quote the value of description/);
      expect(r.stdout).toMatch(/fixed {2}colon\/SKILL\.md: write allowed-tools as one space-separated string/);
      const after = readFileSync(join(dir, 'colon/SKILL.md'), 'utf8');
      expect(after).toBe(
        `---\r\nname: colon\r\ndescription: "Scrapes pages. Use when: the user wants prices and stock levels"\r\nallowed-tools: Read Bash(git:*)\r\n---\r\n${body}`,
      );
      const again = await runCli(['lint', '--fix', 'colon'], { cwd: dir });
      expect(again.stdout).not.toContain('fixed');
      expect(readFileSync(join(dir, 'colon/SKILL.md'), 'utf8')).toBe(after);
      const v = await runCli(['validate', 'colon'], { cwd: dir });
      expect(v.exitCode).toBe(0);
    }));

  it('fixes files whose lines end in a lone CR, or in mixed endings, keeping each ending; a second --fix finds nothing', () =>
    inTemp(async (dir) => {
      const cr =
        '---\rname: cr\rdescription: Scrapes pages. Use when: the user wants prices\r  and stock levels\rallowed-tools:\r  - Read\r  - Bash\r---\rSee [a](references\\a.md).\r';
      const mixed =
        '---\r\nname: mixed\ndescription: Use when: testing mixed\r\nallowed-tools:\r  - Read\n  - Bash\r\n---\r\nBody\n';
      writeTree(dir, {
        'cr/SKILL.md': cr,
        'cr/references/a.md': '# A\rRead [c](b\\c.md).\r',
        'cr/references/b/c.md': '# C\r',
        'mixed/SKILL.md': mixed,
      });
      const before = await runCli(['lint', 'cr', 'mixed', '--no-cache'], { cwd: dir });
      expect(before.stdout).toMatch(/\d+ problems? fixable with --fix/);
      const r = await runCli(['lint', '--fix', 'cr', 'mixed'], { cwd: dir });
      expect(r.stdout).toContain('fixed  cr/SKILL.md: quote the value of description');
      expect(r.stdout).toContain('fixed  cr/SKILL.md: write allowed-tools as one space-separated string');
      expect(r.stdout).toContain('fixed  cr/SKILL.md: use / in references\\a.md');
      expect(r.stdout).toContain('fixed  cr/references/a.md: use / in b\\c.md');
      expect(readFileSync(join(dir, 'cr/references/a.md'), 'utf8')).toBe('# A\rRead [c](b/c.md).\r');
      expect(r.stdout).toContain('fixed  mixed/SKILL.md: write allowed-tools as one space-separated string');
      expect(r.stdout).not.toContain('fixable with --fix');
      expect(readFileSync(join(dir, 'cr/SKILL.md'), 'utf8')).toBe(
        '---\rname: cr\rdescription: "Scrapes pages. Use when: the user wants prices and stock levels"\rallowed-tools: Read Bash\r---\rSee [a](references/a.md).\r',
      );
      expect(readFileSync(join(dir, 'mixed/SKILL.md'), 'utf8')).toBe(
        '---\r\nname: mixed\ndescription: "Use when: testing mixed"\r\nallowed-tools: Read Bash\r\n---\r\nBody\n',
      );
      const after = {
        cr: readFileSync(join(dir, 'cr/SKILL.md'), 'utf8'),
        a: readFileSync(join(dir, 'cr/references/a.md'), 'utf8'),
        mixed: readFileSync(join(dir, 'mixed/SKILL.md'), 'utf8'),
      };
      const again = await runCli(['lint', '--fix', 'cr', 'mixed'], { cwd: dir });
      expect(again.stdout).not.toContain('fixed');
      expect(again.stdout).not.toContain('fixable');
      expect(readFileSync(join(dir, 'cr/SKILL.md'), 'utf8')).toBe(after.cr);
      expect(readFileSync(join(dir, 'cr/references/a.md'), 'utf8')).toBe(after.a);
      expect(readFileSync(join(dir, 'mixed/SKILL.md'), 'utf8')).toBe(after.mixed);
    }));

  it('never rewrites a file that is not UTF-8: its fixes are reported as not applied, with the reason', () =>
    inTemp(async (dir) => {
      // Latin-1 text: E9 is é; decoded and written back it would become EF BF BD (U+FFFD), and é lost for good.
      const colon = Buffer.from(
        '---\nname: g\ndescription: Use when: testing caf\xe9 colon fixes.\n---\nBody\n',
        'latin1',
      );
      const slash = Buffer.from(
        '---\nname: h\ndescription: Use when testing caf\xe9 backslash fixes.\n---\nSee [a](references\\a.md) now.\n',
        'latin1',
      );
      writeTree(dir, { 'g/.keep': '', 'h/references/a.md': '# A\n' });
      writeFileSync(join(dir, 'g/SKILL.md'), colon, { flag: 'w' });
      writeFileSync(join(dir, 'h/SKILL.md'), slash);
      const plain = await runCli(['lint', 'g', 'h', '--no-cache'], { cwd: dir });
      expect(plain.stdout).toMatch(
        /cannot fix {2}g\/SKILL\.md: quote the value of description.*: the file is not UTF-8 \(SK037\)/,
      );
      expect(plain.stdout).not.toContain('fixable with --fix');
      const r = await runCli(['lint', '--fix', 'g', 'h'], { cwd: dir });
      expect(r.stdout).not.toMatch(/^fixed/m);
      expect(r.stdout).toMatch(
        /not fixed {2}g\/SKILL\.md: quote the value of description.*: the file is not UTF-8 \(SK037\)/,
      );
      expect(r.stdout).toMatch(
        /not fixed {2}h\/SKILL\.md: .*convert it to UTF-8 first \(.*iconv -f windows-1252 -t utf-8\)/,
      );
      expect(r.exitCode).toBe(1);
      expect(readFileSync(join(dir, 'g/SKILL.md'))).toEqual(colon);
      expect(readFileSync(join(dir, 'h/SKILL.md'))).toEqual(slash);
      const json = await runCli(['lint', '--fix', '--json', 'g'], { cwd: dir });
      expect(JSON.parse(json.stdout).notFixed).toEqual([
        expect.objectContaining({ file: join(dir, 'g/SKILL.md'), reason: expect.stringContaining('not UTF-8') }),
      ]);
      expect(readFileSync(join(dir, 'g/SKILL.md'))).toEqual(colon);
    }));

  it('writes every fix it can when one file cannot be written, reports both, and exits 2 at the end', () =>
    inTemp(async (dir) => {
      // Under ulimit -f 1 (1 KiB) the small a1 is rewritten and the big z9 fails (EFBIG), as root too.
      const colon = (name: string, body: string) =>
        `---\nname: ${name}\ndescription: Use when: you need ${name} done well\n---\n${body}`;
      const reset = () => {
        writeFileSync(join(dir, 'h/a1/SKILL.md'), colon('a1', 'body\n'));
        writeFileSync(join(dir, 'h/z9/SKILL.md'), colon('z9', 'Follow these steps.\n'.repeat(80)));
      };
      writeTree(dir, { 'h/a1/.keep': '', 'h/z9/.keep': '' });
      reset();
      const home = join(dir, 'home');
      const r = await withSmallFileLimit(['lint', '--fix', '--no-cache', 'h'], dir, home);
      expect(r.stdout).toMatch(/^fixed {2}h\/a1\/SKILL\.md: quote the value of description/m);
      expect(r.stdout).toMatch(
        /^not fixed {2}h\/z9\/SKILL\.md: quote the value of description.*: cannot write it: .*\(EFBIG\); it was left as it was$/m,
      );
      expect(r.stderr).toContain(
        'error: lint --fix left 1 file unwritten; its fixes are listed above as not fixed, with the reason',
      );
      expect(r.stdout).toContain('1 problem left unfixed: its file could not be written (see "not fixed" above)');
      expect(r.stdout).not.toContain('fixable with --fix');
      expect(r.exitCode).toBe(2);
      expect(readFileSync(join(dir, 'h/a1/SKILL.md'), 'utf8')).toContain(
        'description: "Use when: you need a1 done well"',
      );
      expect(readFileSync(join(dir, 'h/z9/SKILL.md'), 'utf8')).toBe(colon('z9', 'Follow these steps.\n'.repeat(80)));
      reset();
      const j = await withSmallFileLimit(['lint', '--fix', '--no-cache', '--json', 'h'], dir, home);
      expect(j.exitCode).toBe(2);
      const doc = JSON.parse(j.stdout);
      expect(doc.fixed).toEqual([{ file: join(dir, 'h/a1/SKILL.md'), description: expect.stringContaining('quote') }]);
      expect(doc.notWritten).toEqual([
        {
          file: join(dir, 'h/z9/SKILL.md'),
          description: expect.stringContaining('quote'),
          reason: expect.stringContaining('(EFBIG)'),
        },
      ]);
    }));

  it('writes a file with two names (a hard link) in place: both names hold the fix; a failed write puts the old bytes back', () =>
    inTemp(async (dir) => {
      const colon = (pad: number) =>
        `---\nname: hl\ndescription: Use when: you need hl done well\n---\n${'x'.repeat(pad)}\n`;
      writeTree(dir, { 'hl/SKILL.md': colon(10) });
      const file = join(dir, 'hl/SKILL.md');
      const other = join(dir, 'kept-copy.md');
      linkSync(file, other);
      const r = await runCli(['lint', '--fix', '--no-cache', 'hl'], { cwd: dir });
      expect(r.stdout).toMatch(/^fixed {2}hl\/SKILL\.md: quote the value of description/m);
      expect(statSync(file).ino).toBe(statSync(other).ino);
      expect(statSync(file).nlink).toBe(2);
      expect(readFileSync(other, 'utf8')).toContain('description: "Use when: you need hl done well"');
      // 1023 bytes that the fix makes 1025: under ulimit -f 1 (1 KiB) the write in place fails part way, and the
      // 1023 bytes it held are put back, under both names.
      const before = colon(0);
      const near = colon(1023 - Buffer.byteLength(before));
      writeFileSync(file, near);
      expect(statSync(file).size).toBe(1023);
      const failed = await withSmallFileLimit(['lint', '--fix', '--no-cache', 'hl'], dir, join(dir, 'home'));
      expect(failed.stdout).toMatch(/^not fixed {2}hl\/SKILL\.md: .*\(EFBIG\); it was left as it was$/m);
      expect(failed.exitCode).toBe(2);
      expect(readFileSync(other, 'utf8')).toBe(near);
      expect(statSync(file).nlink).toBe(2);
    }));

  it('leaves a read-only file as it is, says so, and counts its finding as left, not as fixable', () =>
    inTemp(async (dir) => {
      const { colon, locked } = readOnlyTree(dir);
      const r = await runCli(['lint', '--fix', '--no-cache', 'ro'], { cwd: dir });
      expect(r.stdout).toMatch(/^fixed {2}ro\/a1\/SKILL\.md: quote the value of description/m);
      expect(r.stdout).toMatch(
        /^not fixed {2}ro\/b2\/SKILL\.md: quote the value of description.*: the file is read-only \(mode 444\); it was left as it was \(chmod u\+w lets --fix change it\)$/m,
      );
      expect(r.stdout).toContain('1 problem (1 error, 0 warnings) in 2 skills; 1 invalid\n');
      expect(r.stdout).toContain('1 problem left unfixed: its file could not be written (see "not fixed" above)');
      expect(r.stdout).not.toContain('fixable with --fix');
      expect(r.exitCode).toBe(2);
      expect(readFileSync(locked, 'utf8')).toBe(colon('b2'));
      expect(statSync(locked).mode & 0o777).toBe(0o444);
      const j = await runCli(['lint', '--fix', '--no-cache', '--json', 'ro'], { cwd: dir });
      expect(j.exitCode).toBe(2);
      const doc = JSON.parse(j.stdout);
      expect(doc.fixed).toEqual([]);
      expect(doc.notWritten).toEqual([
        { file: locked, description: expect.stringContaining('quote'), reason: expect.stringContaining('read-only') },
      ]);
    }));

  it('without --fix, does not count a fix of a read-only file as fixable, and says why (--fix would not write it)', () =>
    inTemp(async (dir) => {
      const { colon, locked } = readOnlyTree(dir);
      const r = await runCli(['lint', '--no-cache', 'ro'], { cwd: dir });
      expect(r.stdout).toMatch(
        /^cannot fix {2}ro\/b2\/SKILL\.md: quote the value of description.*: the file is read-only \(mode 444\); --fix leaves it as it is \(chmod u\+w lets --fix change it\)$/m,
      );
      expect(r.stdout).toContain('2 problems (2 errors, 0 warnings) in 2 skills; 2 invalid\n');
      expect(r.stdout).toContain('1 problem fixable with --fix');
      expect(r.exitCode).toBe(1);
      const j = await runCli(['lint', '--no-cache', '--json', 'ro'], { cwd: dir });
      const doc = JSON.parse(j.stdout);
      expect(doc.notFixed).toEqual([
        { file: locked, description: expect.stringContaining('quote'), reason: expect.stringContaining('read-only') },
      ]);
      const dry = await runCli(['lint', '--no-cache', '--fix-dry-run', 'ro'], { cwd: dir });
      expect(dry.stdout).toContain('ro/a1/SKILL.md');
      expect(dry.stdout).not.toMatch(/^\+\+\+ .*ro\/b2/m);
      expect(readFileSync(locked, 'utf8')).toBe(colon('b2'));
    }));

  it(
    'never writes over a file another process changed after lint read it: that fix is not made, exit 2, no line lost',
    () =>
      inTemp(async (dir) => {
        const colon = (name: string) =>
          `---\nname: ${name}\ndescription: Use when: the user needs ${name} done\n---\n# T\n\nbody\n`;
        const tree: Record<string, string> = {};
        for (let i = 0; i < 300; i++) tree[`lu/s${String(i).padStart(3, '0')}/SKILL.md`] = colon(`s${i}`);
        // Planned last, so read last and written after the 300 others: another writer appends to it meanwhile.
        tree['lu/zz/SKILL.md'] = colon('zz');
        writeTree(dir, tree);
        const target = join(dir, 'lu/zz/SKILL.md');
        const stop = join(dir, 'stop');
        const appender = execa(process.execPath, [
          '-e',
          `const fs = require('node:fs'); let n = 0;
         const tick = () => { if (fs.existsSync(${JSON.stringify(stop)})) return console.log(n);
           fs.appendFileSync(${JSON.stringify(target)}, 'edit ' + ++n + '\\n'); setTimeout(tick, 2); };
         tick();`,
        ]);
        while (!readFileSync(target, 'utf8').includes('edit 1\n')) await new Promise((r) => setTimeout(r, 5));
        const r = await runCli(['lint', '--fix', '--no-cache', 'lu'], { cwd: dir, timeout: 120_000 });
        writeFileSync(stop, '');
        const appended = Number((await appender).stdout);
        const edits = readFileSync(target, 'utf8').match(/^edit \d+$/gm) ?? [];
        expect(edits).toEqual(Array.from({ length: appended }, (_, i) => `edit ${i + 1}`));
        expect(r.stdout).toMatch(/^fixed {2}lu\/s299\/SKILL\.md: quote the value of description/m);
        expect(r.stdout).toMatch(
          /^not fixed {2}lu\/zz\/SKILL\.md: quote the value of description.*: it changed while lint was running; run lint --fix again$/m,
        );
        expect(r.exitCode).toBe(2);
      }),
    180_000,
  );

  it('fixes a manifest: adds missing .env.example entries and turns backslashes in references into slashes', () =>
    inTemp(async (dir) => {
      writeTree(dir, {
        'm/manifest.json': JSON.stringify(
          {
            id: 'm',
            name: 'M',
            version: '1.0.0',
            description: 'Posts things. Use when the user wants to post.',
            owner: 'built-in',
            context: ['context/instructions.md'],
            envVars: ['API_KEY', 'API_SECRET'],
            scripts: ['scripts/post.sh'],
          },
          null,
          2,
        ),
        'm/.env.example': '# keys\nAPI_KEY=\n',
        'm/context/instructions.md': '# M\n\nRun `scripts\\post.sh` with the text.\n',
        'm/scripts/post.sh': {
          content:
            '#!/usr/bin/env bash\nset -euo pipefail\necho "{\\"success\\": true, \\"result\\": \\"$API_KEY $API_SECRET\\"}"\n',
          mode: 0o755,
        },
      });
      const r = await runCli(['lint', '--fix', 'm'], { cwd: dir });
      expect(r.stdout).toContain('fixed  m/.env.example: add API_SECRET to .env.example');
      expect(r.stdout).toMatch(/fixed {2}m\/context\/instructions\.md: /);
      expect(readFileSync(join(dir, 'm/.env.example'), 'utf8')).toBe('# keys\nAPI_KEY=\nAPI_SECRET=\n');
      expect(readFileSync(join(dir, 'm/context/instructions.md'), 'utf8')).toBe(
        '# M\n\nRun `scripts/post.sh` with the text.\n',
      );
      expect(r.exitCode).toBe(0);
      const again = await runCli(['lint', '--fix', 'm'], { cwd: dir });
      expect(again.stdout).not.toContain('fixed');
    }));

  it('runs over a tree of many varied skills of both layouts, broken and hostile ones among them, without a crash', () =>
    inTemp(async (dir) => {
      const tree: Record<string, string | { content: string; mode?: number }> = {};
      for (let i = 0; i < 60; i++) {
        const n = `s${i}`;
        const kind = i % 6;
        if (kind === 0) tree[`${n}/SKILL.md`] = good(n, i % 12 === 0 ? 'triggers:\n  patterns: ["(a+)+"]\n' : '');
        else if (kind === 1)
          tree[`${n}/SKILL.md`] = `---\nname: ${n}\ndescription: Use when: broken ${i}\n---\nTODO: write me\n`;
        else if (kind === 2)
          tree[`${n}/manifest.json`] = JSON.stringify({
            id: n,
            name: n,
            version: `1.${i}.0`,
            description: `Skill ${i}. Use when ${i}.`,
            owner: 'built-in',
            context: ['context/a.md'],
            scripts: ['scripts/x.sh'],
            envVars: ['TOKEN'],
          });
        else if (kind === 3) tree[`${n}/manifest.json`] = `{"id": "${n}", "name": ${'['.repeat(i * 50)}`;
        else if (kind === 4) {
          tree[`${n}/SKILL.md`] = good(n).replace(
            'Follow these steps.',
            `See [ref](references/r${i}.md) and scripts\\run.py and ../../etc/passwd. ${'x'.repeat(i * 100)}`,
          );
          tree[`${n}/references/r${i}.md`] = `# R\n${'line\n'.repeat(i * 10)}`;
          tree[`${n}/scripts/run.py`] = 'import os\nprint(os.environ["SECRET_TOKEN"])\n';
        } else
          tree[`${n}/skill.md`] =
            `\ufeff---\r\nname: ${n}\r\ndescription: Does ${n}. Use when ${n}.\r\nmetadata:\r\n  key: AKIA${'A'.repeat(16)}\r\n---\r\nbody\r\n`;
      }
      tree['s2/context/a.md'] = '# a\n';
      writeTree(dir, tree);
      for (const format of ['json', 'sarif', 'stylish']) {
        const r = await runCli(['lint', '--format', format, '.'], { cwd: dir });
        expect(r.exitCode, r.stderr).toBe(1);
        expect(r.stderr).not.toMatch(/bug in skills/);
        if (format === 'json') expect(JSON.parse(r.stdout).skills).toHaveLength(60);
        if (format === 'sarif') expect(JSON.parse(r.stdout).runs[0].results.length).toBeGreaterThan(60);
      }
    }));

  it('prints the diff with --fix-dry-run and changes nothing', () =>
    inTemp(async (dir) => {
      const text = skillMd('name: dry\ndescription: Use when: you test\n');
      writeTree(dir, { 'dry/SKILL.md': text });
      const r = await runCli(['lint', '--fix-dry-run', 'dry'], { cwd: dir });
      expect(r.stdout).toContain('--- a/dry/SKILL.md');
      expect(r.stdout).toContain('-description: Use when: you test');
      expect(r.stdout).toContain('+description: "Use when: you test"');
      expect(readFileSync(join(dir, 'dry/SKILL.md'), 'utf8')).toBe(text);
    }));

  it('counts tokens with the real tokenizer, loaded only for long instructions', () =>
    inTemp(async (dir) => {
      const words = Array.from({ length: 6000 }, (_, i) => `word${i % 97}`).join(' ');
      writeTree(dir, {
        'long/SKILL.md': good('long').replace('Follow these steps.', words),
        'short/SKILL.md': good('short'),
      });
      const r = await runCli(['lint', '--json', '.'], { cwd: dir });
      const byId = Object.fromEntries(
        JSON.parse(r.stdout).skills.map((s: { id: string; diagnostics: { ruleId: string; message: string }[] }) => [
          s.id,
          s.diagnostics,
        ]),
      );
      expect(byId.long.find((d: { ruleId: string }) => d.ruleId === 'SK101')?.message).toMatch(/\d{4,5} tokens/);
      expect(byId.short.some((d: { ruleId: string }) => d.ruleId === 'SK101')).toBe(false);
    }));

  it('passes over a marketplace.json that is a FIFO (never waits on it), and links into a real plugin are fine', () =>
    inTemp(async (dir) => {
      writeTree(dir, {
        'fifo/plug/skills/a/SKILL.md': good('a').replace('Follow these steps.', 'See [b](../b/SKILL.md).'),
        'fifo/plug/skills/b/SKILL.md': good('b'),
        'real/.claude-plugin/marketplace.json': JSON.stringify({ plugins: [{ name: 'p', source: './plug' }] }),
        'real/plug/skills/a/SKILL.md': good('a').replace('Follow these steps.', 'See [b](../b/SKILL.md).'),
        'real/plug/skills/b/SKILL.md': good('b'),
      });
      mkdirSync(join(dir, 'fifo/.claude-plugin'));
      await execa('mkfifo', [join(dir, 'fifo/.claude-plugin/marketplace.json')]);
      const r = await runCli(['lint', '--json', '--no-cache', 'fifo', 'real'], { cwd: dir, timeout: 30_000 });
      const found = (
        JSON.parse(r.stdout).skills as { path: string; diagnostics: { ruleId: string; message: string }[] }[]
      ).flatMap((s) => s.diagnostics.filter((d) => d.ruleId === 'SK109').map((d) => `${s.path}: ${d.message}`));
      expect(found).toEqual([
        expect.stringMatching(/fifo\/plug\/skills\/a: "\.\.\/b\/SKILL\.md" leads out of the skill folder$/),
      ]);
    }));

  it(
    'reads a marketplace.json once a run, not once a skill: 300 skills beside a 4 MB one lint in seconds',
    () =>
      inTemp(async (dir) => {
        // Each skill with a ../ link read and parsed the marketplace again: 400 skills and 4 MB took 72 s (31 s CPU).
        const plugins = Array.from({ length: 34_000 }, (_, i) => ({
          name: `p${i}`,
          source: `./x${i}`,
          description: 'x'.repeat(60),
        }));
        const tree: Record<string, string> = {
          '.claude-plugin/marketplace.json': JSON.stringify({
            plugins: [...plugins, { name: 'plug', source: './plug' }],
          }),
        };
        for (let i = 0; i < 300; i++)
          tree[`plug/skills/s${i}/SKILL.md`] = good(`s${i}`).replace(
            'Follow these steps.',
            `See [the next](../s${(i + 1) % 300}/SKILL.md).`,
          );
        writeTree(dir, tree);
        expect(statSync(join(dir, '.claude-plugin/marketplace.json')).size).toBeGreaterThan(3_500_000);
        const r = await runCli(['lint', '--json', '--no-cache', '.'], { cwd: dir, timeout: 20_000 });
        expect(r.exitCode).toBe(0);
        const found = (JSON.parse(r.stdout).skills as { diagnostics: { ruleId: string }[] }[]).flatMap((s) =>
          s.diagnostics.filter((d) => d.ruleId === 'SK109'),
        );
        expect(found).toEqual([]);
      }),
    30_000,
  );

  it('gives an estimate for instructions too long to count (over the budget however tokenized), with their bytes', () =>
    inTemp(async (dir) => {
      writeTree(dir, { 'huge/SKILL.md': good('huge').replace('Follow these steps.', 'word '.repeat(140000)) });
      const r = await runCli(['lint', '--json', '--no-cache', '.'], { cwd: dir });
      const [skill] = JSON.parse(r.stdout).skills as { diagnostics: { ruleId: string; message: string }[] }[];
      expect(skill!.diagnostics.find((d) => d.ruleId === 'SK101')?.message).toMatch(
        /^instructions are about 17500\d tokens long \(7000\d\d bytes, too long to count: over 5000 however they are tokenized\); keep them under 5000$/,
      );
    }));

  it('measures the estimate of multi-byte text too long to count on a sample: Cyrillic prose at its 8 bytes a token', () =>
    inTemp(async (dir) => {
      // 662,407 bytes, about 79,200 o200k tokens; at 4 bytes a token it was said to be 165,602.
      const prose =
        'Файл навыка должен быть кратким и содержать только инструкции, нужные агенту для выполнения задачи.\n';
      writeTree(dir, { 'ru/SKILL.md': good('ru').replace('Follow these steps.', prose.repeat(3600)) });
      const r = await runCli(['lint', '--json', '--no-cache', '.'], { cwd: dir });
      const [skill] = JSON.parse(r.stdout).skills as { diagnostics: { ruleId: string; message: string }[] }[];
      const message = skill!.diagnostics.find((d) => d.ruleId === 'SK101')?.message ?? '';
      expect(message).toMatch(/^instructions are about \d+ tokens long \(66\d{4} bytes, too long to count/);
      expect(Number(/about (\d+)/.exec(message)![1])).toBeGreaterThan(75_000);
      expect(Number(/about (\d+)/.exec(message)![1])).toBeLessThan(84_000);
    }));

  it('writes SARIF 2.1.0 with rules and located results', () =>
    inTemp(async (dir) => {
      writeTree(dir, { 'Bad/SKILL.md': good('Bad') });
      const r = await runCli(['lint', '--format', 'sarif', 'Bad'], { cwd: dir });
      expect(r.exitCode).toBe(1);
      const sarif = JSON.parse(r.stdout);
      expect(sarif.version).toBe('2.1.0');
      const run = sarif.runs[0];
      expect(run.tool.driver.name).toBe('skills');
      const result = run.results.find((x: { ruleId: string }) => x.ruleId === 'SK007');
      expect(result).toMatchObject({
        level: 'error',
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'Bad/SKILL.md', uriBaseId: '%SRCROOT%' },
              region: { startLine: 2, startColumn: 1 },
            },
          },
        ],
      });
      expect(run.tool.driver.rules[result.ruleIndex].id).toBe('SK007');
    }));

  it('writes each SARIF uri as a URI reference: a space, %, # or ü in a folder name percent-encoded', () =>
    inTemp(async (dir) => {
      writeTree(dir, { 's/we ird#%ü/SKILL.md': good('Weird') });
      const r = await runCli(['lint', '--format', 'sarif', 's'], { cwd: dir });
      const run = JSON.parse(r.stdout).runs[0];
      const uris = new Set(
        run.results.map(
          (x: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
            x.locations[0]!.physicalLocation.artifactLocation.uri,
        ),
      );
      expect([...uris]).toEqual(['s/we%20ird%23%25%C3%BC/SKILL.md']);
      // It names the file, resolved against %SRCROOT%.
      const base = run.originalUriBaseIds['%SRCROOT%'].uri;
      expect(fileURLToPath(new URL([...uris][0] as string, base))).toBe(join(dir, 's/we ird#%ü/SKILL.md'));
    }));

  it('gives a file outside the working folder an absolute file uri without uriBaseId, not a ../ path', () =>
    inTemp(async (dir) => {
      writeTree(dir, { 'outer/s k/SKILL.md': good('Out'), 'work/in/SKILL.md': good('In') });
      const r = await runCli(['lint', '--format', 'sarif', '../outer/s k', 'in'], { cwd: join(dir, 'work') });
      const run = JSON.parse(r.stdout).runs[0];
      type Loc = { uri: string; uriBaseId?: string };
      const locations = new Map<string, Loc>(
        run.results.map((x: { locations: { physicalLocation: { artifactLocation: Loc } }[] }) => {
          const a = x.locations[0]!.physicalLocation.artifactLocation;
          return [a.uri, a];
        }),
      );
      const outside = pathToFileURL(join(dir, 'outer/s k/SKILL.md')).href;
      expect(outside).toContain('s%20k');
      expect(Object.fromEntries(locations)).toEqual({
        [outside]: { uri: outside },
        'in/SKILL.md': { uri: 'in/SKILL.md', uriBaseId: '%SRCROOT%' },
      });
      expect(fileURLToPath(outside)).toBe(join(dir, 'outer/s k/SKILL.md'));
    }));

  it("run from / (a container's WORKDIR), %SRCROOT% is file:/// and each uri resolves to its file", () =>
    inTemp(async (dir) => {
      writeTree(dir, { 's/SKILL.md': good('S') });
      const r = await runCli(['lint', '--format', 'sarif', join(dir, 's')], { cwd: '/' });
      const run = JSON.parse(r.stdout).runs[0];
      const base = run.originalUriBaseIds['%SRCROOT%'].uri;
      expect(base).toBe('file:///');
      const uri = run.results[0].locations[0].physicalLocation.artifactLocation.uri as string;
      expect(fileURLToPath(new URL(uri, base))).toBe(join(dir, 's/SKILL.md'));
      // The log of a run that fails before linting says the same working folder.
      const failed = await runCli(['lint', '--format', 'sarif', join(dir, 'missing')], { cwd: '/' });
      expect(JSON.parse(failed.stdout).runs[0].invocations[0].workingDirectory.uri).toBe('file:///');
    }));

  it('says so when the configuration\'s ignores leave out every skill it was given (not a bare "no skills")', () =>
    inTemp(async (dir) => {
      writeTree(dir, {
        'skills.config.json': '{"ignores": ["vendor/**"]}',
        'vendor/a/SKILL.md': good('a'),
        'vendor/b/SKILL.md': good('b'),
        'own/SKILL.md': good('own'),
      });
      const one = await runCli(['lint', 'vendor/a'], { cwd: dir });
      expect(one.exitCode).toBe(0);
      expect(one.stderr).toBe(
        `warning: the skill vendor/a is left out by "ignores" in ${join(dir, 'skills.config.json')}`,
      );
      const two = await runCli(['lint', 'vendor'], { cwd: dir });
      expect(two.stderr).toBe(`warning: 2 skills are left out by "ignores" in ${join(dir, 'skills.config.json')}`);
      // A run that lints some skill says nothing of those it leaves out, as the configuration asked.
      const all = await runCli(['lint', '.'], { cwd: dir });
      expect(all.stderr).toBe('');
      expect(all.stdout).toContain('1 skill valid');
    }));

  it('fails on more warnings than --max-warnings', () =>
    inTemp(async (dir) => {
      writeTree(dir, { 'w/SKILL.md': good('w', 'colour: blue\n') });
      expect((await runCli(['lint', '--max-warnings', '1', 'w'], { cwd: dir })).exitCode).toBe(0);
      const r = await runCli(['lint', '--max-warnings', '0', 'w'], { cwd: dir });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('more than --max-warnings 0');
      const bad = await runCli(['lint', '--max-warnings', 'x', 'w'], { cwd: dir });
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toBe('error: --max-warnings takes a whole number of 0 or more, not "x"');
    }));

  /** One skill of each kind: an error (name in capitals), a warning (unknown key) and an info (unreferenced file). */
  const mixed = {
    'Bad/SKILL.md': good('Bad'),
    'warn/SKILL.md': good('warn', 'colour: blue\n'),
    'tidy/SKILL.md': good('tidy'),
    'tidy/notes.txt': 'left over\n',
  };

  it('hides info findings by default, counts them in the summary, and shows them with --verbose', () =>
    inTemp(async (dir) => {
      writeTree(dir, mixed);
      const r = await runCli(['lint', '.'], { cwd: dir });
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toContain('Bad/SKILL.md:2:1  error    name "Bad" must be lowercase');
      expect(r.stdout).toMatch(/warn\/SKILL\.md:4:1 +warning +unknown frontmatter key "colour"/);
      expect(r.stdout).not.toContain('SK120');
      expect(r.stdout).toContain('3 problems (1 error, 1 warning, 1 info) in 3 skills; 1 invalid');
      expect(r.stdout).toMatch(/… and 1 info finding hidden; --verbose shows them$/);
      const v = await runCli(['lint', '--verbose', '.'], { cwd: dir });
      expect(v.stdout).toMatch(/tidy\/notes\.txt +info +notes\.txt: nothing in the skill refers to this file +SK120/);
      expect(v.stdout).not.toContain('hidden');
      // JSON and SARIF keep every finding, whatever the flags: machines filter by severity.
      const json = JSON.parse((await runCli(['lint', '--json', '--quiet', '.'], { cwd: dir })).stdout);
      expect(json).toMatchObject({ errorCount: 1, warningCount: 1, infoCount: 1 });
      const sarif = JSON.parse((await runCli(['lint', '--format', 'sarif', '.'], { cwd: dir })).stdout);
      expect(sarif.runs[0].results.map((x: { ruleId: string }) => x.ruleId)).toContain('SK120');
    }));

  it('shows the info findings of a rule whose level skills.config.json sets', () =>
    inTemp(async (dir) => {
      writeTree(dir, { ...mixed, 'skills.config.json': JSON.stringify({ rules: { 'unreferenced-file': 'info' } }) });
      const r = await runCli(['lint', 'tidy'], { cwd: dir });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/tidy\/notes\.txt +info +notes\.txt: nothing in the skill refers/);
      expect(r.stdout).not.toContain('hidden');
    }));

  it('shows errors only with -q/--quiet, as ESLint does, and says what it hid', () =>
    inTemp(async (dir) => {
      writeTree(dir, mixed);
      const r = await runCli(['lint', '-q', '.'], { cwd: dir });
      expect(r.exitCode).toBe(1);
      const lines = r.stdout.split('\n');
      expect(lines[0]).toBe('✖ Bad');
      expect(lines[1]).toMatch(/^ {2}Bad\/SKILL\.md:2:1 {2}error {4}name "Bad" must be lowercase/);
      expect(r.stdout).not.toMatch(/warn\/|tidy\//);
      expect(lines[lines.length - 1]).toBe('1 error in 1 skill of 3; 1 warning and 1 info finding hidden by --quiet');
      // No errors: one line, exit 0; --strict still fails on the hidden warning.
      const clean = await runCli(['lint', '--quiet', 'warn', 'tidy'], { cwd: dir });
      expect(clean.exitCode).toBe(0);
      expect(clean.stdout).toBe('no errors in 2 skills; 1 warning and 1 info finding hidden by --quiet');
      expect((await runCli(['lint', '--quiet', '--strict', 'warn'], { cwd: dir })).exitCode).toBe(1);
      const both = await runCli(['lint', '--quiet', '--verbose', '.'], { cwd: dir });
      expect(both.exitCode).toBe(2);
      expect(both.stderr).toBe('error: use --quiet (less output) or --verbose (more), not both');
    }));

  it('lists its rules, and docs/rules.md is what --list-rules --format markdown prints', async () => {
    const r = await runCli(['lint', '--list-rules']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^SK100 {2}instructions-max-lines/m);
    const md = await runCli(['lint', '--list-rules', '--format', 'markdown']);
    // execa drops the final newline of stdout.
    expect(readFileSync(join(ROOT, 'docs/rules.md'), 'utf8'), 'docs/rules.md is stale: run npm run docs').toBe(
      `${md.stdout}\n`,
    );
  });

  it("SK119 passes over GitBook links with brackets or \\&, a call and a file's path, and still finds a key", () =>
    inTemp(async (dir) => {
      const uuid = 'a3f19c2e-7b4d-4e8a-9c61-2d5f0b8e7a43';
      const link =
        'https://4711-files.gitbook.io/~/files/v0/b/gitbook-x-prod.appspot.com/o/spaces%2FAb%2Foutput%20(10).png';
      // Made at run time, so that no scanner takes this file for a leak.
      const key = ['Zx81kQ2m', 'Pq7RtY3v', 'W9nB4cLs'].join('');
      writeTree(dir, {
        's/SKILL.md': good('s'),
        's/references/docs.md': [
          '# Docs',
          '',
          `![chart](${link}?alt=media\\&token=${uuid})`,
          `<img src="${link}?alt=media&#x26;token=${uuid}">`,
          '',
          '```python',
          'confused_token = forge_hs256_with_public_key(valid_token, public_key_pem)',
          'private_key_file = /etc/freeradius/3.0/certs/server2.key',
          `api_token = "${key}"`,
          '```',
          '',
        ].join('\n'),
      });
      const r = await runCli(['lint', 's', '--format', 'json'], { cwd: dir });
      const found = (JSON.parse(r.stdout) as { skills: { diagnostics: { ruleId: string; line: number }[] }[] }).skills
        .flatMap((k) => k.diagnostics)
        .filter((d) => d.ruleId === 'SK119');
      expect(found.map((d) => d.line)).toEqual([9]);
    }));

  it('SK129 warns of names that clash or are refused on macOS and Windows, and leaves the files as they are', () =>
    inTemp(async (dir) => {
      writeTree(dir, {
        's/SKILL.md': good('s'),
        's/skill.md': '# an old copy\n',
        's/references/aux.md': '# notes\n',
        's/references/ok.md': '# fine\n',
      });
      const before = readFileSync(join(dir, 's/skill.md'), 'utf8');
      const r = await runCli(['lint', 's', '--no-cache'], { cwd: dir });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(
        "s/skill.md  warning  skill.md and SKILL.md differ only in case: on macOS and Windows one takes the other's place  SK129 portable-file-names",
      );
      expect(r.stdout).toContain('hint: rename one of them (agents read SKILL.md: remove the other)');
      expect(r.stdout).toContain(
        's/references/aux.md  warning  references/aux.md: "aux.md" is a device name on Windows (AUX)',
      );
      expect(r.stdout).not.toContain('ok.md:');
      const json = await runCli(['lint', 's', '--format', 'json', '--no-cache'], { cwd: dir });
      const found = (
        JSON.parse(json.stdout) as { skills: { diagnostics: { ruleId: string; file: string }[] }[] }
      ).skills
        .flatMap((k) => k.diagnostics)
        .filter((d) => d.ruleId === 'SK129')
        .map((d) => d.file);
      expect(found.sort()).toEqual([join(dir, 's/references/aux.md'), join(dir, 's/skill.md')]);
      expect(readFileSync(join(dir, 's/skill.md'), 'utf8')).toBe(before);
    }));

  it('SK131 warns of a link that leads out of the skill, which pack then refuses, so the hook catches it first', () =>
    inTemp(async (dir) => {
      writeTree(dir, { 's/SKILL.md': good('s'), 'shared/notes.md': '# Shared notes\n' });
      symlinkSync('../shared/notes.md', join(dir, 's/notes.md'));
      const r = await runCli(['lint', 's', '--no-cache'], { cwd: dir });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(
        `s/notes.md  warning  notes.md is a symbolic link that leads out of the skill (to ${join(dir, 'shared/notes.md')}): pack refuses it, install and registry sync leave it out  SK131 link-outside`,
      );
      const pack = await runCli(['pack', 's', '--out', join(dir, 'out')], { cwd: dir });
      expect(pack.exitCode).toBe(1);
      expect(pack.stderr).toContain('notes.md is a symlink that leads out of the skill');
    }));

  it('sets the execute bit with --fix only for scripts that have a shebang', () =>
    inTemp(async (dir) => {
      writeTree(dir, {
        'm/manifest.json': JSON.stringify({
          id: 'm',
          name: 'M',
          version: '1.0.0',
          description: 'Does m. Use when m.',
          owner: 'built-in',
          scripts: ['scripts/run.sh', 'scripts/data.sh'],
        }),
        'm/scripts/run.sh': { content: '#!/usr/bin/env bash\nset -euo pipefail\necho "{}"\n', mode: 0o644 },
        'm/scripts/data.sh': { content: 'echo no shebang\n', mode: 0o644 },
      });
      await runCli(['lint', '--fix', 'm'], { cwd: dir });
      expect(statSync(join(dir, 'm/scripts/run.sh')).mode & 0o777).toBe(0o755);
      expect(statSync(join(dir, 'm/scripts/data.sh')).mode & 0o777).toBe(0o644);
    }));
});

describe('shapes of real public skills (built CLI)', () => {
  it('lints test/fixtures/real-false-alarms with no false alarm: masked values, stand-ins, digests, page tokens, a key header alone, "[LABEL]: words"', async () => {
    const r = await runCli(['lint', join(ROOT, 'test', 'fixtures', 'real-false-alarms'), '--format', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { skills: { id: string; diagnostics: { ruleId: string }[] }[] };
    const findings = doc.skills.flatMap((s) => s.diagnostics.map((d) => `${s.id} ${d.ruleId}`));
    expect(findings).toEqual(['claude-api SK106']);
  });

  it("takes no skill.md from a hidden folder no skills/ folder leads to (a wiki's .wiki/wiki/skill.md); SKILL.md still", () =>
    inTemp(async (dir) => {
      writeTree(dir, {
        // richfrem/agent-plugins-skills' shape: a wiki page about skills, with the wiki's frontmatter, among pages.
        '.wiki/wiki/skill.md': '---\nconcept: skill\nsource: plugin-code\n---\n\n# Skill\n\nA page.\n',
        '.wiki/wiki/other-page.md': '# Other\n',
        '.claude/skills/x/SKILL.md': good('x'),
        '.agents/skills/group/y/SKILL.md': good('y'),
        '.github/skills/w/SKILL.md': good('w'),
        'skills/.curated/z/SKILL.md': good('z'),
        // A collection of Codex's system skills (grahama1970/agent-skills): SKILL.md so named is a skill anywhere.
        '.system/v/SKILL.md': good('v'),
      });
      const r = await runCli(['lint', '--json', '--no-cache', '.'], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(0);
      const found = (JSON.parse(r.stdout).skills as { path: string }[]).map((s) => relative(dir, s.path)).sort();
      expect(found).toEqual([
        '.agents/skills/group/y',
        '.claude/skills/x',
        '.github/skills/w',
        '.system/v',
        'skills/.curated/z',
      ]);
      const list = await runCli(['list', '--no-registry', '--json', '.'], { cwd: dir });
      expect((JSON.parse(list.stdout).skills as { id: string }[]).map((s) => s.id).sort()).toEqual([
        'v',
        'w',
        'x',
        'y',
        'z',
      ]);
      // Named, it is checked as any folder is.
      const named = await runCli(['lint', '--json', '--no-cache', '.wiki/wiki'], { cwd: dir });
      expect(named.exitCode).toBe(1);
    }));

  it('two Claude Code plugins may each have a skill of one name; a copy outside the plugins is still a duplicate', async () => {
    await inTemp(async (dir) => {
      writeTree(dir, {
        'plugins/notes/.claude-plugin/plugin.json': '{"name":"notes"}',
        'plugins/notes/skills/setup/SKILL.md': good('setup'),
        'plugins/mail/plugin.json': '{"name":"mail"}',
        'plugins/mail/skills/setup/SKILL.md': good('setup'),
      });
      const ok = await runCli(['lint', 'plugins', '--format', 'json'], { cwd: dir });
      expect(ok.exitCode, ok.stderr).toBe(0);
      expect(ok.stdout).not.toContain('SK127');
      writeTree(dir, { 'skills/setup/SKILL.md': good('setup') });
      const dup = await runCli(['lint', '.', '--quiet'], { cwd: dir });
      expect(dup.exitCode).toBe(1);
      expect(dup.stdout).toContain(`name "setup" is also used by`);
      expect(dup.stdout).toContain('SK127 duplicate-skill');
    });
  });

  it("a skill installed from the repository into two agents' folders is no duplicate of itself; lint stays clean", async () => {
    await inTemp(async (dir) => {
      writeTree(dir, { 'skills/notes/SKILL.md': good('notes') });
      const home = join(dir, 'home');
      const env = { HOME: home };
      const placed = await runCli(['install', './skills/notes', '--agent', 'claude-code', '--agent', 'codex', '-y'], {
        cwd: dir,
        env,
      });
      expect(placed.exitCode, placed.stderr).toBe(0);
      expect(readFileSync(join(dir, '.agents/skills/notes/SKILL.md'), 'utf8')).toBe(good('notes'));
      const r = await runCli(['lint', '.'], { cwd: dir, env });
      expect(r.exitCode, r.stdout).toBe(0);
      expect(r.stdout).toContain('3 skills valid');
      // A second skill of that name in the repository is still one.
      writeTree(dir, { 'tools/notes/SKILL.md': good('notes') });
      const dup = await runCli(['lint', '.', '--quiet'], { cwd: dir, env });
      expect(dup.exitCode).toBe(1);
      expect(dup.stdout).toContain(
        `tools/notes/SKILL.md:2:1  error    name "notes" is also used by ${join(dir, 'skills/notes/SKILL.md')}`,
      );
    });
  });

  it('says when a skill folder holds skills of its own, which the search passed over, and how to check them', async () => {
    await inTemp(async (dir) => {
      // grahama1970/agent-skills: a stray skills/SKILL.md made lint check 1 skill of 87, and say nothing.
      writeTree(dir, {
        'skills/SKILL.md': good('youtube-transcripts'),
        'skills/notes/SKILL.md': good('notes'),
        'skills/mail/SKILL.md': good('Mail'),
        // A folder of the skill's own: no skill, which the command of the hint must not name (`*/` did).
        'skills/scripts/run.sh': 'echo hi\n',
      });
      /** The command the hint names, run from the skill's folder by a shell, as a user would. */
      const hinted = async (out: string) => {
        const command = /from this skill's folder: skills lint (.*?)\);/.exec(out)?.[1];
        expect(command, out).toBeDefined();
        const bin = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin/skills.js'))}`;
        const res = await execa('sh', ['-c', `${bin} lint ${command!}`], {
          cwd: join(dir, 'skills'),
          reject: false,
          env: testEnv(join(dir, 'home')),
          extendEnv: false,
        });
        return res;
      };
      const r = await runCli(['lint', '.'], { cwd: dir });
      expect(r.stdout).toContain(
        'skills/SKILL.md  warning  holds 2 skills of its own below it (mail/, notes/): a search stops at a skill folder, so they were not checked',
      );
      expect(r.stdout).toContain("hint: to check them, name them (from this skill's folder: skills lint mail/ notes/)");
      expect(r.stdout).not.toContain('must be lowercase');
      // The command the hint names checks them, and finds what was hidden; it reads the skill above them no more.
      const named = await hinted(r.stdout);
      expect(named.exitCode).toBe(1);
      expect(named.stdout).toContain('mail/SKILL.md:2:1  error    name "Mail" must be lowercase');
      expect(named.stdout).not.toContain('holds 2 skills of its own');
      expect(named.stdout).toContain('in 2 skills');
      // Many: a glob of their SKILL.md files, which scripts/ does not match.
      writeTree(dir, Object.fromEntries(['a1', 'a2', 'a3'].map((n) => [`skills/${n}/SKILL.md`, good(n)])));
      const many = await runCli(['lint', '.'], { cwd: dir });
      expect(many.stdout).toContain("(from this skill's folder: skills lint */SKILL.md)");
      const globbed = await hinted(many.stdout);
      expect(globbed.stdout).not.toContain('skills of its own');
      expect(globbed.stdout).toContain('in 5 skills');
    });
  });

  it("a skill-creator's template of a skill (assets/template/SKILL.md) is its content: lint, validate and list see one skill", async () => {
    await inTemp(async (dir) => {
      writeTree(dir, {
        'skill-creator/SKILL.md': skillMd(
          'name: skill-creator\ndescription: Makes new skills from a template. Use when the user asks for a new skill.\n',
          '# Skill creator\n\nCopy [the template](assets/template/SKILL.md) and fill it in.\n',
        ),
        'skill-creator/assets/template/SKILL.md': skillMd(
          'name: my-skill\ndescription: What it does. Use when it is needed.\n',
          'Read [the guide](references/guide.md) and run `scripts/run.py`.\n',
        ),
        'skill-creator/assets/template/references/guide.md': '# Guide\n',
      });
      const lint = await runCli(['lint', '.', '--max-warnings', '0'], { cwd: dir });
      expect(lint.stdout).not.toMatch(/SK108|SK111/);
      expect(lint.stdout).toContain('1 skill valid');
      expect(lint.exitCode, lint.stdout).toBe(0);
      const validate = await runCli(['validate', '.'], { cwd: dir });
      expect(validate.stdout).toContain('1 skill valid');
      const list = await runCli(['list', '.', '--json'], { cwd: dir });
      expect(JSON.parse(list.stdout).skills.map((s: { id: string }) => s.id)).toEqual(['skill-creator']);
    });
  });

  it('validate names a dependency written as a skill folder path, with the id to write', async () => {
    await inTemp(async (dir) => {
      writeTree(dir, { 'care-plan/SKILL.md': good('care-plan', 'dependencies:\n  - admin/patient-setup\n') });
      const r = await runCli(['validate', 'care-plan'], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain(
        'dependencies[0]: "admin/patient-setup" names a skill by its folder path; a dependency is a skill id (or id@range), so skills leaves it out',
      );
      expect(r.stdout).toContain("hint: write the skill's id: patient-setup");
    });
  });
});
