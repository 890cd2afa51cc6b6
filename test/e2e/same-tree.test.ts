import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { parseLockfile } from '../../src/formats/lockfile.js';
import { runCli, tempFolders } from '../helpers/cli.js';
import { describeTree, skillMd, writeTree } from '../helpers/tree.js';

// Every way a skill comes in (its folder, pack's .tgz, a registry copy, a git repository) places the same tree:
// a symlink inside the skill as the file or folder it leads to, modes 644 or 755 (pack's), macOS's .DS_Store and ._
// files left out, so the same integrity.

const { fresh, cleanup } = tempFolders('skills-same-tree-e2e-');
afterAll(cleanup);

const lockOf = (project: string) => {
  const parsed = parseLockfile(readFileSync(join(project, 'skills-lock.json'), 'utf8'));
  expect(parsed.problem).toBeUndefined();
  return parsed.lock!;
};

/** A skill `lk` with links inside it (to a file, to a folder), odd modes and a script, in `<parent>/lk`. */
function linkedSkill(parent: string): string {
  const root = join(parent, 'lk');
  writeTree(root, {
    'SKILL.md': skillMd(
      'name: lk\ndescription: Links inside the skill. Use when testing install.\nmetadata:\n  version: "1.0.0"',
      '# lk\n\nSee references/notes.md and run scripts/run.sh.\n',
    ),
    'references/notes.md': 'notes\n',
    'references/deep/more.md': 'more\n',
    'scripts/run.sh': { content: '#!/bin/sh\necho run\n', mode: 0o755 },
    'private.md': 'private\n',
    'group.md': 'group\n',
    'setuid.sh': '#!/bin/sh\necho setuid\n',
    // macOS's files (a skill copied through a shared drive): never part of the skill, whichever way it comes in.
    '.DS_Store': 'x',
    'references/._notes.md': '\u0000\u0005\u0016\u0007',
  });
  symlinkSync('../references/notes.md', join(root, 'scripts/notes.md'));
  symlinkSync('references', join(root, 'refs'));
  chmodSync(join(root, 'private.md'), 0o600);
  chmodSync(join(root, 'group.md'), 0o610);
  chmodSync(join(root, 'setuid.sh'), 0o4755);
  return root;
}

/** The tree pack and every install give `lk`: no link, modes 644/755, folders 755. */
const expected = {
  '.': 'dir 755',
  'SKILL.md': expect.stringMatching(/^file 644 ---/),
  'group.md': 'file 755 group\n',
  'private.md': 'file 644 private\n',
  references: 'dir 755',
  'references/deep': 'dir 755',
  'references/deep/more.md': 'file 644 more\n',
  'references/notes.md': 'file 644 notes\n',
  refs: 'dir 755',
  'refs/deep': 'dir 755',
  'refs/deep/more.md': 'file 644 more\n',
  'refs/notes.md': 'file 644 notes\n',
  scripts: 'dir 755',
  'scripts/notes.md': 'file 644 notes\n',
  'scripts/run.sh': 'file 755 #!/bin/sh\necho run\n',
  'setuid.sh': 'file 755 #!/bin/sh\necho setuid\n',
};

describe('every way in places the same tree, with the same integrity (built CLI)', () => {
  it('a folder, its .tgz, a registry copy and a git repository give byte-identical trees and one integrity', async () => {
    const base = fresh('base');
    const src = join(base, 'src');
    mkdirSync(src);
    const skill = linkedSkill(src);
    const reg = join(base, 'registry');
    const env = { SKILLS_REGISTRY: reg };
    const packed = await runCli(['pack', skill, '--out', join(base, 'dist'), '-q'], { cwd: base, env });
    expect(packed.exitCode).toBe(0);
    const tgz = join(base, 'dist', 'lk-1.0.0.tgz');

    const projects: Record<string, string> = {};
    const install = async (name: string, source: string) => {
      const dir = (projects[name] = join(base, name));
      mkdirSync(dir);
      const r = await runCli(['install', source, '--into', 'out'], { cwd: dir, env });
      expect({ name, code: r.exitCode, stderr: r.stderr }).toEqual({ name, code: 0, stderr: '' });
    };
    await install('folder', skill);
    await install('archive', tgz);
    const synced = await runCli(['registry', 'sync', src], { cwd: base, env });
    expect(synced.exitCode).toBe(0);
    await install('from-registry', 'lk@1.0.0');
    const repo = join(base, 'repo');
    const tree = await execa('cp', ['-a', skill, repo]);
    expect(tree.exitCode).toBe(0);
    // git keeps the owner's execute bit alone (610 is committed as 644): 710 is what pack makes of 610 too (755).
    chmodSync(join(repo, 'group.md'), 0o710);
    const git = (...args: string[]) =>
      execa('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], {
        cwd: repo,
      });
    await git('init', '-q');
    await git('add', '-A');
    await git('commit', '-qm', 'lk');
    await install('git', `file://${repo}`);

    const integrities = new Set<string>();
    for (const [name, dir] of Object.entries(projects)) {
      expect({ name, tree: describeTree(join(dir, 'out/lk')) }).toEqual({ name, tree: expected });
      integrities.add(lockOf(dir).skills.lk!.integrity);
    }
    expect(integrities.size).toBe(1);

    // The archive of the same version, in the project that installed the folder: the same content, unchanged.
    const again = await runCli(['install', tgz], { cwd: projects.folder!, env });
    expect(again.stderr).toBe('');
    expect(again.stdout).toContain('unchanged lk@1.0.0');
    expect(again.exitCode).toBe(0);
  });

  it('a link inside the skill to its .env is left out as the .env is, by a folder install and a registry copy', async () => {
    const base = fresh('secret-link');
    const src = join(base, 'src');
    const root = join(src, 'sl');
    writeTree(root, {
      'SKILL.md': skillMd(
        'name: sl\ndescription: A link to a secret. Use when testing install.\nmetadata:\n  version: "1.0.0"',
        '# sl\n\nRead settings.txt.\n',
      ),
      '.env': 'API_KEY=supersecret\n',
    });
    symlinkSync('.env', join(root, 'settings.txt'));
    const reg = join(base, 'registry');
    const env = { SKILLS_REGISTRY: reg };
    const said = 'warning: sl: .env, settings.txt left out of its copies: secrets are never installed';
    const folder = join(base, 'folder');
    mkdirSync(folder);
    const r = await runCli(['install', root, '--into', 'out'], { cwd: folder, env });
    expect({ code: r.exitCode, stderr: r.stderr }).toEqual({ code: 0, stderr: said });
    expect(describeTree(join(folder, 'out/sl'))).toEqual({
      '.': 'dir 755',
      'SKILL.md': expect.stringMatching(/^file 644 ---/),
    });
    expect((await runCli(['registry', 'sync', src], { cwd: base, env })).exitCode).toBe(0);
    const fromReg = join(base, 'from-registry');
    mkdirSync(fromReg);
    expect((await runCli(['install', 'sl@1.0.0', '--into', 'out'], { cwd: fromReg, env })).exitCode).toBe(0);
    expect(describeTree(join(fromReg, 'out/sl'))).toEqual(describeTree(join(folder, 'out/sl')));
    // One content, whichever way it came in.
    expect(lockOf(fromReg).skills.sl!.integrity).toBe(lockOf(folder).skills.sl!.integrity);
  });

  it('a lock and a copy an older skills wrote (the link kept as a link) are the same content: placed again as files, said', async () => {
    const base = fresh('old');
    const skill = linkedSkill(base);
    const project = join(base, 'project');
    mkdirSync(project);
    const env = { SKILLS_REGISTRY: join(base, 'registry') };
    expect((await runCli(['install', skill, '--into', 'out'], { cwd: project, env })).exitCode).toBe(0);
    // What the older skills wrote: its copy held the links as links, and its lock the integrity they hashed to.
    const placed = join(project, 'out/lk');
    const lock = lockOf(project);
    const { execFileSync } = await import('node:child_process');
    execFileSync('rm', ['-rf', placed]);
    execFileSync('cp', ['-a', skill, placed]);
    const { legacyIntegrities } = await import('../../src/registry/integrity.js');
    const old = legacyIntegrities(skill)[0]!;
    expect(old).not.toBe(lock.skills.lk!.integrity);
    const text = readFileSync(join(project, 'skills-lock.json'), 'utf8');
    writeFileSync(join(project, 'skills-lock.json'), text.replace(lock.skills.lk!.integrity, old));

    const frozen = await runCli(['install', '--frozen'], { cwd: project, env });
    expect(frozen.stderr).toContain(
      'lk@1.0.0: skills-lock.json records the integrity skills gave it when it copied symbolic links inside a skill as links; they are now copied as the files they lead to',
    );
    expect(frozen.stderr).toContain('--frozen leaves the lock as it is: run skills install to record it');
    expect(frozen.exitCode).toBe(0);
    expect(describeTree(placed)).toEqual(expected);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toContain(old);

    const replay = await runCli(['install'], { cwd: project, env });
    expect(replay.exitCode).toBe(0);
    expect(lockOf(project).skills.lk!.integrity).toBe(lock.skills.lk!.integrity);
    const outdated = await runCli(['update', '--dry-run'], { cwd: project, env });
    expect(outdated.stderr).not.toContain('changed');
  });
});

describe('pack writes no name install refuses (built CLI)', () => {
  const bsSkill = (parent: string) => {
    const root = join(parent, 'bs');
    writeTree(root, {
      'SKILL.md': skillMd(
        'name: bs\ndescription: Backslash names. Use when testing pack.\nmetadata:\n  version: "1.0.0"',
      ),
    });
    return root;
  };

  it('refuses a file or a folder whose name holds a backslash (exit 1), naming it; what it packs installs', async () => {
    const base = fresh('bs');
    const env = { SKILLS_REGISTRY: join(base, 'registry') };
    const root = bsSkill(base);
    writeFileSync(join(root, 'a\\b.txt'), 'x\n');
    const file = await runCli(['pack', root, '--out', join(base, 'dist')], { cwd: base, env });
    expect(file.stderr).toBe(
      `error: ${join(root, 'a\\b.txt')}: its name holds a backslash, a folder separator on Windows, which skills install refuses in an archive; nothing was packed\nhint: rename it (lint: SK129), or list it in .skillignore`,
    );
    expect(file.exitCode).toBe(1);
    // lint says so before pack does.
    const lint = await runCli(['lint', root], { cwd: base, env });
    expect(lint.stdout).toContain('(skills pack refuses it, as skills install would)');

    rmSync(join(root, 'a\\b.txt'));
    mkdirSync(join(root, 'x\\y'));
    writeFileSync(join(root, 'x\\y', 'c.md'), 'c\n');
    const folder = await runCli(['pack', root, '--out', join(base, 'dist')], { cwd: base, env });
    expect(folder.stderr).toContain(`error: ${join(root, 'x\\y')}: its name holds a backslash`);
    expect(folder.exitCode).toBe(1);

    // Left out by .skillignore: packed, and the archive installs.
    writeFileSync(join(root, '.skillignore'), 'x\\\\y/\n');
    const packed = await runCli(['pack', root, '--out', join(base, 'dist'), '-q'], { cwd: base, env });
    expect(packed.stderr).toBe('');
    expect(packed.exitCode).toBe(0);
    const project = join(base, 'project');
    mkdirSync(project);
    const installed = await runCli(['install', join(base, 'dist', 'bs-1.0.0.tgz'), '--into', 'out'], {
      cwd: project,
      env,
    });
    expect(installed.stderr).toBe('');
    expect(installed.exitCode).toBe(0);
  });
});
