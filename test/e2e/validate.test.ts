import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES, FIXTURES, ROOT, runCli, tempDir } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const good = (name: string) =>
  skillMd(`name: ${name}\ndescription: Does ${name}. Use when the user asks for ${name}.\n`);

describe('skills validate (built CLI)', () => {
  it('passes the bundled example skills of both layouts', async () => {
    const r = await runCli(['validate', 'examples/skills', '--strict']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/✔ examples\/skills\/web-scraping \(skill-md 1\.2\.0\)/);
    expect(r.stdout).toMatch(/✔ examples\/skills\/social-media-apis \(manifest 2\.1\.0\)/);
    expect(r.stdout).toMatch(/\d+ skills valid/);
  });

  it('reports each broken skill with file:line:column, rule and expectation, and exits 1', async () => {
    const r = await runCli(['validate', 'test/fixtures/invalid']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('test/fixtures/invalid/unquoted-colon/SKILL.md:3:');
    expect(r.stdout).toContain('SK003 yaml-syntax');
    expect(r.stdout).toContain('quote it: description: "Scrape pages. Use when: the user wants data"');
    expect(r.stdout).toContain(
      'test/fixtures/invalid/Bad_Name/SKILL.md:2:1  error    name "Bad_Name" must be lowercase: expected "bad-name"',
    );
    expect(r.stdout).toContain(
      'test/fixtures/invalid/manifest-broken/manifest.json:5:3  error    manifest.json is not valid JSON: expected "," between entries at line 5, column 3',
    );
    expect(r.stdout).toContain(
      'test/fixtures/invalid/no-frontmatter/SKILL.md:1:1  error    SKILL.md must begin with YAML frontmatter',
    );
    expect(r.stdout).toMatch(/4 invalid$/m);
  });

  it('prints one JSON document with --format json', async () => {
    const r = await runCli([
      'validate',
      '--format',
      'json',
      'test/fixtures/invalid/Bad_Name',
      'examples/skills/basic-tools',
    ]);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.errorCount).toBeGreaterThanOrEqual(2);
    expect(doc.warningCount).toBe(0);
    expect(doc.skills).toHaveLength(2);
    const bad = doc.skills[0];
    expect(bad).toMatchObject({
      id: 'Bad_Name',
      layout: 'skill-md',
      valid: false,
      path: join(ROOT, 'test/fixtures/invalid/Bad_Name'),
    });
    expect(bad.diagnostics[0]).toMatchObject({
      ruleId: 'SK007',
      severity: 'error',
      file: join(ROOT, 'test/fixtures/invalid/Bad_Name/SKILL.md'),
      line: 2,
      column: 1,
    });
    expect(doc.skills[1]).toMatchObject({ id: 'basic-tools', layout: 'manifest', valid: true, diagnostics: [] });
  });

  it('fails on warnings only with --strict', async () => {
    const t = tempDir();
    try {
      writeTree(t.dir, { 'w/SKILL.md': skillMd('name: w\ndescription: Does w. Use when w.\ncolour: blue\n') });
      const plain = await runCli(['validate', 'w'], { cwd: t.dir });
      expect(plain.exitCode).toBe(0);
      expect(plain.stdout).toContain('w/SKILL.md:4:1  warning  unknown frontmatter key "colour"');
      expect(plain.stdout).toContain('1 problem (0 errors, 1 warning) in 1 skill; 0 invalid');
      const strict = await runCli(['validate', '--strict', 'w'], { cwd: t.dir });
      expect(strict.exitCode).toBe(1);
      // The summary counts what it marks ✖, as --json says valid: false.
      expect(strict.stdout).toContain('✖ w (skill-md)');
      expect(strict.stdout).toContain('1 problem (0 errors, 1 warning) in 1 skill; 1 invalid');
      const json = JSON.parse((await runCli(['validate', '--strict', '--json', 'w'], { cwd: t.dir })).stdout);
      expect(json.skills[0].valid).toBe(false);
    } finally {
      t.cleanup();
    }
  });

  it('finds a SKILL.md named in another case, alone or in a search, and names the file in SK018', async () => {
    const t = tempDir();
    try {
      writeTree(t.dir, { 'upper/SKILL.MD': good('upper'), 'skills/mixed/Skill.md': good('mixed') });
      for (const [path, file] of [
        ['upper', 'upper/SKILL.MD'],
        ['skills', 'skills/mixed/Skill.md'],
      ] as const) {
        const r = await runCli(['validate', path], { cwd: t.dir });
        expect(r.exitCode, r.stderr).toBe(0);
        const name = file.split('/').at(-1)!;
        expect(r.stdout).toContain(
          `${file}  warning  the skill file is named ${name}; the standard name is SKILL.md: agents on macOS and Windows, whose file names ignore case, load it, but not on Linux  SK018 skill-file-name`,
        );
        expect(r.stdout).toContain(`hint: rename it: git mv ${name} SKILL.md`);
      }
    } finally {
      t.cleanup();
    }
  });

  it('says a typed-looking value is read as text, without the comment after it', async () => {
    const t = tempDir();
    try {
      writeTree(t.dir, {
        'c/SKILL.md': skillMd('name: c\ndescription: Does c. Use when c.\ncompatibility: yes # not yet\n'),
      });
      const r = await runCli(['validate', 'c'], { cwd: t.dir });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(
        'c/SKILL.md:4:1  warning  compatibility: yes is read as the text "yes", not as a boolean  SK017 scalar-as-text',
      );
      expect(r.stdout).toContain('hint: quote it to say so: compatibility: "yes"');
    } finally {
      t.cleanup();
    }
  });

  it("passes over another program's manifest.json in a repository, and checks it when it is named", async () => {
    const t = tempDir();
    try {
      writeTree(t.dir, {
        'plugin/skills/review/SKILL.md': good('review'),
        'plugin/prompts/clusters/manifest.json': JSON.stringify({ version: 1, clusters: [{ cluster_id: 'a' }] }),
        'plugin/prompts/clusters/a.md': '# A\n',
        // A browser extension, an MCP bundle and a test's fixture list, as real repositories hold them.
        'plugin/extension/manifest.json': JSON.stringify({
          manifest_version: 3,
          name: 'Filter',
          description: 'Warns.',
        }),
        'plugin/mcp/manifest.json': JSON.stringify({ dxt_version: '0.1', name: '@x/mcp', description: 'Tools.' }),
        'plugin/tests/fixtures/manifest.json': JSON.stringify([{ file: 'a.sh', expected: 'DETECT' }]),
        'half-done/manifest.json': JSON.stringify({ id: 'half-done', scripts: [] }),
      });
      const r = await runCli(['validate', 'plugin'], { cwd: t.dir });
      expect(r.stdout).toContain('✔ plugin/skills/review (skill-md)');
      expect(r.stdout).toMatch(/^1 skill valid$/m);
      expect(r.stdout).not.toMatch(/clusters|extension|mcp|fixtures/);
      expect(r.exitCode).toBe(0);
      const lint = await runCli(['lint', 'plugin', '--format', 'json', '--no-cache'], { cwd: t.dir });
      expect(JSON.parse(lint.stdout).skills.map((s: { path: string }) => s.path)).toEqual([
        join(t.dir, 'plugin/skills/review'),
      ]);
      // A manifest with any field of a manifest skill is a skill's, and is checked.
      const all = await runCli(['validate', '.'], { cwd: t.dir });
      expect(all.exitCode).toBe(1);
      expect(all.stdout).toContain('half-done/manifest.json:1:1  error    name is missing');
      expect(all.stdout).not.toContain('clusters');
      // Named itself, it is checked as the skill it was said to be.
      const named = await runCli(['validate', 'plugin/prompts/clusters'], { cwd: t.dir });
      expect(named.exitCode).toBe(1);
      expect(named.stdout).toContain('plugin/prompts/clusters/manifest.json:1:1  error    id is missing');
      const extension = await runCli(['validate', 'plugin/extension'], { cwd: t.dir });
      expect(extension.exitCode).toBe(1);
      expect(extension.stdout).toContain('plugin/extension/manifest.json:1:1  error    id is missing');
    } finally {
      t.cleanup();
    }
  });

  it("takes Claude Code's effort, paths and shell keys as known, and still names a typo", async () => {
    const t = tempDir();
    try {
      writeTree(t.dir, {
        'audit/SKILL.md': skillMd(
          'name: audit\ndescription: Audits code. Use when the user asks for an audit.\neffort: high\npaths:\n  - "src/**/*.c"\nshell: bash\n',
        ),
        'typo/SKILL.md': skillMd('name: typo\ndescription: Does typo. Use when typo.\neffrot: high\n'),
      });
      const r = await runCli(['validate', 'audit', 'typo', '--format', 'json'], { cwd: t.dir });
      const rules = (
        JSON.parse(r.stdout) as { skills: { id: string; diagnostics: { rule: string; message: string }[] }[] }
      ).skills.map((s) => [s.id, s.diagnostics.map((d) => `${d.rule}: ${d.message}`)]);
      expect(rules).toEqual([
        ['audit', []],
        ['typo', [expect.stringMatching(/^unknown-key: unknown frontmatter key "effrot"/)]],
      ]);
    } finally {
      t.cleanup();
    }
  });

  it('checks against the bare specification with --spec', async () => {
    const r = await runCli([
      'validate',
      '--spec',
      'examples/skills/hello-extended',
      'examples/skills/timeplus-sql-guide',
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/"version" is not a field of the Agent Skills specification/);
    expect(r.stdout).toMatch(/✔ examples\/skills\/timeplus-sql-guide/);
  });

  it('maps files to their skills, checks each skill once, and ignores files outside skills (pre-commit)', async () => {
    const t = tempDir();
    try {
      writeTree(t.dir, {
        'skills/a/SKILL.md': good('a'),
        'skills/a/references/r.md': '# R',
        'skills/b/manifest.json': JSON.stringify({
          id: 'b',
          name: 'B',
          version: '1.0.0',
          description: 'B. Use when b.',
          owner: 'built-in',
          scripts: ['scripts/x.sh'],
        }),
        'skills/b/scripts/x.sh': { content: '#!/bin/sh\necho\n', mode: 0o755 },
        'README.md': '# repo',
      });
      const r = await runCli(
        ['validate', '--json', 'skills/a/SKILL.md', 'skills/a/references/r.md', 'skills/b/scripts/x.sh', 'README.md'],
        { cwd: t.dir },
      );
      expect(r.exitCode).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.skills.map((s: { id: string }) => s.id)).toEqual(['a', 'b']);
      const folder = await runCli(['validate', '--json', 'skills/b/scripts'], { cwd: t.dir });
      expect(JSON.parse(folder.stdout).skills.map((s: { id: string }) => s.id)).toEqual(['b']);
      const only = await runCli(['validate', 'README.md'], { cwd: t.dir });
      expect(only.exitCode).toBe(0);
      expect(only.stdout).toContain('no skills to validate (1 file outside any skill ignored)');
    } finally {
      t.cleanup();
    }
  });

  it('discovers skills below a folder, skipping .git, node_modules and what .gitignore names', async () => {
    const t = tempDir();
    try {
      writeTree(t.dir, {
        'repo/.gitignore': 'build/\n',
        'repo/skills/deep/er/one/SKILL.md': good('one'),
        'repo/skills/two/SKILL.md': good('two'),
        'repo/node_modules/dep/SKILL.md': '# broken',
        'repo/build/out/SKILL.md': '# broken',
        'repo/.git/x/SKILL.md': '# broken',
      });
      mkdirSync(join(t.dir, 'repo/.git/objects'), { recursive: true });
      symlinkSync(join(t.dir, 'repo'), join(t.dir, 'repo/skills/loop'));
      const r = await runCli(['validate', '--json', 'repo'], { cwd: t.dir });
      expect(r.exitCode).toBe(0);
      const ids = JSON.parse(r.stdout)
        .skills.map((s: { id: string }) => s.id)
        .sort();
      expect(ids).toEqual(['one', 'two']);
    } finally {
      t.cleanup();
    }
  });

  it('exits 2 with a clear message for a missing path or a folder holding no skill', async () => {
    const missing = await runCli(['validate', 'no/such/dir']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('error: no/such/dir: no such file or folder');
    const t = tempDir();
    try {
      writeFileSync(join(t.dir, 'notes.txt'), 'x');
      const empty = await runCli(['validate', '.'], { cwd: t.dir });
      expect(empty.exitCode).toBe(2);
      expect(empty.stderr).toContain('is not a skill and holds none');
      const json = await runCli(['validate', '--json', '.'], { cwd: t.dir });
      expect(json.exitCode).toBe(2);
      expect(JSON.parse(json.stdout).error.code).toBe('E_NOT_FOUND');
      // A SKILL.md that is a folder is named as such.
      mkdirSync(join(t.dir, 'odd', 'SKILL.md'), { recursive: true });
      const odd = await runCli(['validate', 'odd'], { cwd: t.dir });
      expect(odd.exitCode).toBe(2);
      expect(odd.stderr).toContain(
        'error: odd is not a skill and holds none (no SKILL.md or manifest.json below it): odd/SKILL.md is a folder, not a regular file\n',
      );
      expect(odd.stderr).toContain('hint: SKILL.md must be a file');
    } finally {
      t.cleanup();
    }
  });

  it('exits 2 on usage errors', async () => {
    const r = await runCli(['validate', '--format', 'xml', 'examples/skills']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/xml.*is invalid|Allowed choices/);
    const u = await runCli(['valdate']);
    expect(u.exitCode).toBe(2);
    expect(u.stderr).toMatch(/unknown command 'valdate'[\s\S]*validate/);
  });

  it('refuses to read a huge SKILL.md and says why', async () => {
    const t = tempDir();
    try {
      writeTree(t.dir, { 'huge/SKILL.md': good('huge') + 'x'.repeat(5 * 1024 * 1024) });
      const r = await runCli(['validate', 'huge'], { cwd: t.dir });
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toMatch(/SKILL\.md is \d+ bytes; at most 4194304 bytes are read/);
    } finally {
      t.cleanup();
    }
  });

  it("survives a stranger's hostile files: deep nesting, alias bombs, NUL bytes, long runs of spaces", async () => {
    const t = tempDir();
    try {
      const bomb = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
      for (let i = 1; i < 10; i++)
        bomb.push(
          `a${i}: &a${i} [${Array(9)
            .fill(`*a${i - 1}`)
            .join(', ')}]`,
        );
      writeTree(t.dir, {
        'deepjson/manifest.json': `{"id": "deepjson", "x": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
        'deepyaml/SKILL.md': skillMd(
          `name: deepyaml\ndescription: d. Use when x.\nx: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`,
        ),
        'bomb/SKILL.md': skillMd(
          `name: bomb\ndescription: d. Use when x.\n${bomb.join('\n')}\nscripts: *a9\ntriggers:\n  keywords: *a9\nmetadata:\n  x: *a9\n`,
        ),
        'nul/SKILL.md': '---\nname: nul\ndescription: a\u0000b\n---\n',
        'spaces/SKILL.md': skillMd(`name: spaces\ndescription: word word\n  word${' '.repeat(200_000)}word\n`),
        'quoted/SKILL.md': skillMd(`name: quoted\ndescription: "use${' '.repeat(200_000)}"\n`),
      });
      const r = await runCli(['validate', '--json', '.'], { cwd: t.dir });
      expect(r.exitCode).toBe(1);
      const byId = Object.fromEntries(
        JSON.parse(r.stdout).skills.map((s: { id: string; diagnostics: { message: string }[] }) => [
          s.id,
          s.diagnostics.map((d) => d.message).join('\n'),
        ]),
      );
      expect(byId.deepjson).toContain('nests arrays or objects too deeply');
      expect(byId.deepyaml).toMatch(/does not parse: nesting exceeded maxDepth/);
      expect(byId.bomb).toMatch(/scripts must be a list, found|scripts\[0\] must be text/);
      expect(byId.nul).toMatch(/null byte is not allowed/);
      expect(byId.spaces).toMatch(/description is 2000\d\d characters long/);
      // Quoted spaces are trimmed before measuring: a short, valid description (and no hang on the way).
      expect(byId.quoted).toBe('');
    } finally {
      t.cleanup();
    }
  });

  it('answers --version and --help', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const v = await runCli(['--version']);
    expect(v).toMatchObject({ exitCode: 0, stdout: pkg.version });
    const h = await runCli(['--help']);
    expect(h.exitCode).toBe(0);
    // The list of commands names each (and its aliases); a command's arguments are in its own --help.
    expect(h.stdout).toMatch(/^ {2}validate {2,}check skills/m);
    expect(h.stdout).toMatch(/^ {2}install, add {2,}/m);
    expect((await runCli(['validate', '--help'])).stdout).toMatch(
      /^Usage: skills validate \[options\] \[paths\.\.\.\]/,
    );
  });

  it('colours output when asked, and not with NO_COLOR', async () => {
    const c = await runCli(['validate', '--color', join(EXAMPLES, 'basic-tools')]);
    expect(c.stdout).toContain('\u001b[');
    const n = await runCli(['validate', join(EXAMPLES, 'basic-tools')]);
    expect(n.stdout).not.toContain('\u001b[');
  });

  it("passes an OpenClaw or Hermes skill's mapping under metadata with a warning; --strict fails it", async () => {
    const { dir, cleanup } = tempDir();
    writeTree(dir, {
      'gh-issues/SKILL.md': skillMd(
        'name: gh-issues\ndescription: Triage GitHub issues. Use when asked to sort issues.\nmetadata:\n  openclaw:\n    requires:\n      bins: [gh]\n  author: me',
      ),
    });
    const r = await runCli(['validate', dir]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(
      'gh-issues/SKILL.md:5:3  warning  metadata.openclaw is a mapping, not text  SK014 metadata-format',
    );
    expect((await runCli(['validate', dir, '--strict'])).exitCode).toBe(1);
    const { dir: broken, cleanup: cleanup2 } = tempDir();
    writeTree(broken, { 'x/SKILL.md': skillMd('name: x\ndescription: Does x. Use when asked.\nmetadata: [a, b]') });
    const b = await runCli(['validate', broken]);
    expect(b.exitCode).toBe(1);
    expect(b.stdout).toContain('error    metadata must be a mapping, found a list  SK014 metadata-format');
    cleanup();
    cleanup2();
  });

  it('warns of a SKILL.md saved as Latin-1 at its first broken character, leaves it valid, and --strict fails it', async () => {
    const { dir, cleanup } = tempDir();
    mkdirSync(join(dir, 'cafe'));
    const bytes = Buffer.from(
      '---\nname: cafe\ndescription: Orders at a caf\u00e9. Use when asked.\n---\n# Caf\u00e9\n\nNa\u00efve steps.\n',
      'latin1',
    );
    writeFileSync(join(dir, 'cafe/SKILL.md'), bytes);
    const r = await runCli(['validate', dir]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(
      'cafe/SKILL.md:3:1  warning  the replacement character U+FFFD (3 places): text that is not UTF-8, or was broken by an earlier conversion',
    );
    expect(r.stdout).toContain('SK037 text-encoding');
    expect(r.stdout).toContain('iconv -f windows-1252 -t utf-8');
    expect((await runCli(['validate', dir, '--strict'])).exitCode).toBe(1);
    // Nothing written: the file keeps its bytes.
    expect(readFileSync(join(dir, 'cafe/SKILL.md')).equals(bytes)).toBe(true);
    cleanup();
  });

  it('does not change any file it validates', async () => {
    const before = readFileSync(join(FIXTURES, 'invalid/unquoted-colon/SKILL.md'), 'utf8');
    await runCli(['validate', 'test/fixtures/invalid']);
    expect(readFileSync(join(FIXTURES, 'invalid/unquoted-colon/SKILL.md'), 'utf8')).toBe(before);
  });
});
