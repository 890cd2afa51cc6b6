import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { BIN, EXAMPLES, runCli, runMeasured, tempFolders, testEnv } from '../helpers/cli.js';
import { git } from '../helpers/git-repos.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-pack-e2e-');
afterAll(cleanup);

/** A copy of an example skill in a fresh folder (cwd for the run). */
function example(name: string): { cwd: string; dir: string } {
  const cwd = fresh();
  cpSync(join(EXAMPLES, name), join(cwd, name), { recursive: true });
  return { cwd, dir: join(cwd, name) };
}

const sha = (file: string) => `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;

describe('skills pack (built CLI)', () => {
  it('packs an example into <id>-<version>.tgz and prints the file, size, file count and integrity', async () => {
    const { cwd } = example('web-scraping');
    const r = await runCli(['pack', 'web-scraping', '--out', 'dist'], { cwd });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const file = join(cwd, 'dist/web-scraping-1.2.0.tgz');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('packed web-scraping@1.2.0 → dist/web-scraping-1.2.0.tgz');
    expect(lines[1]).toMatch(/^size: {6}\d+\.\d kB \(5\.8 kB unpacked\)$/);
    expect(lines[2]).toBe('files:     3');
    expect(lines[3]).toBe(`integrity: ${sha(file)}`);
    expect(readdirSync(join(cwd, 'dist'))).toEqual(['web-scraping-1.2.0.tgz']);
    // -o is --out, as users of tar, gcc and most packers type it.
    const short = await runCli(['pack', 'web-scraping', '-o', 'out', '-q'], { cwd });
    expect(short.exitCode, short.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'out/web-scraping-1.2.0.tgz'))).toEqual(readFileSync(file));
  });

  it('refuses --out naming an archive rather than a folder (exit 2, nothing written), and takes a folder so named', async () => {
    const { cwd } = example('web-scraping');
    for (const out of ['my.tgz', 'dist/web.tar.gz', 'x.skill']) {
      const r = await runCli(['pack', 'web-scraping', '--out', out], { cwd });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `error: --out takes the folder to write the archive to, not the archive's name: "${out}"`,
      );
      expect(r.stderr).toContain('hint: the archive is named <id>-<version>.tgz');
      expect(existsSync(join(cwd, out))).toBe(false);
    }
    expect(readdirSync(cwd)).toEqual(['web-scraping']);
    // A folder that exists under such a name is a folder: the archive goes in it, as before.
    mkdirSync(join(cwd, 'old.tgz'));
    const ok = await runCli(['pack', 'web-scraping', '--out', 'old.tgz', '-q'], { cwd });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(readdirSync(join(cwd, 'old.tgz'))).toEqual(['web-scraping-1.2.0.tgz']);
  });

  it('gives identical bytes for the same skill in two clones, and --json prints one document', async () => {
    const a = example('social-media-apis');
    const b = example('social-media-apis');
    writeFileSync(join(b.dir, 'manifest.json'), readFileSync(join(b.dir, 'manifest.json')));
    const ra = await runCli(['pack', 'social-media-apis', '--json'], { cwd: a.cwd });
    const rb = await runCli(['pack', 'social-media-apis', '--json'], { cwd: b.cwd });
    expect([ra.exitCode, rb.exitCode]).toEqual([0, 0]);
    const da = JSON.parse(ra.stdout);
    const db = JSON.parse(rb.stdout);
    expect(readFileSync(da.file).equals(readFileSync(db.file))).toBe(true);
    expect(da.integrity).toBe(db.integrity);
    expect(da).toMatchObject({
      id: 'social-media-apis',
      version: '2.1.0',
      format: 'tgz',
      file: join(a.cwd, 'social-media-apis-2.1.0.tgz'),
      dryRun: false,
      secrets: [],
      warnings: [],
    });
    expect(da.files.map((f: { path: string }) => f.path)).toContain('.env.example');
    expect(da.files.find((f: { path: string; mode: string }) => f.path.startsWith('scripts/')).mode).toBe('0755');
  });

  it('--dry-run lists what would go in and writes nothing; a .env is left out and said so', async () => {
    const { cwd, dir } = example('web-scraping');
    writeFileSync(join(dir, '.env'), 'API_KEY=secret\n');
    writeFileSync(join(dir, '.skillignore'), 'references/\n');
    // What running the skill's Python script leaves behind is no part of it.
    mkdirSync(join(dir, 'scripts', '__pycache__'));
    writeFileSync(join(dir, 'scripts', '__pycache__', 'scraper.cpython-311.pyc'), 'bytecode');
    const r = await runCli(['pack', 'web-scraping', '--dry-run'], { cwd });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('warning: .env left out: secrets are never packed');
    expect(r.stdout).toBe(
      [
        '2.4 kB    SKILL.md',
        '2.0 kB  x scripts/scraper.py',
        'left out by ignore files: references',
        'web-scraping@1.2.0: 2 files, 4.4 kB unpacked, would be web-scraping-1.2.0.tgz (dry run: nothing written)',
      ].join('\n'),
    );
    expect(readdirSync(cwd)).toEqual(['web-scraping']);
  });

  it('leaves out a .git entry of any kind and case (file, .GIT folder, link leading out), and keeps .gitignore', async () => {
    const cwd = fresh();
    writeTree(join(cwd, 'gitty'), {
      'SKILL.md': skillMd('name: gitty\ndescription: Gitty things. Use when testing.\nmetadata:\n  version: "1.0.0"'),
      '.gitignore': 'out/\n',
      '.git': 'gitdir: evilgit\n',
      '.GIT/config': '[core]\n',
      'scripts/.Git': 'gitdir: ../evilgit\n',
      'references/.git': { symlink: cwd },
      'evilgit/config': '[core]\n',
    });
    const r = await runCli(['pack', 'gitty', '--json'], { cwd });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.files.map((f: { path: string }) => f.path).sort()).toEqual(['.gitignore', 'SKILL.md', 'evilgit/config']);
    const listed = spawnSync('tar', ['tzf', doc.file], { encoding: 'utf8' }).stdout.trim().split('\n').sort();
    expect(listed.filter((n) => !n.endsWith('/'))).toEqual([
      'gitty/.gitignore',
      'gitty/SKILL.md',
      'gitty/evilgit/config',
    ]);
  });

  it('leaves out .hg, .svn, node_modules and __pycache__ folders in any case, as a case-insensitive disk sees them', async () => {
    const cwd = fresh();
    writeTree(join(cwd, 'vcs'), {
      'SKILL.md': skillMd(
        'name: vcs\ndescription: Other version control. Use when testing.\nmetadata:\n  version: "1.0.0"',
      ),
      '.HG/hgrc': '[hooks]\n',
      'scripts/.Svn/entries': '12\n',
      'Node_Modules/x/index.js': 'x\n',
      '__PyCache__/a.pyc': 'x\n',
    });
    const r = await runCli(['pack', 'vcs', '--json'], { cwd });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).files.map((f: { path: string }) => f.path)).toEqual(['SKILL.md']);
  });

  it("leaves out what the skill's .gitignore keeps out of git (as npm pack does), says so with --dry-run, and exits 2 when a rule would drop SKILL.md", async () => {
    const cwd = fresh();
    git(cwd, ['init', '--quiet']);
    writeTree(join(cwd, 'gmail'), {
      'SKILL.md': skillMd(
        'name: gmail\ndescription: Reads Gmail. Use when the user asks about their mail.\nmetadata:\n  version: 1.0.0',
      ),
      'scripts/read.py': 'print(1)\n',
      '.gitignore': 'credentials.json\ntoken.json\n',
      'credentials.json': '{"installed":{"client_secret":"GOCSPX-abc"}}\n',
      'token.json': '{"refresh_token":"1//0g-secret"}\n',
    });
    const dry = await runCli(['pack', 'gmail', '--dry-run'], { cwd });
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toContain('left out by ignore files: credentials.json, token.json');
    const r = await runCli(['pack', 'gmail', '--json'], { cwd });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.ignored).toEqual(['credentials.json', 'token.json']);
    const listed = spawnSync('tar', ['tzf', doc.file], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(listed).toEqual(['gmail/.gitignore', 'gmail/SKILL.md', 'gmail/scripts/', 'gmail/scripts/read.py']);

    writeFileSync(join(cwd, 'gmail/.gitignore'), 'credentials.json\n*.md\n');
    const bad = await runCli(['pack', 'gmail'], { cwd });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe(
      [
        `error: ${join(cwd, 'gmail/SKILL.md')} is needed by the skill, and ${join(cwd, 'gmail/.gitignore')}:2 ("*.md") leaves it out of the archive; nothing was packed`,
        'hint: take it back with a line "!/SKILL.md" after the rule in .gitignore, or narrow the rule',
      ].join('\n'),
    );
    expect(readdirSync(cwd).filter((n) => n.endsWith('.tgz'))).toEqual(['gmail-1.0.0.tgz']);
  });

  it('refuses an ignore file over 1 MiB (exit 2, naming it and its size), rather than read it as empty and pack what it names', async () => {
    const cwd = fresh();
    const rules = ['credentials.json', ...Array.from({ length: 60_000 }, (_, i) => `generated/${i}/**/*.tmp`)];
    writeTree(join(cwd, 'big'), {
      'SKILL.md': skillMd('name: big\ndescription: Packs things. Use when testing pack.\nmetadata:\n  version: 1.0.0'),
      'credentials.json': '{"client_secret":"s3cr3t"}\n',
    });
    for (const name of ['.gitignore', '.skillignore']) {
      const file = join(cwd, 'big', name);
      writeFileSync(file, `${rules.join('\n')}\n`);
      const size = readFileSync(file).length;
      expect(size).toBeGreaterThan(1024 * 1024);
      const r = await runCli(['pack', 'big', '--out', 'out'], { cwd });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(
        [
          `error: ${file} is ${size} bytes, over the 1 MiB an ignore file is read to; nothing was packed`,
          'hint: a rule unread could let a secret in: shorten it (a rule for a folder covers all below it), or remove it',
        ].join('\n'),
      );
      expect(existsSync(join(cwd, 'out'))).toBe(false);
    }
  });

  it('streams a large skill: peak memory grows by far less than the size of its file (it held the file, tar and gzip at once)', async () => {
    const cwd = fresh();
    const size = 64 * 1024 * 1024;
    writeTree(join(cwd, 'huge'), {
      'SKILL.md': skillMd('name: huge\ndescription: Huge asset skill. Use when testing.\nmetadata:\n  version: 1.0.0'),
    });
    mkdirSync(join(cwd, 'huge/assets'));
    writeFileSync(join(cwd, 'huge/assets/blob.bin'), randomBytes(size));
    // The CLI's own peak resident memory: a dry run reads no file.
    const peak = (args: string[]) => {
      const r = runMeasured(args, cwd, cwd);
      expect(r.status, r.stderr).toBe(0);
      return r.peak;
    };
    const base = peak(['pack', 'huge', '--dry-run']);
    const packed = peak(['pack', 'huge', '--out', 'dist', '-q']);
    expect(packed - base).toBeLessThan(size / 2);
    const archive = join(cwd, 'dist/huge-1.0.0.tgz');
    expect(existsSync(archive)).toBe(true);
    const listed = spawnSync('tar', ['tzvf', archive], { encoding: 'utf8' }).stdout;
    expect(listed).toContain(` ${size} `);
  });

  it('--dry-run shows a file name holding a terminal escape escaped', async () => {
    const { cwd, dir } = example('web-scraping');
    writeFileSync(join(dir, 'references', 'x\u001b]0;pwned\u0007.md'), '# x\n');
    const r = await runCli(['pack', 'web-scraping', '--dry-run'], { cwd });
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('references/x\\x1b]0;pwned\\x07.md');
  });

  it('refuses an invalid skill with its findings (exit 1), and one without a version', async () => {
    const cwd = fresh();
    writeTree(join(cwd, 'Bad'), {
      'SKILL.md': skillMd('name: Bad\ndescription: Bad. Use when testing.\nmetadata:\n  version: "1.0.0"'),
    });
    const bad = await runCli(['pack', 'Bad'], { cwd });
    expect(bad.exitCode).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('error: Bad is not a valid skill (1 error); nothing was packed');
    expect(bad.stderr).toContain('SK007 name-lowercase');
    const json = await runCli(['pack', 'Bad', '--json'], { cwd });
    expect(json.exitCode).toBe(1);
    const doc = JSON.parse(json.stdout);
    expect(doc.error.code).toBe('E_INVALID');
    expect(doc.diagnostics.map((d: { ruleId: string }) => d.ruleId)).toEqual(['SK007']);

    writeTree(join(cwd, 'plain'), { 'SKILL.md': skillMd('name: plain\ndescription: No version. Use when testing.') });
    // No version packs as 0.0.0, with a warning; a .skill needs no version at all.
    const plain = await runCli(['pack', 'plain'], { cwd });
    expect(plain.exitCode).toBe(0);
    expect(plain.stderr.split('\n')[0]).toMatch(/^warning: plain has no version; it is kept as 0\.0\.0/);
    expect(plain.stdout.split('\n')[0]).toBe('packed plain@0.0.0 → plain-0.0.0.tgz');
    writeTree(join(cwd, 'odd'), {
      'SKILL.md': skillMd('name: odd\ndescription: Odd version. Use when testing.\nmetadata:\n  version: "v1"'),
    });
    const odd = await runCli(['pack', 'odd'], { cwd });
    expect(odd.exitCode).toBe(1);
    expect(odd.stderr.split('\n')[0]).toBe(
      'error: odd has the version "v1", which is not MAJOR.MINOR.PATCH: the archive is named <id>-<version>.tgz; nothing was packed',
    );
    const skill = await runCli(['pack', 'plain', '--format', 'skill'], { cwd });
    expect(skill.exitCode).toBe(0);
    expect(existsSync(join(cwd, 'plain.skill'))).toBe(true);
    expect(readdirSync(cwd).sort()).toEqual(['Bad', 'odd', 'plain', 'plain-0.0.0.tgz', 'plain.skill']);
  });

  it('refuses a symlink that leads out of the skill (exit 1), naming it', async () => {
    const { cwd, dir } = example('timeplus-sql-guide');
    writeFileSync(join(cwd, 'outside.txt'), 'secret\n');
    symlinkSync(join(cwd, 'outside.txt'), join(dir, 'references/leak.md'));
    const r = await runCli(['pack', 'timeplus-sql-guide'], { cwd });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: ${join(dir, 'references/leak.md')} is a symlink that leads out of the skill (to ${join(cwd, 'outside.txt')}); nothing was packed`,
    );
    expect(readdirSync(cwd).sort()).toEqual(['outside.txt', 'timeplus-sql-guide']);
  });

  it('leaves out a link .skillignore names, out of the skill, nowhere or to a folder, as its hint says', async () => {
    const { cwd, dir } = example('timeplus-sql-guide');
    writeFileSync(join(cwd, 'outside.txt'), 'secret\n');
    mkdirSync(join(cwd, 'elsewhere'));
    symlinkSync(join(cwd, 'outside.txt'), join(dir, 'references/leak.md'));
    symlinkSync(join(cwd, 'elsewhere'), join(dir, 'shared'));
    symlinkSync('missing.md', join(dir, 'dangling.md'));
    const r = await runCli(['pack', 'timeplus-sql-guide', '--out', 'a'], { cwd });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^hint: .*list (it|the link) in \.skillignore$/m);
    writeFileSync(join(dir, '.skillignore'), 'references/leak.md\nshared/\ndangling.md\n');
    const ok = await runCli(['pack', 'timeplus-sql-guide', '--out', 'b', '--json'], { cwd });
    expect(ok.stderr).toBe('');
    expect(ok.exitCode).toBe(0);
    expect(JSON.parse(ok.stdout).ignored).toEqual(['dangling.md', 'references/leak.md', 'shared']);
  });

  it('refuses a folder that is no skill with exit 2', async () => {
    const r = await runCli(['pack', '.'], { cwd: fresh() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: .* is not a skill: it holds no SKILL.md or manifest.json/);
  });

  // util-linux `script` gives the CLI a terminal; `stty cols` gives it a width, or leaves it at 0 columns.
  // CI and TERM are set here as a user's terminal has them, whatever the machine running the tests has.
  const onTerminal = (args: string[], cols: number | undefined, env: Record<string, string> = {}) => {
    const q = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
    const cmd = `${cols === undefined ? '' : `stty cols ${cols} rows 24; `}${[process.execPath, BIN, ...args].map(q).join(' ')}`;
    const r = spawnSync('script', ['-qfec', cmd, '/dev/null'], {
      input: '',
      encoding: 'utf8',
      timeout: 20_000,
      env: testEnv(fresh('home'), { TERM: 'xterm', ...env }),
    });
    return { status: r.status, out: r.stdout };
  };

  it('shows a spinner on a terminal only: not with --json, not on a terminal of no width (ora would clear forever)', () => {
    const out = fresh('tty');
    const tty = onTerminal(['pack', join(EXAMPLES, 'web-scraping'), '--out', out], 80);
    expect(tty.status).toBe(0);
    expect(tty.out).toContain('\u001b[?25l'); // the spinner hides the cursor…
    expect(tty.out).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] packing web-scraping/);
    expect(tty.out).toContain('packed web-scraping@1.2.0');
    const json = onTerminal(['pack', join(EXAMPLES, 'web-scraping'), '--out', fresh('tty-json'), '--json'], 80);
    expect(json.status).toBe(0);
    expect(json.out).not.toContain('packing');
    const narrow = onTerminal(['pack', join(EXAMPLES, 'web-scraping'), '--out', fresh('tty-0')], 0);
    expect(narrow.status).toBe(0);
    expect(narrow.out).not.toContain('packing');
    expect(narrow.out.length).toBeLessThan(2000);
    // Under CI (a build log on a pty) and on a dumb terminal: no spinner and no "- packing" lines either.
    for (const env of [{ CI: 'true' }, { TERM: 'dumb' }] as Record<string, string>[]) {
      const log = onTerminal(['pack', join(EXAMPLES, 'web-scraping'), '--out', fresh('tty-ci')], 80, env);
      expect(log.status).toBe(0);
      expect(log.out).not.toContain('packing');
      expect(log.out).toContain('packed web-scraping@1.2.0');
    }
  });

  it('given a folder of skills rather than one, names the skills in it and how to pack one (pack and publish)', async () => {
    // `skills pack .` at the top of a repository of skills said "create one with skills init".
    const cwd = fresh();
    const skill = (n: string) => skillMd(`name: ${n}\ndescription: Formats ${n}. Use when a ${n} must be formatted.\n`);
    writeTree(cwd, { 'repo/skills/date/SKILL.md': skill('date'), 'repo/skills/time/SKILL.md': skill('time') });
    for (const command of ['pack', 'publish']) {
      const r = await runCli([command, 'repo', '--dry-run'], { cwd });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        'is not a skill: it holds no SKILL.md or manifest.json, but 2 skills in its folders (repo/skills/date, repo/skills/time)',
      );
      expect(r.stderr).toContain(`hint: ${command} one skill at a time: skills ${command} repo/skills/date`);
    }
    // A folder with no skill at all is told as before.
    mkdirSync(join(cwd, 'empty'));
    const none = await runCli(['pack', 'empty'], { cwd });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('hint: create one with `skills init <name>`');
  });
});
