import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TOO_RECENT_MS } from '../../src/fs/user-cache.js';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// A stranger's repository can hold a symlink to a FIFO or a device (`SKILL.md -> /dev/stdin`, a link to a FIFO
// made on the machine). Opening a FIFO for reading waits for a writer forever: every command must refuse such a
// file and go on, never hang. A hang fails these tests by their timeout.
const { fresh, cleanup } = tempFolders('skills-special-');
afterAll(cleanup);

const good = (name: string) =>
  skillMd(
    `name: ${name}\ndescription: Does ${name} things. Use when testing special files.\nmetadata:\n  version: "1.0.0"`,
  );

function withFifo(): { dir: string; fifo: string } {
  const dir = fresh('repo');
  const fifo = join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  return { dir, fifo };
}

describe('symlinks to FIFOs in a stranger’s skills (built CLI)', () => {
  it('validate reports a SKILL.md that leads to a FIFO as SK019 and checks the other skills', async () => {
    const { dir } = withFifo();
    writeTree(dir, { 'ok/SKILL.md': good('ok') });
    writeTree(dir, { 'trap/README.md': '# x\n' });
    // The FIFO inside the skill: a link leading out is SK025's, and not even opened.
    execFileSync('mkfifo', [join(dir, 'trap/pipe')]);
    symlinkSync('pipe', join(dir, 'trap/SKILL.md'));
    const r = await runCli(['validate', dir, '--format', 'json'], { timeout: 20_000 });
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      skills: { id: string; valid: boolean; diagnostics: { ruleId: string; message: string }[] }[];
    };
    const trap = doc.skills.find((s) => s.diagnostics.some((d) => d.ruleId === 'SK019'));
    expect(trap?.diagnostics[0]?.message).toBe(
      `${join(dir, 'trap/SKILL.md')} is a FIFO, not a regular file; it is not read`,
    );
    expect(doc.skills.find((s) => s.id === 'ok')?.valid).toBe(true);
  });

  it('lint reads no file that leads to a FIFO or a device; render-prompt skips the skill with a warning', async () => {
    const { dir } = withFifo();
    // references/notes.md leads to the FIFO: lint's reference and secret rules read reference files.
    writeTree(dir, { 'ok/SKILL.md': good('ok').replace('Instructions.', 'See [notes](references/notes.md).') });
    writeTree(dir, { 'ok/references/.keep': '' });
    symlinkSync('../../pipe', join(dir, 'ok/references/notes.md'));
    symlinkSync('/dev/zero', join(dir, 'ok/references/zero.md'));
    const lint = await runCli(['lint', join(dir, 'ok'), '--format', 'json'], { timeout: 20_000 });
    expect([0, 1]).toContain(lint.exitCode);
    expect(() => JSON.parse(lint.stdout)).not.toThrow();

    writeTree(dir, { 'trap/README.md': '# x\n' });
    // The FIFO inside the skill: a link leading out is SK025's, and not even opened.
    execFileSync('mkfifo', [join(dir, 'trap/pipe')]);
    symlinkSync('pipe', join(dir, 'trap/SKILL.md'));
    const render = await runCli(['render-prompt', dir, '--query', 'ok things'], { timeout: 20_000 });
    expect(render.exitCode).toBe(0);
    expect(render.stderr).toContain(
      `warning: ${join(dir, 'trap')}: skipped: cannot read SKILL.md (${join(dir, 'trap/SKILL.md')} is a FIFO, not a regular file; it is not read)`,
    );
    expect(render.stdout).toContain('## ok (v1.0.0)');
  });

  it('a .gitignore, a .skillignore or a skills.config.json that leads to a FIFO does not hang', async () => {
    const { dir, fifo } = withFifo();
    writeTree(dir, { 'ok/SKILL.md': good('ok'), 'ok/notes.md': 'n\n' });
    symlinkSync(fifo, join(dir, '.gitignore'));
    const validate = await runCli(['validate', dir], { timeout: 20_000 });
    expect(validate.exitCode).toBe(0);

    symlinkSync(fifo, join(dir, 'ok/.skillignore'));
    const pack = await runCli(['pack', join(dir, 'ok'), '--dry-run'], { cwd: dir, timeout: 20_000 });
    expect(pack.exitCode).toBe(2);
    expect(pack.stderr).toContain(
      `cannot read ${join(dir, 'ok/.skillignore')}: ${join(dir, 'ok/.skillignore')} is a FIFO, not a regular file`,
    );

    symlinkSync(fifo, join(dir, 'skills.config.json'));
    const lint = await runCli(['lint', 'ok'], { cwd: dir, timeout: 20_000 });
    expect(lint.exitCode).toBe(2);
    expect(lint.stderr).toContain(`cannot read ${join(dir, 'skills.config.json')}`);
  });

  it('a FIFO named SKILL.md is named as a FIFO, with its path, by validate, install, pack and run-script', async () => {
    const dir = fresh('fifo-skill');
    writeTree(dir, { 'trap/README.md': '# x\n' });
    const file = join(dir, 'trap/SKILL.md');
    execFileSync('mkfifo', [file]);
    const validate = await runCli(['validate', 'trap'], { cwd: dir, timeout: 20_000 });
    expect(validate.exitCode).toBe(2);
    expect(validate.stderr).toContain(': trap/SKILL.md is a FIFO, not a regular file\n');
    for (const args of [
      ['install', './trap', '--into', 'out'],
      ['pack', 'trap', '--dry-run'],
      ['run-script', 'trap', 'x'],
    ]) {
      const r = await runCli(args, { cwd: dir, timeout: 20_000 });
      expect(r.exitCode, args[0]).toBe(2);
      expect(r.stderr, args[0]).toContain(
        `${join(dir, 'trap')} is not a skill: ${file} is a FIFO, not a regular file\n`,
      );
      expect(r.stderr, args[0]).not.toContain('holds no SKILL.md');
    }
  });

  it('a FIFO or a folder named SKILL.md below a folder searched is named by validate, lint and list', async () => {
    const dir = fresh('fifo-in-walk');
    writeTree(dir, { 'ok/SKILL.md': good('ok'), 'trap/README.md': '# x\n', 'unzipped/SKILL.md/notes.txt': 'x\n' });
    execFileSync('mkfifo', [join(dir, 'trap/SKILL.md')]);
    // A skill not checked fails validate and lint, as a folder they cannot read does; list skips it with the warning.
    for (const [args, code] of [
      [['validate', dir], 1],
      [['lint', dir], 1],
      [['list', dir], 0],
    ] as const) {
      const r = await runCli([...args], { timeout: 20_000 });
      expect(r.exitCode, `${args[0]}: ${r.stderr}`).toBe(code);
      expect(r.stderr, args[0]).toContain(`${join(dir, 'trap/SKILL.md')}: `);
      expect(r.stderr, args[0]).toContain('a FIFO, not a regular file: trap/ is not read as a skill');
      expect(r.stderr, args[0]).toContain('a folder, not a regular file: unzipped/ is not read as a skill');
      expect(r.stdout, args[0]).toContain('ok');
    }
  });

  it('install of a folder names a skill folder below it whose SKILL.md is a FIFO, and installs the others', async () => {
    const dir = fresh('fifo-install');
    writeTree(dir, { 'src/ok/SKILL.md': good('ok'), 'src/trap/README.md': '# x\n', 'project/README.md': '# p\n' });
    execFileSync('mkfifo', [join(dir, 'src/trap/SKILL.md')]);
    const cwd = join(dir, 'project');
    for (const args of [
      ['install', '../src', '--list'],
      ['install', '../src', '--agent', 'claude-code'],
    ]) {
      const r = await runCli(args, { cwd, timeout: 20_000 });
      expect(r.exitCode, r.stderr).toBe(0);
      // It was passed over in silence: "1 skill", the skill beside it left out without a word.
      expect(r.stderr).toContain('../src/trap/SKILL.md: a FIFO, not a regular file: trap/ is not read as a skill');
    }
    expect(readdirSync(join(cwd, '.claude/skills'))).toEqual(['ok']);
  });

  it('pack leaves out a symlink to a FIFO inside the skill', async () => {
    const { dir } = withFifo();
    writeTree(dir, { 'ok/SKILL.md': good('ok') });
    execFileSync('mkfifo', [join(dir, 'ok/inner-pipe')]);
    symlinkSync('inner-pipe', join(dir, 'ok/link-to-pipe'));
    const r = await runCli(['pack', join(dir, 'ok'), '--dry-run', '--json'], { cwd: dir, timeout: 20_000 });
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { files: { path: string }[] }).files.map((f) => f.path)).toEqual(['SKILL.md']);
  });
});

// The user's cache files (list, catalog, token counts, lint results) are read with no writer to wait for: one that is
// a FIFO (made by mistake, or by someone) is read as no cache, as a corrupt one is, and the command finishes.
describe('a cache file that is a FIFO (built CLI)', () => {
  it('list, render-prompt and lint read it as no cache and print what they print without one', async () => {
    const cwd = fresh('proj');
    const cache = join(cwd, 'cache');
    writeTree(cwd, { '.claude/skills/alpha/SKILL.md': good('alpha') });
    // Results are kept only from files changed at least TOO_RECENT_MS before the run.
    await new Promise((r) => setTimeout(r, TOO_RECENT_MS + 200));
    const runs = [['list'], ['render-prompt'], ['lint', '.claude/skills']];
    const run = (args: string[]) => runCli(args, { cwd, env: { XDG_CACHE_HOME: cache }, timeout: 15_000 });
    const before = [];
    for (const args of runs) before.push(await run(args));
    const dir = join(cache, 'skills');
    const files = readdirSync(dir).filter((f) => /^(list|catalog|lint|tokens)-.*\.json$/.test(f));
    expect(files.map((f) => f.split('-')[0]).sort()).toEqual(['catalog', 'lint', 'list', 'tokens']);
    for (const f of files) {
      rmSync(join(dir, f));
      execFileSync('mkfifo', [join(dir, f)]);
    }
    for (const [i, args] of runs.entries()) {
      const r = await run(args);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(before[i]!.exitCode);
      expect(r.stdout).toBe(before[i]!.stdout);
    }
  });
});

describe('a skills-lock.json that is a FIFO (built CLI)', () => {
  it('install and outdated refuse it (exit 2, naming it) rather than wait for a writer', async () => {
    const cwd = fresh('proj');
    execFileSync('mkfifo', [join(cwd, 'skills-lock.json')]);
    for (const command of ['install', 'outdated']) {
      const r = await runCli([command], { cwd, timeout: 15_000 });
      expect(r.exitCode, r.stderr).toBe(2);
      const file = join(cwd, 'skills-lock.json');
      expect(r.stderr).toContain(`cannot read ${file}: ${file} is a FIFO, not a regular file; it is not read`);
    }
  });
});

// A collection copied without its link targets (a mirror, a partial checkout) holds SKILL.md links that lead nowhere;
// a link can also loop. One such skill is a finding about that skill: the run goes on over the others.
describe('a SKILL.md link that leads nowhere or loops (built CLI)', () => {
  function brokenLinks(): string {
    const dir = fresh('links');
    writeTree(dir, { 'ok/SKILL.md': good('ok'), 'gone/.keep': '', 'loop/.keep': '' });
    symlinkSync('../../elsewhere/gone/SKILL.md', join(dir, 'gone/SKILL.md'));
    symlinkSync('SKILL.md', join(dir, 'loop/SKILL.md'));
    return dir;
  }

  for (const command of ['validate', 'lint']) {
    it(`${command} reports each as SK019, names the link's target, and checks the other skills (exit 1)`, async () => {
      const dir = brokenLinks();
      const r = await runCli([command, dir, '--format', 'json']);
      expect(r.exitCode).toBe(1);
      const doc = JSON.parse(r.stdout) as {
        skills: { id: string; valid: boolean; diagnostics: { ruleId: string; message: string; hint?: string }[] }[];
      };
      const byId = new Map(doc.skills.map((s) => [s.id, s]));
      expect(byId.get('ok')?.valid).toBe(true);
      expect(byId.get('gone')?.diagnostics).toEqual([
        expect.objectContaining({
          ruleId: 'SK019',
          message: 'SKILL.md is a symbolic link to ../../elsewhere/gone/SKILL.md, which does not exist',
          hint: 'restore what the link leads to, or replace SKILL.md with the file itself',
        }),
      ]);
      expect(byId.get('loop')?.diagnostics).toEqual([
        expect.objectContaining({
          ruleId: 'SK019',
          message: 'SKILL.md is a symbolic link to SKILL.md, which loops (too many links on the way)',
        }),
      ]);
    });
  }

  it('list marks them invalid; render-prompt skips them with a warning that says why', async () => {
    const dir = brokenLinks();
    const list = await runCli(['list', dir, '--json']);
    expect(list.exitCode).toBe(0);
    const rows = (JSON.parse(list.stdout) as { skills: { id: string; valid?: boolean }[] }).skills;
    expect(rows.map((s) => [s.id, s.valid])).toEqual([
      ['gone', false],
      ['loop', false],
      ['ok', true],
    ]);
    const render = await runCli(['render-prompt', dir, '--tier', 'catalog']);
    expect(render.exitCode).toBe(0);
    expect(render.stdout).toContain('- ok: Does ok things.');
    expect(render.stderr).toContain(
      `warning: ${join(dir, 'gone')}: skipped: SKILL.md is a symbolic link to ../../elsewhere/gone/SKILL.md, which does not exist`,
    );
    expect(render.stderr).toContain(
      `warning: ${join(dir, 'loop')}: skipped: SKILL.md is a symbolic link to SKILL.md, which loops`,
    );
  });
});

// A registry folder (--registry <dir>, a team's committed one) and the --soul file render-prompt --write records are
// read as regular files: a FIFO in their place is refused (exit 2, naming it) rather than waited on for a writer.
describe('a registry file or a --soul file that is a FIFO (built CLI)', () => {
  async function registry(): Promise<{ cwd: string; reg: string }> {
    const cwd = fresh('reg');
    writeTree(cwd, { 'src/alpha/SKILL.md': good('alpha') });
    const reg = join(cwd, 'reg');
    const sync = await runCli(['registry', 'sync', 'src', '--registry', reg], { cwd });
    expect(sync.exitCode, sync.stderr).toBe(0);
    return { cwd, reg };
  }
  const notRegular = (file: string) => `cannot read ${file}: ${file} is a FIFO, not a regular file; it is not read`;

  it('index.json: list, resolve and render-prompt with --registry refuse it', async () => {
    const { cwd, reg } = await registry();
    const index = join(reg, 'index.json');
    rmSync(index);
    execFileSync('mkfifo', [index]);
    for (const args of [['list'], ['resolve', 'alpha'], ['render-prompt', '--query', 'alpha']]) {
      const r = await runCli([...args, '--registry', reg], { cwd, timeout: 15_000 });
      expect(r.exitCode, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(notRegular(index));
    }
  });

  it('a releases file: resolve refuses it', async () => {
    const { cwd, reg } = await registry();
    const releases = join(reg, 'releases/alpha.json');
    rmSync(releases);
    execFileSync('mkfifo', [releases]);
    const r = await runCli(['resolve', 'alpha@1.0.0', '--registry', reg], { cwd, timeout: 15_000 });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(notRegular(releases));
  });

  it('the files derived from index.json: read as absent, and resolve and render-prompt answer', async () => {
    const { cwd, reg } = await registry();
    for (const f of ['resolve-index', 'selection-index']) {
      rmSync(join(reg, f));
      execFileSync('mkfifo', [join(reg, f)]);
    }
    const resolved = await runCli(['resolve', 'alpha@1.0.0', '--registry', reg], { cwd, timeout: 15_000 });
    expect(resolved.exitCode, resolved.stderr).toBe(0);
    expect(resolved.stdout).toContain('alpha@1.0.0');
    const render = await runCli(['render-prompt', '--query', 'alpha', '--registry', reg], { cwd, timeout: 15_000 });
    expect(render.exitCode, render.stderr).toBe(0);
    expect(render.stdout).toContain('## alpha (v1.0.0)');
  });

  it('--soul: render-prompt refuses it', async () => {
    const cwd = fresh('soul');
    writeTree(cwd, { 'skills/alpha/SKILL.md': good('alpha') });
    execFileSync('mkfifo', [join(cwd, 'SOUL.md')]);
    const r = await runCli(['render-prompt', 'skills', '--soul', 'SOUL.md'], { cwd, timeout: 15_000 });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--soul: ${notRegular(join(cwd, 'SOUL.md'))}`);
  });
});
