// Issue 12, items 8-12, through the built CLI: parallel installs keep every lock entry, a changed stored copy is
// never installed, uninstall removes only what skills installed, one rule for ids, and the registry refuses
// duplicate ids and takes over a lock whose time is in the future.
import { afterAll, describe, expect, it } from 'vitest';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { parseLockfile } from '../../src/formats/lockfile.js';
import { cliAsUser, runCli, tempDir } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const root = tempDir('skills-hardening-e2e-');
// Stored copies are read-only: a user other than root gives their folders write permission back to delete them.
afterAll(() => {
  for (const rel of readdirSync(root.dir, { recursive: true }) as string[]) {
    const abs = join(root.dir, rel);
    if (lstatSync(abs).isDirectory()) chmodSync(abs, 0o755);
  }
  root.cleanup();
});
let n = 0;
const fresh = (name = 'd') => {
  const dir = join(root.dir, `${name}-${n++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

const cli = (reg: string, args: string[], cwd: string) => runCli(args, { cwd, env: { SKILLS_REGISTRY: reg } });

/** A skill folder `<parent>/<name>` at `version`, with more files, and more frontmatter lines in `extra`. */
const makeSkill = (parent: string, name: string, version = '1.0.0', files: Record<string, string> = {}, extra = '') => {
  const front = [`name: ${name}`, `description: Does ${name} things. Use when testing hardening.`, 'metadata:'];
  writeTree(join(parent, name), {
    'SKILL.md': skillMd([...front, `  version: "${version}"`, extra].join('\n')),
    ...files,
  });
  return join(parent, name);
};

const lockText = (project: string) => readFileSync(join(project, 'skills-lock.json'), 'utf8');
const lockOf = (project: string) => parseLockfile(lockText(project)).lock!;

/** Every path below a folder with its content (folders as <dir>): what "nothing changed" is checked against. */
const snapshot = (dir: string): Record<string, string> =>
  existsSync(dir)
    ? Object.fromEntries(
        (readdirSync(dir, { recursive: true }) as string[]).map((rel) => {
          const abs = join(dir, rel);
          return [rel, lstatSync(abs).isDirectory() ? '<dir>' : readFileSync(abs, 'utf8')];
        }),
      )
    : {};

/** Give the owner write permission again below a sealed stored copy, as someone changing the store would. */
function unseal(dir: string): void {
  chmodSync(dir, 0o755);
  for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
    const abs = join(dir, rel);
    chmodSync(abs, lstatSync(abs).isDirectory() ? 0o755 : 0o644);
  }
}

describe('item 8: parallel installs and uninstalls in one project keep every lock entry', () => {
  it('12 installs at once (folders and specs, with --into) and 3 uninstalls leave exactly the right lock', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    for (let i = 0; i < 18; i++) makeSkill(src, `p${i}`);
    // p0..p2 installed first (to be uninstalled in parallel later), p12..p14 registered (to be installed by spec).
    const first = ['p0', 'p1', 'p2'].map((id) => join(src, id));
    expect((await cli(reg, ['install', ...first, '--into', 'skills'], project)).exitCode).toBe(0);
    for (const i of [12, 13, 14]) expect((await cli(reg, ['sync', join(src, `p${i}`)], src)).exitCode).toBe(0);
    const runs = await Promise.all([
      ...Array.from({ length: 9 }, (_, i) => cli(reg, ['install', join(src, `p${i + 3}`)], project)),
      ...[12, 13, 14].map((i) => cli(reg, ['install', `p${i}@1.0.0`, '--into', 'skills'], project)),
    ]);
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `p${i + from}`).sort();
    expect(Object.keys(lockOf(project).skills).sort()).toEqual(ids(0, 15));
    expect(lockOf(project).into).toEqual(['skills']);

    // Installs and uninstalls together: each reads the lock the previous one wrote.
    const mixed = await Promise.all([
      ...['p0', 'p1', 'p2'].map((id) => cli(reg, ['uninstall', id], project)),
      ...[15, 16, 17].map((i) => cli(reg, ['install', join(src, `p${i}`)], project)),
    ]);
    for (const r of mixed) expect(r.exitCode, r.stderr).toBe(0);
    const after = Object.keys(lockOf(project).skills).sort();
    expect(after).toEqual(ids(3, 18));
    expect(readdirSync(join(project, 'skills')).sort()).toEqual(after);
    // No lock folder or temp file is left behind.
    expect(readdirSync(project).sort()).toEqual(['skills', 'skills-lock.json']);
  }, 60_000);
});

describe('item 9: a stored copy whose files changed is never installed; the store is read-only', () => {
  it('refuses a changed stored copy (edited, added, removed, made executable) for a lock or a spec, even --frozen', async () => {
    const src = fresh('src');
    const dir = makeSkill(src, 'kept', '1.0.0', { 'scripts/run.sh': '#!/bin/sh\necho ok\n' });
    const tampers: [string, (copy: string) => void][] = [
      ['edited', (c) => writeFileSync(join(c, 'SKILL.md'), readFileSync(join(c, 'SKILL.md'), 'utf8') + 'evil\n')],
      ['added', (c) => writeFileSync(join(c, 'scripts/evil.sh'), '#!/bin/sh\nrm -rf ~\n')],
      ['removed', (c) => writeFileSync(join(c, 'scripts/run.sh'), '')],
      ['executable', (c) => chmodSync(join(c, 'SKILL.md'), 0o755)],
    ];
    for (const [what, tamper] of tampers) {
      const reg = join(fresh(), 'registry');
      const project = fresh('project');
      expect((await cli(reg, ['sync', dir], src)).exitCode).toBe(0);
      expect((await cli(reg, ['install', 'kept@1.0.0', '--into', 'skills'], project)).exitCode).toBe(0);
      const copy = join(reg, 'built-in/kept@1.0.0');
      unseal(copy);
      tamper(copy);
      const before = { project: snapshot(project), lock: lockText(project) };
      for (const args of [
        ['install', '--frozen'],
        ['install'],
        ['install', 'kept@1.0.0', '--into', 'other'],
        ['install', 'kept', '--frozen'],
      ]) {
        const r = await cli(reg, args, project);
        expect(r.exitCode, `${what}: ${args.join(' ')}`).toBe(2);
        expect(r.stderr.split('\n')[0]).toMatch(
          new RegExp(
            `^error: ${copy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the stored copy of kept@1\\.0\\.0 was changed after it was registered \\(.*releases/kept\\.json records sha512-.*, its files hash to sha512-.*\\); nothing was installed$`,
          ),
        );
        expect(r.stderr).toContain(
          'hint: register it again from its source (skills registry sync <its folder> --force)',
        );
      }
      expect(snapshot(project), what).toEqual(before.project);
      expect(lockText(project)).toBe(before.lock);
    }
  }, 60_000);

  it('copies a changed stored copy again from a good source (a folder, --from, sync --force), and places the good one', async () => {
    const src = fresh('src');
    const dir = makeSkill(src, 'fixme');
    const good = readFileSync(join(dir, 'SKILL.md'), 'utf8');
    const other = join(fresh(), 'other-registry');
    expect((await cli(other, ['sync', dir], src)).exitCode).toBe(0);
    for (const args of [
      ['install', dir, '--into', 'skills'],
      ['install', 'fixme@1.0.0', '--from', other, '--into', 'skills'],
      ['sync', dir, '--force'],
    ]) {
      const reg = join(fresh(), 'registry');
      const project = fresh('project');
      expect((await cli(reg, ['sync', dir], src)).exitCode).toBe(0);
      const copy = join(reg, 'built-in/fixme@1.0.0');
      unseal(copy);
      writeFileSync(join(copy, 'SKILL.md'), 'tampered\n');
      const r = await cli(reg, args, project);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        args[0] === 'sync' ? /^replaced +fixme@1\.0\.0/ : /^added +fixme@1\.0\.0 \(stored copy replaced\)/,
      );
      expect(readFileSync(join(copy, 'SKILL.md'), 'utf8')).toBe(good);
      if (args[0] === 'install') expect(readFileSync(join(project, 'skills/fixme/SKILL.md'), 'utf8')).toBe(good);
    }
  });

  it('keeps no write permission on any stored file or folder; a placed copy is writable', async () => {
    const src = fresh('src');
    const dir = makeSkill(src, 'sealed', '1.0.0', { 'scripts/a.sh': '#!/bin/sh\necho a\n', 'references/r.md': 'r\n' });
    chmodSync(join(dir, 'scripts/a.sh'), 0o755);
    const reg = join(fresh(), 'registry');
    const project = fresh('project');
    writeTree(project, {});
    // From a folder, and from an archive (whose unpacked folder is moved into the store, not copied).
    expect((await cli(reg, ['install', dir, '--into', 'skills'], project)).exitCode).toBe(0);
    expect((await cli(reg, ['pack', dir, '--out', src], src)).exitCode).toBe(0);
    const copies = [join(reg, 'built-in/sealed@1.0.0')];
    const reg2 = join(fresh(), 'registry');
    expect((await cli(reg2, ['install', join(src, 'sealed-1.0.0.tgz')], fresh('p'))).exitCode).toBe(0);
    copies.push(join(reg2, 'built-in/sealed@1.0.0'));
    for (const copy of copies) {
      const all = [copy, ...(readdirSync(copy, { recursive: true }) as string[]).map((r) => join(copy, r))];
      expect(all.length).toBeGreaterThan(4);
      for (const p of all) expect((statSync(p).mode & 0o222).toString(8), p).toBe('0');
      expect(statSync(join(copy, 'scripts/a.sh')).mode & 0o111).toBe(0o111);
    }
    const placed = join(project, 'skills/sealed/SKILL.md');
    expect(statSync(placed).mode & 0o200).toBe(0o200);
    // A sealed copy is still replaced and removed by skills itself.
    writeFileSync(join(dir, 'references/r.md'), 'changed\n');
    expect((await cli(reg, ['sync', dir, '--force'], src)).exitCode).toBe(0);
    // --force: the projects that installed it are recorded as its users.
    expect((await cli(reg, ['registry', 'remove', 'sealed', '--force'], src)).exitCode).toBe(0);
    expect(readdirSync(join(reg, 'built-in'))).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')(
    'a script run from its stored copy cannot create, change or delete a file there (as a user other than root)',
    async () => {
      const base = fresh('user');
      chmodSync(root.dir, 0o755);
      chmodSync(base, 0o755);
      const src = join(base, 'src');
      makeSkill(src, 'writer', '1.0.0', {
        'scripts/w.sh':
          '#!/bin/sh\necho hi > made.txt\necho more >> SKILL.md\nrm -f scripts/w.sh\nmkdir sub\nchmod u+w . 2>/dev/null; true\n',
      });
      chmodSync(join(src, 'writer/scripts/w.sh'), 0o755);
      mkdirSync(join(base, 'home'));
      // Root ignores permission bits: run as nobody, with everything it writes owned by nobody.
      const env = { NO_COLOR: '1', HOME: join(base, 'home'), SKILLS_REGISTRY: join(base, 'registry') };
      const cli = cliAsUser(base, env);
      const run = (args: string[]) => cli.run(args, base);
      expect((await run(['sync', src])).exitCode).toBe(0);
      const copy = join(base, 'registry/built-in/writer@1.0.0');
      const before = snapshot(copy);
      const r = await run(['run-script', 'writer', 'w.sh', '--args', '{}', '--json']);
      const doc = JSON.parse(r.stdout);
      expect(doc.stderr).toMatch(/cannot create made\.txt: Permission denied/);
      expect(doc.stderr).toMatch(/cannot create SKILL\.md: Permission denied/);
      expect(doc.stderr).toMatch(/cannot remove 'scripts\/w\.sh': Permission denied/);
      expect(snapshot(copy)).toEqual(before);
    },
  );
});

describe('item 10: uninstall removes only what skills installed there', () => {
  it('never deletes a folder the lock and the registry do not name, even with --force', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    writeTree(project, { 'src/main.ts': 'code\n', 'docs/a.md': 'a\n', 'skills/notes/n.md': 'n\n' });
    const before = snapshot(project);
    for (const args of [
      ['uninstall', 'src', '--into', '.'],
      ['uninstall', 'src', '--into', '.', '--force'],
      ['uninstall', 'docs', '--into', project],
      ['uninstall', 'notes', '--into', 'skills', '--force'],
      ['uninstall', 'src'],
    ]) {
      const r = await cli(reg, args, project);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(
        /^error: (src|docs|notes) is not installed: not in .*skills-lock\.json, not in the registry .*; nothing was removed$/,
      );
    }
    const r = await cli(reg, ['uninstall', 'src', '--into', '.'], project);
    expect(r.stderr).toContain(
      `hint: ${join(project, 'src')} is no copy skills installed; remove it by hand if that is meant`,
    );
    expect(snapshot(project)).toEqual(before);
  });

  it('refuses a folder whose content is not what was installed (changed, a .env added, a file), naming --force', async () => {
    const src = fresh('src');
    const dir = makeSkill(src, 'mine');
    for (const [what, change] of [
      ['changed', (t: string) => writeFileSync(join(t, 'SKILL.md'), 'my own work\n')],
      ['.env added', (t: string) => writeFileSync(join(t, '.env'), 'TOKEN=secret\n')],
      ['node_modules added', (t: string) => writeTree(t, { 'node_modules/x/index.js': 'x\n' })],
    ] as const) {
      const project = fresh('project');
      const reg = join(fresh(), 'registry');
      // In the registry (not the lock), and in the lock (installed into another folder).
      expect((await cli(reg, ['install', dir, '--into', 'elsewhere'], project)).exitCode).toBe(0);
      mkdirSync(join(project, 'agents'));
      writeTree(join(project, 'agents/mine'), { 'SKILL.md': readFileSync(join(dir, 'SKILL.md'), 'utf8') });
      change(join(project, 'agents/mine'));
      const before = snapshot(project);
      const r = await cli(reg, ['uninstall', 'mine', '--into', 'agents'], project);
      expect(r.exitCode, what).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(
        `error: ${join(project, 'agents/mine')} is not a copy skills installed: its content matches no version of mine in ${join(project, 'skills-lock.json')} or the registry ${reg}; nothing was removed`,
      );
      expect(r.stderr).toContain('run again with --force to remove it anyway');
      expect(snapshot(project)).toEqual(before);
      expect(existsSync(join(reg, 'built-in/mine@1.0.0'))).toBe(true);
      const forced = await cli(reg, ['uninstall', 'mine', '--into', 'agents', '--force'], project);
      expect(forced.exitCode, forced.stderr).toBe(0);
      expect(existsSync(join(project, 'agents/mine'))).toBe(false);
      expect(existsSync(join(project, 'elsewhere/mine'))).toBe(false);
    }
  });

  it('removes an unchanged copy of any registered version from --into', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    expect((await cli(reg, ['sync', makeSkill(fresh('v1'), 'multi', '1.0.0')], src)).exitCode).toBe(0);
    expect((await cli(reg, ['sync', makeSkill(src, 'multi', '2.0.0')], src)).exitCode).toBe(0);
    expect((await cli(reg, ['install', 'multi@1.0.0', '--into', 'skills'], fresh('other'))).exitCode).toBe(0);
    const placed = fresh('placed');
    expect((await cli(reg, ['install', 'multi@1.0.0', '--into', placed], fresh('p'))).exitCode).toBe(0);
    const r = await cli(reg, ['uninstall', 'multi', '--into', placed], project);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(placed)).toEqual([]);
  });
});

describe('item 11: one rule for skill ids, Unicode names included', () => {
  it('installs, resolves, uses, uninstalls and removes résumé, typed composed or not, and as a dependency', async () => {
    const src = fresh('src');
    makeSkill(src, 'résumé');
    makeSkill(src, 'cv-writer', '1.0.0', {}, 'dependencies:\n  - résumé@^1.0.0\n');
    const reg = join(fresh(), 'registry');
    const project = fresh('project');
    expect((await cli(reg, ['sync', src], src)).exitCode).toBe(0);
    const decomposed = 'résumé'.normalize('NFD');
    for (const spec of ['résumé', 'résumé@1.0.0', `${decomposed}@^1`]) {
      const r = await cli(reg, ['resolve', spec], project);
      expect(r.exitCode, `${spec}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/^résumé@1\.0\.0 /);
    }
    expect((await cli(reg, ['resolve', 'cv-writer'], project)).stdout).toContain('résumé@1.0.0');
    const inst = await cli(reg, ['install', 'résumé@1.0.0', 'cv-writer', '--into', 'skills'], project);
    expect(inst.exitCode, inst.stderr).toBe(0);
    expect(Object.keys(lockOf(project).skills).sort()).toEqual(['cv-writer', 'résumé']);
    // The project that installed it is recorded as a user too.
    expect((await cli(reg, ['use', decomposed, '--by', 'agent'], project)).stdout).toBe(
      `résumé is used by ${project}, agent`,
    );
    expect((await cli(reg, ['unuse', 'résumé', '--by', 'agent'], project)).exitCode).toBe(0);
    const un = await cli(reg, ['uninstall', decomposed], project);
    expect(un.exitCode, un.stderr).toBe(0);
    expect(un.stdout).toBe(
      'uninstalled résumé@1.0.0 from skills/résumé, skills-lock.json, the store (built-in/résumé@1.0.0)',
    );
    expect((await cli(reg, ['sync', src], src)).exitCode).toBe(0);
    const rm = await cli(reg, ['registry', 'remove', 'résumé@1.0.0'], project);
    expect(rm.exitCode, rm.stderr).toBe(0);
  });

  it('refuses the same ids everywhere with the same message', async () => {
    const reg = join(fresh(), 'registry');
    const project = fresh('project');
    for (const id of ['Résumé', 'a--b', 'trailing-', 'x'.repeat(65), 'a_b', 'café!']) {
      for (const args of [
        ['install', `${id}@1.0.0`],
        ['uninstall', id],
        ['registry', 'remove', id],
        ['resolve', id],
        ['use', id, '--by', 'a'],
        ['unuse', id, '--by', 'a'],
      ]) {
        const r = await cli(reg, args, project);
        expect(r.exitCode, args.join(' ')).toBe(2);
        expect(r.stderr).toContain('is not a skill spec: the id must be lowercase letters, digits and hyphens');
      }
    }
    expect(existsSync(reg)).toBe(false);
  }, 60_000);
});

describe('item 12: duplicate ids in index.json; a lock time-stamped in the future', () => {
  it('refuses an index that lists one id twice, located, and deletes nothing', async () => {
    const src = fresh('src');
    makeSkill(src, 'twice');
    makeSkill(src, 'other');
    const reg = join(fresh(), 'registry');
    expect((await cli(reg, ['sync', src], src)).exitCode).toBe(0);
    const index = JSON.parse(readFileSync(join(reg, 'index.json'), 'utf8'));
    index.skills.push({ ...index.skills.find((s: { id: string }) => s.id === 'twice') });
    const text = JSON.stringify(index, null, 2);
    writeFileSync(join(reg, 'index.json'), text);
    const line =
      text
        .split('\n')
        .findIndex(
          (l, i, all) => i > all.findIndex((x) => x.includes('"id": "twice"')) && l.includes('"id": "twice"'),
        ) + 1;
    const before = snapshot(reg);
    const project = fresh('project');
    for (const args of [
      ['registry', 'remove', 'twice'],
      ['list'],
      ['install', 'twice'],
      ['sync', src],
      ['resolve', 'other'],
      ['use', 'twice', '--by', 'a'],
    ]) {
      const r = await cli(reg, args, project);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(
        `error: ${join(reg, 'index.json')}:${line}:13: index.json: skills.2.id: the id "twice" is listed twice (skills[1] and skills[2]): expected one entry per skill, with every version in its "versions"`,
      );
    }
    expect(snapshot(reg)).toEqual(before);
  });

  it('takes over a registry or project lock whose time is in the future at once', async () => {
    const src = fresh('src');
    const reg = join(fresh(), 'registry');
    const project = fresh('project');
    expect((await cli(reg, ['install', makeSkill(src, 'first')], project)).exitCode).toBe(0);
    const future = new Date(Date.now() + 3600_000);
    const far = new Date('2099-01-01T00:00:00Z');
    for (const [lock, when] of [
      [join(reg, '.lock'), future],
      [join(project, '.skills-lock.json.lock'), far],
    ] as const) {
      mkdirSync(lock);
      utimesSync(lock, when, when);
      const started = Date.now();
      const r = await cli(reg, ['install', makeSkill(src, `s${n++}`)], project);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(existsSync(lock)).toBe(false);
    }
    expect(Object.keys(lockOf(project).skills)).toHaveLength(3);
  }, 30_000);

  it('takes over a lock left by a killed process once it is 10 s old, as the message says', async () => {
    const src = fresh('src');
    const reg = join(fresh(), 'registry');
    const project = fresh('project');
    mkdirSync(reg);
    mkdirSync(join(reg, '.lock'));
    const stale = new Date(Date.now() - 7_000);
    utimesSync(join(reg, '.lock'), stale, stale);
    const started = Date.now();
    const r = await cli(reg, ['install', makeSkill(src, 'late')], project);
    expect(r.exitCode, r.stderr).toBe(0);
    const took = Date.now() - started;
    expect(took).toBeGreaterThan(2_000);
    expect(took).toBeLessThan(12_000);
  }, 30_000);
});
