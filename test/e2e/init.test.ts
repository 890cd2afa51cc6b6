import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { execa } from 'execa';
import yaml from 'js-yaml';
import { BIN, runCli, tempDir, testEnv } from '../helpers/cli.js';
import { writeTree } from '../helpers/tree.js';

/** Every file below `dir` (dotfiles included) with its content, for before/after comparisons. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const abs = join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else out[relative(dir, abs)] = readFileSync(abs, 'utf8');
    }
  };
  walk(dir);
  return out;
}

function frontmatter(file: string): Record<string, unknown> {
  const text = readFileSync(file, 'utf8');
  return yaml.load(text.split('---\n')[1]!) as Record<string, unknown>;
}

/** `validate --strict --json` on a folder: the exit code and the counts. */
async function strictValidate(path: string, cwd: string) {
  const r = await runCli(['validate', '--strict', '--json', path], { cwd });
  const doc = JSON.parse(r.stdout);
  return {
    exitCode: r.exitCode,
    errorCount: doc.errorCount,
    warningCount: doc.warningCount,
    diagnostics: doc.skills.flatMap((s: { diagnostics: unknown[] }) => s.diagnostics),
  };
}

async function inTemp(fn: (dir: string) => Promise<void>) {
  const t = tempDir('skills-init-e2e-');
  try {
    await fn(t.dir);
  } finally {
    t.cleanup();
  }
}

describe('skills init (built CLI)', () => {
  it('says what lint says of a name with a reserved word, and lint then passes it with the same warning', () =>
    inTemp(async (dir) => {
      const r = await runCli(['init', 'claude-helper', '--yes'], { cwd: dir });
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toContain('warning: "claude-helper" contains "claude", a word Anthropic reserves');
      const lint = await runCli(['lint', 'claude-helper'], { cwd: dir });
      expect(lint.exitCode, lint.stdout).toBe(0);
      expect(lint.stdout).toContain('a word Anthropic reserves');
    }));

  it('creates a SKILL.md skill with --yes that passes validate --strict with no findings', () =>
    inTemp(async (dir) => {
      const r = await runCli(['init', 'my-skill', '--yes'], { cwd: dir });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(
        'Created my-skill/ (skill-md): SKILL.md\nNext: edit SKILL.md, then run skills lint my-skill (it says what is still the template)',
      );
      expect(readdirSync(dir)).toEqual(['my-skill']);
      const fm = frontmatter(join(dir, 'my-skill/SKILL.md'));
      expect(fm).toEqual({
        name: 'my-skill',
        description: expect.stringMatching(/^My Skill .*\. Use when .*\.$/),
        metadata: { version: '1.0.0' },
      });
      expect(readFileSync(join(dir, 'my-skill/SKILL.md'), 'utf8')).toMatch(/^ {2}version: "1\.0\.0"$/m);
      const v = await strictValidate('my-skill', dir);
      expect(v).toMatchObject({ exitCode: 0, errorCount: 0, warningCount: 0, diagnostics: [] });
      const plain = await runCli(['validate', '--strict', 'my-skill'], { cwd: dir });
      expect(plain.exitCode).toBe(0);
      expect(plain.stdout).not.toMatch(/warning/);
    }));

  it('lint says what is still the template (SK130), for both layouts, until the author writes their own', () =>
    inTemp(async (dir) => {
      for (const [name, layout, parts] of [
        ['ledger-reports', 'skill-md', 'references'],
        ['ledger-tools', 'manifest', 'scripts'],
      ] as const) {
        expect(
          (await runCli(['init', name, '--yes', '--layout', layout, '--with', parts], { cwd: dir })).exitCode,
        ).toBe(0);
      }
      const lint = await runCli(['lint', '.', '--format', 'json', '--no-cache'], { cwd: dir });
      expect(lint.exitCode, lint.stdout).toBe(0);
      type Out = {
        skills: { id: string; diagnostics: { ruleId: string; file: string; line: number; message: string }[] }[];
      };
      const found = (out: string) =>
        (JSON.parse(out) as Out).skills
          .flatMap((k) =>
            k.diagnostics.filter((d) => d.ruleId === 'SK130').map((d) => `${relative(dir, d.file)}:${d.line}`),
          )
          .sort();
      expect(found(lint.stdout)).toEqual([
        'ledger-reports/SKILL.md:19',
        'ledger-reports/SKILL.md:3',
        'ledger-reports/references/REFERENCE.md:13',
        'ledger-tools/context/instructions.md:7',
        'ledger-tools/manifest.json:5',
      ]);
      // The author writes the description and the steps: nothing of the template is left to report.
      const file = join(dir, 'ledger-reports/SKILL.md');
      const own = readFileSync(file, 'utf8')
        .replace(
          /^description: .*$/m,
          'description: Turns ledger CSV exports into monthly reports. Use when the user asks for a monthly report.',
        )
        .replace(/^1\. Restate .*$/m, '1. Read the ledger export the user names.')
        .replace(/^\*\*Agent:\*\* Follows .*$/m, '**Agent:** Reads ledger.csv and writes report-2026-10.md.');
      writeFileSync(file, own);
      writeFileSync(
        join(dir, 'ledger-reports/references/REFERENCE.md'),
        '# Ledger columns\n\nDate, amount, account.\n',
      );
      const again = await runCli(['lint', 'ledger-reports', '--format', 'json', '--no-cache'], { cwd: dir });
      expect(found(again.stdout)).toEqual([]);
    }));

  it('creates a manifest skill with --yes that passes validate --strict with no findings', () =>
    inTemp(async (dir) => {
      const r = await runCli(
        ['init', 'pdf-tools', '--layout', 'manifest', '--owner', 'bee-7', '--skill-version', '0.2.0', '--yes'],
        { cwd: dir },
      );
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(
        'Created pdf-tools/ (manifest): README.md, context/examples.md, context/instructions.md, manifest.json, scripts/example.sh\n',
      );
      const m = JSON.parse(readFileSync(join(dir, 'pdf-tools/manifest.json'), 'utf8'));
      expect(m).toEqual({
        id: 'pdf-tools',
        name: 'Pdf Tools',
        version: '0.2.0',
        description: expect.stringMatching(/ Use when /),
        owner: 'bee-7',
        context: ['context/instructions.md', 'context/examples.md'],
        scripts: ['scripts/example.sh'],
      });
      expect(await strictValidate('pdf-tools', dir)).toMatchObject({ exitCode: 0, errorCount: 0, warningCount: 0 });
    }));

  it('creates the folders chosen with --with, each non-empty and named in SKILL.md', () =>
    inTemp(async (dir) => {
      const r = await runCli(
        [
          'init',
          'full',
          '--yes',
          '--with',
          'scripts,references',
          '--with',
          'assets',
          '--owner',
          'peterbot',
          '--description',
          'Handles "full" jobs: all parts. Use when #everything is needed.',
        ],
        { cwd: dir },
      );
      expect(r.exitCode).toBe(0);
      const files = Object.keys(snapshot(join(dir, 'full'))).sort();
      expect(files).toEqual(['SKILL.md', 'assets/template.json', 'references/REFERENCE.md', 'scripts/example.py']);
      const text = readFileSync(join(dir, 'full/SKILL.md'), 'utf8');
      for (const f of files.filter((f) => f !== 'SKILL.md')) {
        expect(text).toContain(f);
        expect(statSync(join(dir, 'full', f)).size).toBeGreaterThan(20);
      }
      expect(frontmatter(join(dir, 'full/SKILL.md'))).toMatchObject({
        description: 'Handles "full" jobs: all parts. Use when #everything is needed.',
        metadata: { author: 'peterbot', version: '1.0.0' },
      });
      expect(JSON.parse(readFileSync(join(dir, 'full/assets/template.json'), 'utf8'))).toMatchObject({ skill: 'full' });
      for (const [f, content] of Object.entries(snapshot(join(dir, 'full'))))
        expect(content, f).not.toMatch(/TODO|FIXME|\[TODO:|\{\{/);
      expect(await strictValidate('full', dir)).toMatchObject({ exitCode: 0, errorCount: 0, warningCount: 0 });
      const spec = await runCli(['validate', '--spec', 'full'], { cwd: dir });
      expect(spec.exitCode).toBe(0);
    }));

  it('creates the skill in --dir, making the parent folders', () =>
    inTemp(async (dir) => {
      const r = await runCli(['init', 'nested', '--yes', '--dir', 'skills/project'], { cwd: dir });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('Created skills/project/nested/ (skill-md)');
      expect(r.stdout).toMatch(/then run skills lint skills\/project\/nested \(it says what is still the template\)$/);
      expect(readdirSync(join(dir, 'skills/project/nested'))).toEqual(['SKILL.md']);
      expect(await strictValidate('skills/project/nested', dir)).toMatchObject({ exitCode: 0, warningCount: 0 });
    }));

  it('uses defaults without a terminal and names them on stderr', () =>
    inTemp(async (dir) => {
      const r = await runCli(['init', 'quiet-one'], { cwd: dir });
      expect(r.exitCode).toBe(0);
      const m = /^using defaults: layout skill-md, description "(.+)", version 1\.0\.0, no optional folders/m.exec(
        r.stderr,
      );
      expect(m).not.toBeNull();
      expect(frontmatter(join(dir, 'quiet-one/SKILL.md'))).toMatchObject({ name: 'quiet-one', description: m![1] });
      // what the flags answered is not called a default
      const some = await runCli(
        ['init', 'given', '--layout', 'manifest', '--description', 'Given things. Use when given.'],
        { cwd: dir },
      );
      expect(some.exitCode).toBe(0);
      expect(some.stderr).toBe('using defaults: owner built-in, version 1.0.0');
    }));

  it.each([
    ['My_Skill', [], 'name-lowercase', 'my-skill'],
    ['-lead', [], 'name-hyphens', 'lead'],
    ['a--b', [], 'name-hyphens', 'a-b'],
    ['rocket🚀', [], 'name-characters', 'rocket'],
    ['x'.repeat(65), [], 'name-length', 'x'.repeat(64)],
    ['café', ['--layout', 'manifest'], 'id-format', 'cafe'],
  ])(
    'refuses the invalid name %j %j with the rule (%s) and a valid suggestion, writing nothing',
    (name, flags, rule, suggestion) =>
      inTemp(async (dir) => {
        // `--` lets a name that starts with a hyphen reach init instead of the option parser
        const r = await runCli(['init', ...flags, '--yes', '--', name], { cwd: dir });
        expect(r.exitCode).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(`error: invalid skill name (${rule}): `);
        expect(r.stderr.split('\n')).toContain(`hint: try: skills init ${suggestion}`);
        expect(readdirSync(dir)).toEqual([]);
        const ok = await runCli(['init', ...flags, '--yes', '--', suggestion], { cwd: dir });
        expect(ok.exitCode).toBe(0);
      }),
  );

  it('refuses a description with < or > or over 1024 characters, writing nothing', () =>
    inTemp(async (dir) => {
      const angle = await runCli(['init', 'x', '--description', 'Makes <b> tags. Use when asked.'], { cwd: dir });
      expect(angle.exitCode).toBe(2);
      expect(angle.stderr).toContain('must not contain < or >');
      const long = await runCli(['init', 'x', '--description', 'd'.repeat(1025)], { cwd: dir });
      expect(long.exitCode).toBe(2);
      expect(long.stderr).toContain('1025 characters long; at most 1024');
      const version = await runCli(['init', 'x', '--skill-version', 'v1'], { cwd: dir });
      expect(version.exitCode).toBe(2);
      expect(version.stderr).toContain('not a semantic version');
      expect(readdirSync(dir)).toEqual([]);
    }));

  it('never overwrites a non-empty folder, and reports E_EXISTS in --json', () =>
    inTemp(async (dir) => {
      writeTree(dir, {
        'taken/SKILL.md': '---\nname: taken\ndescription: Mine. Use when mine.\n---\nMy own words.\n',
        'taken/notes/.keep': 'keep\n',
      });
      const before = snapshot(dir);
      const r = await runCli(['init', 'taken', '--yes', '--with', 'scripts'], { cwd: dir });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/^error: .*taken already exists and is not empty; nothing was written\nhint: /);
      const j = await runCli(['init', 'taken', '--yes', '--json'], { cwd: dir });
      expect(j.exitCode).toBe(2);
      expect(JSON.parse(j.stdout)).toEqual({
        error: { code: 'E_EXISTS', message: expect.stringContaining('not empty'), hint: expect.any(String) },
      });
      expect(snapshot(dir)).toEqual(before);
      expect(readdirSync(dir)).toEqual(['taken']);
    }));

  it('uses an existing empty folder', () =>
    inTemp(async (dir) => {
      mkdirSync(join(dir, 'empty'));
      const r = await runCli(['init', 'empty', '--yes'], { cwd: dir });
      expect(r.exitCode).toBe(0);
      expect(readdirSync(join(dir, 'empty'))).toEqual(['SKILL.md']);
      expect(readdirSync(dir)).toEqual(['empty']);
    }));

  it('prints exactly one JSON document with --json', () =>
    inTemp(async (dir) => {
      const r = await runCli(['init', 'json-one', '--yes', '--json', '--with', 'scripts'], { cwd: dir });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        path: join(dir, 'json-one'),
        name: 'json-one',
        layout: 'skill-md',
        files: ['SKILL.md', 'scripts/example.py'],
      });
      const bad = await runCli(['init', 'Bad', '--json'], { cwd: dir });
      expect(bad.exitCode).toBe(2);
      expect(JSON.parse(bad.stdout)).toEqual({
        error: { code: 'E_USAGE', message: expect.stringContaining('name-lowercase'), hint: 'try: skills init bad' },
      });
    }));

  it('writes executable scripts that follow the JSON in, {"success": true, "result"} out convention', () =>
    inTemp(async (dir) => {
      expect((await runCli(['init', 'py-one', '--yes', '--with', 'scripts'], { cwd: dir })).exitCode).toBe(0);
      expect((await runCli(['init', 'sh-one', '--yes', '--layout', 'manifest'], { cwd: dir })).exitCode).toBe(0);
      const py = join(dir, 'py-one/scripts/example.py');
      const sh = join(dir, 'sh-one/scripts/example.sh');
      for (const f of [py, sh]) expect(statSync(f).mode & 0o777).toBe(0o755);
      expect(readFileSync(sh, 'utf8')).toMatch(/^#!\/usr\/bin\/env bash\n(?:#.*\n)*set -euo pipefail\n/);
      expect(readFileSync(py, 'utf8')).toMatch(/^#!\/usr\/bin\/env python3\n/);
      const lastJson = (s: string) => JSON.parse(s.trim().split('\n').at(-1)!);

      const p = await execa('python3', [py, '{}'], { reject: false });
      expect(p.exitCode).toBe(0);
      expect(lastJson(p.stdout)).toEqual({ success: true, result: { greeting: 'Hello, world!' } });
      const pIn = await execa(py, [], { input: '{"name": "Ada"}', reject: false });
      expect(lastJson(pIn.stdout)).toEqual({ success: true, result: { greeting: 'Hello, Ada!' } });
      const pBad = await execa('python3', [py, '[1]'], { reject: false });
      expect(pBad.exitCode).toBe(1);
      expect(lastJson(pBad.stdout)).toMatchObject({ success: false, error: expect.any(String) });

      const s = await execa('bash', [sh, '{}'], { reject: false });
      expect(s.exitCode).toBe(0);
      expect(lastJson(s.stdout)).toEqual({ success: true, result: { skill: 'sh-one', args: {} } });
      const sIn = await execa(sh, [], { input: '{\n  "ping": true\n}\n', reject: false });
      expect(sIn.exitCode).toBe(0);
      expect(lastJson(sIn.stdout)).toEqual({ success: true, result: { skill: 'sh-one', args: { ping: true } } });
      const sBad = await execa('bash', [sh, 'nope'], { reject: false });
      expect(sBad.exitCode).toBe(1);
      expect(lastJson(sBad.stdout)).toMatchObject({ success: false });
    }));

  it('leaves nothing behind when a write fails half-way (file size limit: EFBIG)', () =>
    inTemp(async (dir) => {
      // ulimit -f 0 lets the staging folder and its files be created but not written to: a real I/O failure
      // after init has started writing, which root cannot bypass.
      const home = mkdtempSync(join(tmpdir(), 'skills-home-'));
      try {
        const r = await execa(
          'bash',
          [
            '-c',
            'ulimit -f 0 && exec "$@"',
            'bash',
            process.execPath,
            BIN,
            'init',
            'doomed',
            '--yes',
            '--dir',
            'new/parent',
          ],
          {
            cwd: dir,
            env: testEnv(home),
            extendEnv: false,
            reject: false,
            stdin: 'ignore',
          },
        );
        expect(r.exitCode).toBe(2);
        expect(r.stderr).toMatch(/^error: cannot create .*doomed: .*; nothing was written$/m);
        expect(r.stderr).not.toContain('please report');
        // neither the staging folder (.doomed.tmp-…) nor the parents init made are left
        expect(readdirSync(dir)).toEqual([]);
        // with a parent that existed, only the staging folder goes
        mkdirSync(join(dir, 'kept'));
        const again = await execa(
          'bash',
          ['-c', 'ulimit -f 0 && exec "$@"', 'bash', process.execPath, BIN, 'init', 'doomed', '--yes', '--dir', 'kept'],
          {
            cwd: dir,
            env: testEnv(home),
            extendEnv: false,
            reject: false,
            stdin: 'ignore',
          },
        );
        expect(again.exitCode).toBe(2);
        expect(readdirSync(join(dir, 'kept'))).toEqual([]);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    }));

  it('refuses a file at the target, or a --dir that runs through a file, writing nothing', () =>
    inTemp(async (dir) => {
      writeFileSync(join(dir, 'plain'), 'a file\n');
      const r = await runCli(['init', 'plain', '--yes'], { cwd: dir });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('already exists and is not a folder');
      const d = await runCli(['init', 'sub', '--yes', '--dir', 'plain/deeper'], { cwd: dir });
      expect(d.exitCode).toBe(2);
      expect(d.stderr).toContain('is a file');
      expect(snapshot(dir)).toEqual({ plain: 'a file\n' });
    }));
});

/** Run the CLI on a pseudo-terminal (util-linux `script`), answering each prompt when it appears. */
async function runInPty(
  args: string[],
  cwd: string,
  steps: [RegExp, string][],
): Promise<{ exitCode: number | null; output: string }> {
  const home = mkdtempSync(join(tmpdir(), 'skills-home-'));
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const child = spawn('script', ['-qfec', [process.execPath, BIN, ...args].map(q).join(' '), '/dev/null'], {
    cwd,
    env: testEnv(home, { TERM: 'xterm', COLUMNS: '200' }),
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  const closed = new Promise<number | null>((res) => child.on('close', res));
  try {
    let from = 0;
    for (const [re, keys] of steps) {
      const t0 = Date.now();
      for (;;) {
        const m = re.exec(output.slice(from));
        if (m) {
          from += m.index + m[0].length;
          break;
        }
        if (Date.now() - t0 > 15_000) throw new Error(`no ${re} on the terminal; it showed:\n${output}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      child.stdin.write(keys);
    }
    return { exitCode: await closed, output };
  } finally {
    child.kill();
    rmSync(home, { recursive: true, force: true });
  }
}

describe('skills init on a terminal (prompts)', () => {
  it('has util-linux `script` to make a terminal with', () => {
    expect(spawnSync('script', ['--version']).status, 'install util-linux (bsdutils) for `script`').toBe(0);
  });

  it('asks for what the flags left open, and writes the answers', () =>
    inTemp(async (dir) => {
      const r = await runInPty(['init', 'asked', '--with', 'scripts'], dir, [
        [/\? Layout/, '\r'],
        [/\? Description/, 'Asked things, one by one. Use when testing prompts.\r'],
        [/\? Version/, '2.3.4\r'],
      ]);
      expect(r.output).toContain('Created asked/ (skill-md): SKILL.md, scripts/example.py');
      expect(r.exitCode).toBe(0);
      expect(r.output).not.toMatch(/Optional folders|using defaults|Owner/);
      expect(frontmatter(join(dir, 'asked/SKILL.md'))).toEqual({
        name: 'asked',
        description: 'Asked things, one by one. Use when testing prompts.',
        metadata: { version: '2.3.4' },
      });
      expect(await strictValidate('asked', dir)).toMatchObject({ exitCode: 0, warningCount: 0 });
    }));

  it('picks the manifest layout with the arrow keys and asks for its owner; the folders prompt toggles with space', () =>
    inTemp(async (dir) => {
      const m = await runInPty(['init', 'picked', '--description', 'Picked things. Use when picking.'], dir, [
        [/\? Layout/, '\x1b[B'],
        [/❯ manifest/, '\r'],
        [/\? Owner/, 'bee-42\r'],
        [/\? Version/, '\r'],
      ]);
      expect(m.exitCode).toBe(0);
      expect(m.output).not.toMatch(/\? Description/);
      expect(JSON.parse(readFileSync(join(dir, 'picked/manifest.json'), 'utf8'))).toMatchObject({
        owner: 'bee-42',
        version: '1.0.0',
        description: 'Picked things. Use when picking.',
      });

      const f = await runInPty(
        [
          'init',
          'folders',
          '--layout',
          'skill-md',
          '--description',
          'Folder things. Use when folders.',
          '--skill-version',
          '1.0.0',
        ],
        dir,
        [
          [/\? Optional folders/, ' '],
          [/◉ scripts/, '\x1b[B\x1b[B'],
          [/❯◯ assets/, ' '],
          [/◉ assets/, '\r'],
        ],
      );
      expect(f.exitCode).toBe(0);
      expect(Object.keys(snapshot(join(dir, 'folders'))).sort()).toEqual([
        'SKILL.md',
        'assets/template.json',
        'scripts/example.py',
      ]);
    }));

  it('does not prompt with --yes, even on a terminal', () =>
    inTemp(async (dir) => {
      const r = await runInPty(['init', 'yes-one', '--yes'], dir, []);
      expect(r.exitCode).toBe(0);
      expect(r.output).toContain('using defaults: layout skill-md');
      expect(r.output).not.toMatch(/\? Layout/);
      expect(readdirSync(join(dir, 'yes-one'))).toEqual(['SKILL.md']);
    }));
});
