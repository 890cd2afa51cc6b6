// Words people already know (issue 14): uninstall is remove and rm, the registry's operations live under
// `skills registry`, add and ls, --dry-run, --no-registry, one status word per skill, --for for a consumer.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-words-');
afterAll(cleanup);

function project(): { dir: string; env: Record<string, string> } {
  const dir = fresh('project');
  mkdirSync(join(dir, '.git'));
  mkdirSync(join(dir, '.claude/skills'), { recursive: true });
  writeTree(join(dir, 'src/pdf'), {
    'SKILL.md': skillMd(
      'name: pdf\ndescription: Reads PDFs. Use when a PDF is given.\nmetadata:\n  version: "1.0.0"\n',
    ),
  });
  const home = fresh('home');
  return { dir, env: { HOME: home, XDG_CACHE_HOME: join(home, '.cache'), SKILLS_REGISTRY: '' } };
}

describe('the words of a project install', () => {
  it('add installs, remove and rm uninstall from the project, --dry-run writes nothing', async () => {
    const { dir, env } = project();
    const dry = await runCli(['add', './src/pdf', '--dry-run'], { cwd: dir, env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n')).toEqual([
      'would be added     pdf@1.0.0  → .claude/skills/pdf',
      'dry run, nothing was written: .claude/skills: 1 added; skills-lock.json would be written',
    ]);
    expect(readdirSync(join(dir, '.claude/skills'))).toEqual([]);
    expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);

    const add = await runCli(['add', './src/pdf'], { cwd: dir, env });
    expect(add.stdout.split('\n')).toEqual([
      'added     pdf@1.0.0  → .claude/skills/pdf',
      '.claude/skills: 1 added; skills-lock.json written',
    ]);
    const again = await runCli(['install', './src/pdf'], { cwd: dir, env });
    expect(again.stdout.split('\n').at(-1)).toBe('.claude/skills: 1 unchanged; skills-lock.json unchanged');

    const lock = readFileSync(join(dir, 'skills-lock.json'), 'utf8');
    const dryRm = await runCli(['rm', 'pdf', '--dry-run'], { cwd: dir, env });
    expect(dryRm.exitCode, dryRm.stderr).toBe(0);
    expect(dryRm.stdout).toBe(
      'would uninstall pdf@1.0.0 from .claude/skills/pdf, skills-lock.json\ndry run: nothing was removed',
    );
    expect(existsSync(join(dir, '.claude/skills/pdf/SKILL.md'))).toBe(true);
    expect(readFileSync(join(dir, 'skills-lock.json'), 'utf8')).toBe(lock);

    const rm = await runCli(['remove', 'pdf'], { cwd: dir, env });
    expect(rm.exitCode, rm.stderr).toBe(0);
    expect(rm.stdout).toBe('uninstalled pdf@1.0.0 from .claude/skills/pdf, skills-lock.json');
    expect(existsSync(join(dir, '.claude/skills/pdf'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'skills-lock.json'), 'utf8')).skills).toEqual({});
  });
});

describe('uninstall --dry-run with a registry', () => {
  it('names the store copy it would remove, or who keeps it there, and leaves every file and the index alone', async () => {
    const { dir, env } = project();
    const reg = join(fresh('reg'), 'registry');
    expect((await runCli(['registry', 'sync', './src', '--registry', reg], { cwd: dir, env })).exitCode).toBe(0);
    const add = await runCli(['install', 'pdf@1.0.0', '--registry', reg, '--agent', 'claude-code'], { cwd: dir, env });
    expect(add.exitCode, add.stderr).toBe(0);
    const index = readFileSync(join(reg, 'index.json'), 'utf8');
    const lock = readFileSync(join(dir, 'skills-lock.json'), 'utf8');
    const dry = await runCli(['rm', 'pdf', '--dry-run', '--registry', reg], { cwd: dir, env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      'would uninstall pdf@1.0.0 from .claude/skills/pdf, skills-lock.json, the store (built-in/pdf@1.0.0)\ndry run: nothing was removed',
    );
    const json = JSON.parse(
      (await runCli(['rm', 'pdf', '--dry-run', '--json', '--registry', reg], { cwd: dir, env })).stdout,
    );
    expect(json.store).toEqual([join(reg, 'built-in/pdf@1.0.0')]);
    expect(
      (await runCli(['registry', 'use', 'pdf', '--for', 'bob', '--registry', reg], { cwd: dir, env })).exitCode,
    ).toBe(0);
    const kept = await runCli(['rm', 'pdf', '--dry-run', '--registry', reg], { cwd: dir, env });
    expect(kept.stdout.split('\n').at(-1)).toBe(`kept in the store ${reg}: used by bob`);
    // --for bob: bob's use would end with it, so the store copy would go too.
    const forBob = await runCli(['rm', 'pdf', '--dry-run', '--for', 'bob', '--registry', reg], { cwd: dir, env });
    expect(forBob.stdout).toContain('the store (built-in/pdf@1.0.0)');
    expect(readFileSync(join(dir, 'skills-lock.json'), 'utf8')).toBe(lock);
    // bob, and this project (install records it), whose use a dry run does not end.
    expect(JSON.parse(readFileSync(join(reg, 'index.json'), 'utf8')).skills[0].usedBy).toEqual([dir, 'bob']);
    expect(existsSync(join(reg, 'built-in/pdf@1.0.0/SKILL.md'))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['.claude', '.git', 'skills-lock.json', 'src']);
    expect(index).toContain('"pdf"');
  });
});

describe('uninstall with a registry two projects share', () => {
  it("leaves the store's copy to the other project, and takes it once no project left uses it", async () => {
    const a = project();
    const b = project();
    const c = project();
    const reg = join(fresh('reg'), 'registry');
    expect((await runCli(['registry', 'sync', './src', '--registry', reg], { cwd: a.dir, env: a.env })).exitCode).toBe(
      0,
    );
    for (const p of [a, b, c]) {
      const add = await runCli(['install', 'pdf@1.0.0', '--registry', reg, '--agent', 'claude-code'], {
        cwd: p.dir,
        env: p.env,
      });
      expect(add.exitCode, add.stderr).toBe(0);
    }
    const usedBy = () => JSON.parse(readFileSync(join(reg, 'index.json'), 'utf8')).skills[0].usedBy;
    expect(usedBy()).toEqual([a.dir, b.dir, c.dir].sort());

    // a's uninstall: its own copy and lock entry go; the store's copy stays, for b and c.
    const rmA = await runCli(['rm', 'pdf', '--registry', reg], { cwd: a.dir, env: a.env });
    expect(rmA.exitCode, rmA.stderr).toBe(0);
    expect(rmA.stdout.split('\n').at(-1)).toBe(`kept in the store ${reg}: used by ${[b.dir, c.dir].sort().join(', ')}`);
    expect(existsSync(join(reg, 'built-in/pdf@1.0.0/SKILL.md'))).toBe(true);
    expect(usedBy()).toEqual([b.dir, c.dir].sort());
    // b still installs from its lock (a fresh clone of b: its agent folder gone).
    rmSync(join(b.dir, '.claude/skills/pdf'), { recursive: true });
    const replay = await runCli(['install', '--registry', reg], { cwd: b.dir, env: b.env });
    expect(replay.exitCode, replay.stderr).toBe(0);
    expect(existsSync(join(b.dir, '.claude/skills/pdf/SKILL.md'))).toBe(true);

    // c's folder is gone: it keeps no copy alive, and b's uninstall takes the store's copy.
    rmSync(c.dir, { recursive: true });
    const rmB = await runCli(['rm', 'pdf', '--registry', reg], { cwd: b.dir, env: b.env });
    expect(rmB.exitCode, rmB.stderr).toBe(0);
    expect(rmB.stdout).toContain('the store (built-in/pdf@1.0.0)');
    expect(existsSync(join(reg, 'built-in/pdf@1.0.0'))).toBe(false);
  });
});

describe('quiet output', () => {
  it('says once that skills have no version, naming them with --verbose, and advises no edit of them', async () => {
    const { dir, env } = project();
    for (const n of ['one', 'two', 'three'])
      writeTree(join(dir, 'vendor', n), {
        'SKILL.md': skillMd(`name: ${n}\ndescription: Does ${n}. Use when ${n}.\n`),
      });
    const r = await runCli(['install', './vendor'], { cwd: dir, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('warning: 3 skills have no version; they are kept as 0.0.0 (--verbose names them)');
    const v = await runCli(['install', './vendor', '--verbose', '--dry-run'], { cwd: dir, env });
    expect(v.stderr).toBe('warning: 3 skills have no version; they are kept as 0.0.0 (one, three, two)');
  });
});

describe('-q is --quiet', () => {
  it('render-prompt -q prints the prompt and nothing on stderr; --query still selects', async () => {
    const { dir, env } = project();
    writeTree(join(dir, '.claude/skills/pdf'), {
      'SKILL.md': skillMd('name: pdf\ndescription: Reads PDFs. Use when a PDF is given.\n'),
    });
    const loud = await runCli(['render-prompt', '--query', 'read this pdf'], { cwd: dir, env });
    expect(loud.stderr).toMatch(/tokens \(o200k_base\)/);
    const quiet = await runCli(['render-prompt', '--query', 'read this pdf', '-q'], { cwd: dir, env });
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(loud.stdout);
  });
});

describe('-q elsewhere', () => {
  it('validate -q shows the failing skills and the whole summary; install -q says nothing when all is well', async () => {
    const { dir, env } = project();
    writeTree(join(dir, 'checks/bad'), { 'SKILL.md': skillMd('name: Bad\ndescription: x\n') });
    writeTree(join(dir, 'checks/good'), {
      'SKILL.md': skillMd('name: good\ndescription: Does good. Use when good.\n'),
    });
    const v = await runCli(['validate', 'checks', '-q'], { cwd: dir, env });
    expect(v.exitCode).toBe(1);
    expect(v.stdout).not.toContain('checks/good');
    expect(v.stdout).toContain('checks/bad');
    expect(v.stdout.split('\n').at(-1)).toMatch(/in 2 skills; 1 invalid$/);
    const i = await runCli(['install', './src/pdf', '-q'], { cwd: dir, env });
    expect(i).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(existsSync(join(dir, '.claude/skills/pdf/SKILL.md'))).toBe(true);
  });
});

describe('skills registry', () => {
  it('syncs, lists, records a consumer with --for, and removes, under one group; list shows an installed skill once', async () => {
    const { dir, env } = project();
    const reg = join(fresh('reg'), 'registry');
    const renv = { ...env, SKILLS_REGISTRY: reg };
    const dry = await runCli(['registry', 'sync', 'src', '--dry-run'], { cwd: dir, env: renv });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^would be added +pdf@1\.0\.0/);
    expect(dry.stdout.split('\n').slice(-2)).toEqual([
      `1 skill would be synced into ${reg}: 1 added`,
      'dry run: nothing was registered',
    ]);
    expect(existsSync(reg)).toBe(false);
    expect((await runCli(['registry', 'sync', 'src'], { cwd: dir, env: renv })).exitCode).toBe(0);
    const again = await runCli(['registry', 'sync', 'src', '--dry-run'], { cwd: dir, env: renv });
    expect(again.stdout).toMatch(/^unchanged +pdf@1\.0\.0/);
    const listed = await runCli(['registry', 'ls', '--json'], { cwd: dir, env: renv });
    expect(JSON.parse(listed.stdout).skills.map((s: { id: string; scope: string }) => `${s.id}:${s.scope}`)).toEqual([
      'pdf:registry',
    ]);
    const use = await runCli(['registry', 'use', 'pdf', '--for', 'content-creator'], { cwd: dir, env: renv });
    expect(use.stdout).toBe('pdf is used by content-creator');
    // The old word still answers.
    const old = await runCli(['registry', 'unuse', 'pdf', '--by', 'content-creator'], { cwd: dir, env: renv });
    expect(old.stdout).toBe('pdf is used by nobody');

    // Installed into the project from the registry: `ls` shows it once, as the project's, marked registered.
    expect((await runCli(['install', 'pdf@1.0.0', '--agent', 'claude'], { cwd: dir, env: renv })).exitCode).toBe(0);
    const ls = await runCli(['ls', '--json'], { cwd: dir, env: renv });
    const rows = JSON.parse(ls.stdout).skills as { id: string; scope: string; registered?: boolean }[];
    expect(rows.filter((r) => r.id === 'pdf')).toEqual([
      expect.objectContaining({ scope: 'project', registered: true }),
    ]);
    const table = await runCli(['ls'], { cwd: dir, env: renv });
    expect(table.stdout).toMatch(/^pdf +1\.0\.0 +skill-md +built-in +project\+registry /m);
    // --no-registry: the folders alone.
    const folders = await runCli(['ls', '--no-registry', '--json'], { cwd: dir, env: renv });
    expect(JSON.parse(folders.stdout).registry).toBeUndefined();

    // Removing from the registry what this project installs from it is refused, unless --force.
    const refused = await runCli(['registry', 'remove', 'pdf'], { cwd: dir, env: renv });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('skills-lock.json installs pdf@1.0.0 from this registry');
    expect(existsSync(join(reg, 'built-in/pdf@1.0.0'))).toBe(true);
    const forced = await runCli(['registry', 'remove', 'pdf', '--force'], { cwd: dir, env: renv });
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(existsSync(join(reg, 'built-in/pdf@1.0.0'))).toBe(false);
  });
});

describe('--help', () => {
  it('fits 80 columns, ends every command with examples, and says nothing internal', async () => {
    const top = await runCli(['--help']);
    expect(top.exitCode).toBe(0);
    const commands = [...top.stdout.matchAll(/^ {2}([a-z-]+)(?:, [a-z-]+)* {2,}/gm)].map((m) => m[1]!);
    expect(commands).toEqual(
      expect.arrayContaining(['install', 'uninstall', 'registry', 'list', 'agents', 'outdated']),
    );
    const registry = ['sync', 'remove', 'use', 'unuse', 'list'].map((c) => ['registry', c]);
    for (const args of [[], ...commands.filter((c) => c !== 'help').map((c) => [c]), ...registry]) {
      const r = await runCli([...args, '--help']);
      const name = args.join(' ') || 'skills';
      expect(r.exitCode, name).toBe(0);
      const long = r.stdout.split('\n').filter((l) => l.length > 80);
      expect(long, name).toEqual([]);
      const after = r.stdout.slice(r.stdout.lastIndexOf('\nExamples:\n'));
      expect(after, name).toMatch(/^\nExamples:\n(?: {2}.*\n?)+$/);
      expect(after, name).toMatch(/^ {2}skills /m);
      expect(r.stdout, name).not.toMatch(/\bseeds? ?\d{3}\b/i);
    }
  }, 120_000);
});
