// `skills outdated` and `skills update` against real git repositories on disk (file://) and a git daemon on
// 127.0.0.1 (git://): tags, semver ranges and branches moving on, a placed copy edited by hand, a remote gone.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLockfile } from '../../src/formats/lockfile.js';
import { ROOT, runCli, tempFolders } from '../helpers/cli.js';
import { git, gitConfigGlobal, makeRepo, startGitDaemon } from '../helpers/git-repos.js';
import { skillMd, snapshot } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-outdated-e2e-');
afterAll(cleanup);

const pdf = (version: string, extra = '') =>
  skillMd(
    `name: pdf\ndescription: Fills PDF forms. Use when the task involves a PDF.\nmetadata:\n  version: "${version}"\n`,
    `# PDF\n\nStep one.\n${extra}`,
  );

const bar = skillMd('name: bar\ndescription: Does bar things. Use when the task involves bar.\n', '# Bar\n');

/** A repository with skills/pdf at `version`, tagged `tag` when given; returns its folder and first commit. */
function repo(version = '1.0.0', tag: string | null = 'v1.0.0'): { dir: string; url: string; first: string } {
  const dir = join(fresh('repos'), 'skills.git');
  const first = makeRepo(
    dir,
    { 'README.md': '# skills\n', 'skills/pdf/SKILL.md': pdf(version) },
    { tag: tag ?? undefined },
  );
  return { dir, url: `file://${dir}`, first };
}

/** A user (HOME, cache, git config in temp folders, no registry) and a project with .claude/skills. */
function setup(): { env: Record<string, string>; project: string } {
  const home = fresh('home');
  const env = { ...gitConfigGlobal(home, {}), XDG_CACHE_HOME: join(home, '.cache'), SKILLS_REGISTRY: '' };
  const project = fresh('project');
  git(project, ['init', '--quiet']);
  mkdirSync(join(project, '.claude/skills'), { recursive: true });
  return { env, project };
}

const cli = (args: string[], s: { env: Record<string, string>; project: string }) =>
  runCli(args, { cwd: s.project, env: s.env });

const lockText = (project: string) => readFileSync(join(project, 'skills-lock.json'), 'utf8');
const lockOf = (project: string) => parseLockfile(lockText(project)).lock!;
const placed = (project: string) => join(project, '.claude/skills/pdf');

async function install(source: string, s: ReturnType<typeof setup>): Promise<void> {
  const r = await cli(['install', source, '--yes'], s);
  expect(r.stderr).not.toMatch(/error/);
  expect(r.exitCode).toBe(0);
}

describe('a skill installed from a tag', () => {
  const r = repo();
  const s = setup();
  let v110: string;

  it('is up to date until a newer tag is pushed, then outdated shows it (table and --json), exit 0', async () => {
    await install(`${r.url}#v1.0.0:skills/pdf`, s);
    const before = await cli(['outdated'], s);
    expect(before).toMatchObject({ exitCode: 0, stdout: 'all skills are up to date' });

    v110 = makeRepo(
      r.dir,
      { 'skills/pdf/SKILL.md': pdf('1.1.0', 'Step two.\n'), 'skills/pdf/notes.txt': 'new\n' },
      {
        tag: 'v1.1.0',
      },
    );
    const after = await cli(['outdated'], s);
    expect(after.exitCode).toBe(0);
    const lines = after.stdout.split('\n');
    expect(lines[0]).toMatch(/^id\s+current\s+wanted\s+latest\s+source$/);
    expect(lines[1]).toMatch(
      new RegExp(`^pdf\\s+1\\.0\\.0\\s+1\\.0\\.0\\s+1\\.1\\.0\\s+${r.url}#v1\\.0\\.0:skills/pdf$`),
    );

    const json = await cli(['outdated', '--json'], s);
    expect(json.exitCode).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.skills).toHaveLength(1);
    expect(doc.skills[0]).toMatchObject({
      id: 'pdf',
      kind: 'git',
      ref: 'v1.0.0',
      outdated: true,
      wantedNewer: false,
      latestNewer: true,
      current: { version: '1.0.0', commit: r.first },
      wanted: { version: '1.0.0', commit: r.first },
      latest: { version: '1.1.0', commit: v110, tag: 'v1.1.0' },
    });
  });

  it('update without --latest keeps the pinned tag, and says a newer one exists', async () => {
    const u = await cli(['update'], s);
    expect(u.exitCode).toBe(0);
    expect(u.stdout).toContain('all skills are up to date');
    expect(u.stdout).toContain('skills update --latest pdf');
    expect(lockOf(s.project).skills.pdf!.commit).toBe(r.first);
  });

  it('update --latest --dry-run shows the files and the diff, and writes nothing', async () => {
    const lock = lockText(s.project);
    const files = snapshot(placed(s.project));
    const d = await cli(['update', '--latest', '--dry-run'], s);
    expect(d.exitCode).toBe(0);
    expect(d.stdout).toContain('would update pdf 1.0.0 → 1.1.0');
    expect(d.stdout).toMatch(/^ {2}\+ notes\.txt$/m);
    expect(d.stdout).toMatch(/^ {2}~ SKILL\.md$/m);
    expect(d.stdout).toContain('--- a/SKILL.md\n+++ b/SKILL.md');
    expect(d.stdout).toMatch(/^- {2}version: "1\.0\.0"$/m);
    expect(d.stdout).toMatch(/^\+ {2}version: "1\.1\.0"$/m);
    expect(d.stdout).toMatch(/^\+Step two\.$/m);
    expect(d.stdout).toContain('nothing was written');
    expect(lockText(s.project)).toBe(lock);
    expect(snapshot(placed(s.project))).toEqual(files);

    const j = JSON.parse((await cli(['update', '--latest', '--dry-run', '--json'], s)).stdout);
    expect(j.updates[0]).toMatchObject({
      id: 'pdf',
      files: { added: ['notes.txt'], removed: [], changed: ['SKILL.md'] },
      target: { commit: v110 },
    });
    expect(lockText(s.project)).toBe(lock);
  });

  it('update --latest moves the lock to the new commit and rewrites the placed copy', async () => {
    const u = await cli(['update', '--latest'], s);
    expect(u.stderr).toBe('');
    expect(u.exitCode).toBe(0);
    expect(u.stdout).toContain('updated pdf 1.0.0 → 1.1.0');
    const e = lockOf(s.project).skills.pdf!;
    expect(e).toMatchObject({ commit: v110, version: '1.1.0', path: 'skills/pdf' });
    // A pinned tag moves to the tag installed.
    expect(e.ref).toBe('v1.1.0');
    expect(readFileSync(join(placed(s.project), 'SKILL.md'), 'utf8')).toContain('Step two.');
    expect(readFileSync(join(placed(s.project), 'notes.txt'), 'utf8')).toBe('new\n');
    expect((await cli(['outdated'], s)).stdout).toBe('all skills are up to date');
  });
});

describe('a skill whose own version is not its tag’s', () => {
  it('update --latest reports the version the lock records, and the tag as a tag (--dry-run too)', async () => {
    const r = repo('0.3.0', 'v1.0.0');
    const s = setup();
    await install(`${r.url}#v1.0.0:skills/pdf`, s);
    expect(lockOf(s.project).skills.pdf!.version).toBe('0.3.0');
    makeRepo(r.dir, { 'skills/pdf/SKILL.md': pdf('0.4.0', 'Step two.\n') }, { tag: 'v2.0.0' });
    const said = 'pdf 0.3.0 (tag v1.0.0) → 0.4.0 (tag v2.0.0)';
    // outdated shows the version the lock records too, and the tags as tags: what a tag is, not the skill's version.
    const o = await cli(['outdated'], s);
    expect(o.exitCode, o.stderr).toBe(0);
    expect(o.stdout).toMatch(/^pdf\s+0\.3\.0 \(tag v1\.0\.0\)\s+0\.3\.0 \(tag v1\.0\.0\)\s+tag v2\.0\.0\s+file:/m);
    const j = JSON.parse((await cli(['outdated', '--json'], s)).stdout).skills[0];
    expect(j).toMatchObject({ current: { version: '1.0.0', tag: 'v1.0.0' }, latest: { version: '2.0.0' } });
    const d = await cli(['update', '--latest', '--dry-run'], s);
    expect(d.exitCode, d.stderr).toBe(0);
    expect(d.stdout).toContain(`would update ${said}`);
    const u = await cli(['update', '--latest'], s);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(u.stdout).toContain(`updated ${said}`);
    expect(lockOf(s.project).skills.pdf).toMatchObject({ version: '0.4.0', ref: 'v2.0.0' });
  });

  it('a skill whose version catches up with the tag is shown by its version, not as `tag v2.0.0`', async () => {
    const r = repo('0.3.0', 'v1.0.0');
    const s = setup();
    await install(`${r.url}#v1.0.0:skills/pdf`, s);
    makeRepo(r.dir, { 'skills/pdf/SKILL.md': pdf('2.0.0', 'Step two.\n') }, { tag: 'v2.0.0' });
    const u = await cli(['update', '--latest'], s);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(u.stdout).toContain('updated pdf 0.3.0 (tag v1.0.0) → 2.0.0  (');
    expect(lockOf(s.project).skills.pdf).toMatchObject({ version: '2.0.0', ref: 'v2.0.0' });
  });
});

describe('a skill installed from a semver range', () => {
  it('wants the highest tag in its range, not a 2.0.0 outside it, and update keeps the range in the lock', async () => {
    const r = repo();
    const s = setup();
    await install(`${r.url}#semver:^1.0:skills/pdf`, s);
    const v11 = makeRepo(r.dir, { 'skills/pdf/SKILL.md': pdf('1.1.0') }, { tag: 'v1.1.0' });
    const v2 = makeRepo(r.dir, { 'skills/pdf/SKILL.md': pdf('2.0.0') }, { tag: 'v2.0.0' });

    const o = JSON.parse((await cli(['outdated', '--json'], s)).stdout).skills[0];
    expect(o).toMatchObject({ refKind: 'semver', wanted: { version: '1.1.0', commit: v11 }, latest: { commit: v2 } });
    expect((await cli(['outdated'], s)).stdout).toMatch(/^pdf\s+1\.0\.0\s+1\.1\.0\s+2\.0\.0\s+/m);

    const u = await cli(['update'], s);
    expect(u.exitCode).toBe(0);
    expect(u.stdout).toContain('updated pdf 1.0.0 → 1.1.0');
    expect(lockOf(s.project).skills.pdf).toMatchObject({ commit: v11, version: '1.1.0', ref: 'semver:^1.0' });
    // Within the range there is nothing more; 2.0.0 is --latest's.
    const again = await cli(['outdated', '--json'], s);
    expect(JSON.parse(again.stdout).skills[0]).toMatchObject({ wantedNewer: false, latestNewer: true });
    // --latest moves past the range and widens it to the new major, as `npm install pkg@latest` rewrites a range.
    const dry = await cli(['update', '--latest', '--dry-run'], s);
    expect(dry.stdout).toContain(`would update pdf 1.1.0 → 2.0.0  (${r.url}#semver:^2.0.0:skills/pdf)`);
    const latest = await cli(['update', '--latest'], s);
    expect(latest.exitCode, latest.stderr).toBe(0);
    // The line says the range the lock now holds, not the one it replaced (#semver:^1.0).
    expect(latest.stdout).toContain(`updated pdf 1.1.0 → 2.0.0  (${r.url}#semver:^2.0.0:skills/pdf)`);
    expect(lockOf(s.project).skills.pdf).toMatchObject({ commit: v2, version: '2.0.0', ref: 'semver:^2.0.0' });
    expect((await cli(['outdated'], s)).stdout).toBe('all skills are up to date');
  });
});

describe('a skill installed from a branch', () => {
  it('is marked when the branch moves, and update follows it, keeping the branch as the ref', async () => {
    const r = repo('1.0.0', null);
    const s = setup();
    await install(`${r.url}#main:skills/pdf`, s);
    expect((await cli(['outdated'], s)).stdout).toBe('all skills are up to date');
    const all = await cli(['outdated', '--all'], s);
    expect(all.stdout).toMatch(
      new RegExp(`^pdf\\s+1\\.0\\.0 \\(${r.first.slice(0, 7)}\\)\\s+1\\.0\\.0 \\(${r.first.slice(0, 7)}\\)`, 'm'),
    );

    const next = makeRepo(r.dir, { 'skills/pdf/SKILL.md': pdf('1.0.0', 'Step three.\n') });
    const o = await cli(['outdated'], s);
    expect(o.exitCode).toBe(0);
    expect(o.stdout).toMatch(
      new RegExp(
        `^pdf\\s+1\\.0\\.0 \\(${r.first.slice(0, 7)}\\)\\s+main \\(${next.slice(0, 7)}\\)\\s+main \\(${next.slice(0, 7)}\\)\\s+${r.url}#main:skills/pdf$`,
        'm',
      ),
    );

    const u = await cli(['update', 'pdf'], s);
    expect(u.exitCode).toBe(0);
    expect(lockOf(s.project).skills.pdf).toMatchObject({ commit: next, ref: 'main' });
    expect(readFileSync(join(placed(s.project), 'SKILL.md'), 'utf8')).toContain('Step three.');
    expect(u.stdout).not.toContain('no file changes');
    expect((await cli(['update'], s)).stdout).toBe('all skills are up to date');

    // A commit that changes the repository but not this skill's folder: the folder's tree is the same at the new
    // head, so the skill is not outdated, and update leaves the lock where it is.
    const other = makeRepo(r.dir, { 'README.md': '# skills, renamed\n' });
    expect((await cli(['outdated'], s)).stdout).toBe('all skills are up to date');
    const json = JSON.parse((await cli(['outdated', '--json'], s)).stdout).skills[0];
    expect(json).toMatchObject({ outdated: false, wantedNewer: false, unchangedAt: other });
    expect(json.wanted).toMatchObject({ commit: next, branch: 'main' });
    const same = await cli(['update'], s);
    expect(same.exitCode).toBe(0);
    expect(same.stdout).toBe('all skills are up to date');
    expect(lockOf(s.project).skills.pdf).toMatchObject({ commit: next, ref: 'main' });
    // The next change to the folder is seen again.
    const third = makeRepo(r.dir, { 'skills/pdf/SKILL.md': pdf('1.0.0', 'Step three.\nStep four.\n') });
    const o2 = JSON.parse((await cli(['outdated', '--json'], s)).stdout).skills[0];
    expect(o2).toMatchObject({ outdated: true, wantedNewer: true, wanted: { commit: third } });
    expect(o2.unchangedAt).toBeUndefined();
  });

  it('when the commit installed is gone from the remote, a change elsewhere is still listed, and update says no file changes', async () => {
    const r = repo('1.0.0', null);
    const s = setup();
    // Installed from a commit that is then rewritten away (amended, the old one pruned): only its tree is known.
    const second = makeRepo(r.dir, { 'skills/pdf/SKILL.md': pdf('1.0.0', 'Step two.\n') });
    await install(`${r.url}#main:skills/pdf`, s);
    expect(lockOf(s.project).skills.pdf).toMatchObject({ commit: second });
    git(r.dir, ['commit', '--amend', '--quiet', '-m', 'amended']);
    git(r.dir, ['reflog', 'expire', '--expire=now', '--all']);
    git(r.dir, ['gc', '--quiet', '--prune=now']);
    const amended = git(r.dir, ['rev-parse', 'HEAD']).trim();
    expect(amended).not.toBe(second);
    const o = JSON.parse((await cli(['outdated', '--json'], s)).stdout).skills[0];
    expect(o).toMatchObject({ outdated: true, wantedNewer: true, wanted: { commit: amended } });
    expect(o.unchangedAt).toBeUndefined();
    const u = await cli(['update'], s);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(u.stdout).toMatch(
      new RegExp(
        `^updated pdf 1\\.0\\.0 \\(${second.slice(0, 7)}\\) → 1\\.0\\.0 \\(${amended.slice(0, 7)}\\) .* no file changes$`,
        'm',
      ),
    );
    expect(u.stdout).toMatch(
      /^1 skill updated \(its files unchanged: only the commit moved\); skills-lock\.json written$/m,
    );
    expect(lockOf(s.project).skills.pdf).toMatchObject({ commit: amended, ref: 'main' });
  });
});

describe('update of a skill that follows a branch shows the version it takes', () => {
  it('shows the version at the new head with its commit, not HEAD; a skill without a version keeps the branch', async () => {
    const r = repo('1.0.0', null);
    makeRepo(r.dir, { 'skills/bar/SKILL.md': bar });
    const first = git(r.dir, ['rev-parse', 'HEAD']).trim();
    const s = setup();
    await install(`${r.url}#:skills/pdf`, s);
    await install(`${r.url}#:skills/bar`, s);
    const next = makeRepo(r.dir, {
      'skills/pdf/SKILL.md': pdf('1.2.0', 'Step two.\n'),
      'skills/bar/SKILL.md': bar.replace('# Bar', '# Bar, edited'),
    });
    const was = `\\(${first.slice(0, 7)}\\)`;
    const now = `\\(${next.slice(0, 7)}\\)`;
    const dry = await cli(['update', '--dry-run'], s);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`^would update pdf 1\\.0\\.0 ${was} → 1\\.2\\.0 ${now} `, 'm'));
    expect(dry.stdout).toMatch(new RegExp(`^would update bar 0\\.0\\.0 ${was} → HEAD ${now} `, 'm'));
    const u = await cli(['update'], s);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(u.stdout).toMatch(new RegExp(`^updated pdf 1\\.0\\.0 ${was} → 1\\.2\\.0 ${now} `, 'm'));
    expect(u.stdout).not.toMatch(/^updated pdf .*→ HEAD/m);
    expect(lockOf(s.project).skills.pdf).toMatchObject({ commit: next, version: '1.2.0' });
  });
});

describe('update of a skill that follows a branch, installed at a tagged commit', () => {
  it.each([
    ['0.3.0', '0.4.0'],
    ['1.0.0', '1.2.0'],
  ])('shows it at %s by its commit, as outdated does, not by the tag', async (from, to) => {
    // The repository's tag v1.0.0 on the commit installed: the skill's own version may be another.
    const r = repo(from, 'v1.0.0');
    const s = setup();
    await install(`${r.url}#:skills/pdf`, s);
    const next = makeRepo(r.dir, { 'skills/pdf/SKILL.md': pdf(to, 'Step two.\n') });
    const line = `pdf ${from} (${r.first.slice(0, 7)}) → ${to} (${next.slice(0, 7)})  (`;
    const dry = await cli(['update', '--dry-run'], s);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`would update ${line}`);
    const u = await cli(['update'], s);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(u.stdout).toContain(`updated ${line}`);
  });
});

describe('a skill removed upstream', () => {
  it('is said to be gone (table and --json); update takes the others, names it with the way out, and exits 2', async () => {
    const dir = join(fresh('repos'), 'many.git');
    const first = makeRepo(dir, { 'skills/pdf/SKILL.md': pdf('1.0.0'), 'skills/bar/SKILL.md': bar });
    const s = setup();
    await install(`file://${dir}`, s);
    git(dir, ['rm', '-rq', 'skills/bar']);
    const next = makeRepo(dir, { 'skills/pdf/SKILL.md': pdf('1.0.0', 'Step two.\n') });
    const url = `file://${dir}`;
    const gone = `bar: its folder "skills/bar" is not in ${url} at HEAD (${next.slice(0, 7)}): removed or moved upstream`;
    const hint = `hint: skills uninstall bar, or keep it at the commit it was installed from: skills install ${url}#${first}:skills/bar`;

    const o = await cli(['outdated'], s);
    expect(o.exitCode).toBe(0);
    expect(o.stderr).toBe(`warning: ${gone}\n${hint}`);
    expect(o.stdout).toMatch(
      new RegExp(`^bar\\s+0\\.0\\.0 \\(${first.slice(0, 7)}\\)\\s+removed in HEAD \\(${next.slice(0, 7)}\\)\\s`, 'm'),
    );
    const json = JSON.parse((await cli(['outdated', '--json'], s)).stdout).skills;
    expect(json.find((x: { id: string }) => x.id === 'bar')).toMatchObject({
      removed: true,
      outdated: false,
      wantedNewer: false,
      wanted: { commit: next, gone: true },
    });
    expect(json.find((x: { id: string }) => x.id === 'pdf')).toMatchObject({
      outdated: true,
      wanted: { commit: next },
    });

    const u = await cli(['update'], s);
    expect(u.exitCode).toBe(2);
    expect(u.stderr).toBe(`error: ${gone}; it was not updated\n${hint}`);
    expect(u.stdout).toMatch(/^1 skill updated; skills-lock\.json written$/m);
    expect(lockOf(s.project).skills.pdf).toMatchObject({ commit: next });
    expect(lockOf(s.project).skills.bar).toMatchObject({ commit: first });
    expect(existsSync(join(s.project, '.claude/skills/bar/SKILL.md'))).toBe(true);
    const uj = JSON.parse((await cli(['update', 'bar', '--json'], s)).stdout);
    expect(uj.removed).toEqual([{ id: 'bar', message: gone, hint: hint.slice('hint: '.length) }]);

    // The hint's pin works: the skill stays at the commit it was installed from, and nothing is said of it again.
    expect((await cli(['install', `${url}#${first}:skills/bar`, '--yes'], s)).exitCode).toBe(0);
    const again = await cli(['update'], s);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toBe('all skills are up to date');
  });
});

describe('a skill renamed upstream (its folder is there, its SKILL.md names another skill)', () => {
  it('is left as it is, said with what the folder holds now and the way out; the others are updated, exit 2', async () => {
    const dir = join(fresh('repos'), 'renamed.git');
    const first = makeRepo(dir, { 'skills/pdf/SKILL.md': pdf('1.0.0'), 'skills/bar/SKILL.md': bar });
    const s = setup();
    await install(`file://${dir}`, s);
    const renamed = bar.replace('name: bar', 'name: baz');
    const next = makeRepo(dir, { 'skills/bar/SKILL.md': renamed, 'skills/pdf/SKILL.md': pdf('1.0.0', 'Two.\n') });
    const url = `file://${dir}`;

    const u = await cli(['update'], s);
    // Before: "error: --skill bar: no such skill in …", a flag never given, and pdf was not updated either.
    expect(u.stderr).toBe(
      `error: bar: ${url} (skills/bar) has no skill named bar at HEAD (${next.slice(0, 7)}) (it holds baz): ` +
        `renamed or moved upstream; it was not updated\n` +
        `hint: skills uninstall bar, then install it under its new name; or keep it at the commit it was installed ` +
        `from: skills install ${url}#${first}:skills/bar`,
    );
    expect(u.exitCode).toBe(2);
    expect(u.stdout).toMatch(/^1 skill updated; skills-lock\.json written$/m);
    expect(lockOf(s.project).skills.pdf).toMatchObject({ commit: next });
    expect(lockOf(s.project).skills.bar).toMatchObject({ commit: first });
    expect(readFileSync(join(s.project, '.claude/skills/bar/SKILL.md'), 'utf8')).toBe(bar);
    // install --skill with a name the source lacks says what it holds.
    const i = await cli(['install', url, '--skill', 'bar', '--yes'], s);
    expect(i.exitCode).toBe(2);
    expect(i.stderr).toMatch(
      /^error: --skill bar: no such skill in \S+ \(it holds baz, pdf\); nothing was installed$/m,
    );
  });
});

describe('a placed copy edited by hand', () => {
  it('is refused by update, naming the folder, with nothing written; --force overwrites it', async () => {
    const r = repo();
    const s = setup();
    await install(`${r.url}#v1.0.0:skills/pdf`, s);
    const v11 = makeRepo(r.dir, { 'skills/pdf/SKILL.md': pdf('1.1.0') }, { tag: 'v1.1.0' });
    const file = join(placed(s.project), 'SKILL.md');
    writeFileSync(file, `${readFileSync(file, 'utf8')}My own note.\n`);
    const lock = lockText(s.project);

    const refused = await cli(['update', '--latest'], s);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`${placed(s.project)} was edited since it was installed`);
    expect(refused.stderr).toContain('--force');
    expect(refused.stderr).toContain('--dry-run');
    expect(lockText(s.project)).toBe(lock);
    expect(readFileSync(file, 'utf8')).toContain('My own note.');

    // The dry run diffs against the edited copy: the edit is what would go.
    const d = await cli(['update', '--latest', '--dry-run'], s);
    expect(d.exitCode).toBe(0);
    expect(d.stdout).toContain('edited since installed: .claude/skills/pdf');
    expect(d.stdout).toMatch(/^-My own note\.$/m);

    const forced = await cli(['update', '--latest', '--force'], s);
    expect(forced.exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toContain('My own note.');
    expect(lockOf(s.project).skills.pdf!.commit).toBe(v11);
  });
});

describe('a remote that cannot be reached', () => {
  it('is an error line for its skill, after how many could not be checked; the others are still checked; outdated and update exit 2', async () => {
    const served = fresh('served');
    makeRepo(join(served, 'far.git'), {
      'skills/far/SKILL.md': skillMd('name: far\ndescription: Far away. Use when testing a remote that is gone.\n'),
    });
    const daemon = await startGitDaemon(served);
    const s = setup();
    try {
      await install(`${daemon.url('far.git')}#main:skills/far`, s);
    } finally {
      await daemon.stop();
    }
    const r = repo();
    await install(`${r.url}#v1.0.0:skills/pdf`, s);
    makeRepo(r.dir, { 'skills/pdf/SKILL.md': pdf('1.1.0') }, { tag: 'v1.1.0' });

    const o = await cli(['outdated'], s);
    expect(o.exitCode).toBe(2);
    expect(o.stderr).toMatch(/^error: 1 of 2 skills could not be checked; /);
    expect(o.stderr).toMatch(/^error: far: cannot check git:\/\/127\.0\.0\.1:\d+\/far\.git#main:skills\/far: /m);
    expect(o.stdout).toMatch(/^pdf\s+1\.0\.0\s+1\.0\.0\s+1\.1\.0\s+/m);

    const j = await cli(['outdated', '--json'], s);
    expect(j.exitCode).toBe(2);
    const far = JSON.parse(j.stdout).skills.find((x: { id: string }) => x.id === 'far');
    expect(far.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(far.outdated).toBe(false);

    // update cannot check it either: said first as outdated says it (also with -q), the rest updated, exit 2.
    const dry = await cli(['update', '--latest', '--dry-run', '-q'], s);
    expect(dry.exitCode).toBe(2);
    expect(dry.stderr).toMatch(/^error: 1 of 2 skills could not be checked; nothing is known of its newer versions$/m);
    const u = await cli(['update', '--latest'], s);
    expect(u.exitCode).toBe(2);
    expect(u.stderr).toMatch(/^error: 1 of 2 skills could not be checked; /);
    expect(u.stderr).toMatch(/^error: far: cannot check: /m);
    expect(lockOf(s.project).skills.pdf!.version).toBe('1.1.0');
    expect(existsSync(join(s.project, '.claude/skills/far'))).toBe(true);
  });
});

describe('a skill installed from the registry', () => {
  it('wants the highest release in the locked range; update keeps the range, --latest takes the newest', async () => {
    const s = setup();
    const reg = fresh('registry');
    const env = { ...s.env, SKILLS_REGISTRY: reg };
    const sync = async (version: string) => {
      const dir = join(fresh('src'), 'pdf');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'SKILL.md'), pdf(version));
      expect((await runCli(['sync', dir], { cwd: s.project, env })).exitCode).toBe(0);
    };
    const run = (args: string[]) => runCli(args, { cwd: s.project, env });
    await sync('1.0.0');
    expect((await run(['install', 'pdf@^1.0', '--yes'])).exitCode).toBe(0);
    await sync('1.1.0');
    await sync('2.0.0');
    const o = await run(['outdated']);
    expect(o.exitCode).toBe(0);
    expect(o.stdout).toMatch(/^pdf\s+1\.0\.0\s+1\.1\.0\s+2\.0\.0\s+registry$/m);

    const d = await run(['update', '--dry-run']);
    expect(d.stdout).toContain('would update pdf 1.0.0 → 1.1.0  (registry)');
    expect(d.stdout).toMatch(/^\+ {2}version: "1\.1\.0"$/m);
    expect(lockOf(s.project).skills.pdf!.version).toBe('1.0.0');

    expect((await run(['update'])).exitCode).toBe(0);
    expect(lockOf(s.project).skills.pdf).toMatchObject({ version: '1.1.0', ref: '^1.0', source: 'registry' });
    expect((await run(['update', '--latest'])).exitCode).toBe(0);
    expect(lockOf(s.project).skills.pdf!.version).toBe('2.0.0');
  });
});

describe('skills from folders, and no lock', () => {
  it('a folder skill is not checked (said with --all); update refuses to name it; no lock is no skill', async () => {
    const s = setup();
    expect((await cli(['outdated'], s)).stdout).toBe('no skills installed (no skills-lock.json)');
    const folder = join(fresh('src'), 'pdf');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'SKILL.md'), pdf('1.0.0'));
    await install(folder, s);
    expect((await cli(['outdated'], s)).stdout).toBe(
      'all skills are up to date (1 not checkable (from a folder, archive or URL))',
    );
    expect((await cli(['outdated', '--all'], s)).stdout).toContain('pdf: not checked: installed from a folder');
    const u = await cli(['update', 'pdf'], s);
    expect(u.exitCode).toBe(2);
    expect(u.stderr).toContain('has no versions to update to');
    // Not checked, so not said to be up to date alone: the same line as outdated's.
    expect((await cli(['update'], s)).stdout).toBe(
      'all skills are up to date (1 not checkable (from a folder, archive or URL))',
    );
  });

  it('update with a lock that holds no skill (all uninstalled) says what outdated says, not "up to date"', async () => {
    const s = setup();
    const folder = join(fresh('src'), 'pdf');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'SKILL.md'), pdf('1.0.0'));
    await install(folder, s);
    expect((await cli(['uninstall', 'pdf'], s)).exitCode).toBe(0);
    expect(Object.keys(lockOf(s.project).skills)).toEqual([]);
    const o = await cli(['outdated'], s);
    const u = await cli(['update'], s);
    expect([u.exitCode, u.stdout]).toEqual([0, 'no skills in skills-lock.json']);
    expect(u.stdout).toBe(o.stdout);
    expect(JSON.parse((await cli(['update', '--json'], s)).stdout)).not.toHaveProperty('lockedSkills');
  });

  it('update with no lock says what outdated says, exit 0, and --json says locked: false as outdated does', async () => {
    const s = setup();
    const o = await cli(['outdated'], s);
    const u = await cli(['update'], s);
    expect([u.exitCode, u.stdout]).toEqual([o.exitCode, 'no skills installed (no skills-lock.json)']);
    expect(u.stdout).toBe(o.stdout);
    const oj = JSON.parse((await cli(['outdated', '--json'], s)).stdout) as { locked: boolean };
    const uj = await cli(['update', '--json'], s);
    expect(uj.exitCode).toBe(0);
    expect(JSON.parse(uj.stdout)).toMatchObject({ locked: false, updates: [], upToDate: [] });
    expect(oj.locked).toBe(false);
    expect(existsSync(join(s.project, 'skills-lock.json'))).toBe(false);
  });
});

describe('outdated and update: --global and --registry (built CLI)', () => {
  it('--registry names the registry a registry skill is checked in and updated from; -g uses your own lock', async () => {
    const root = fresh();
    const home = join(root, 'home');
    const reg = join(root, 'reg');
    const src = join(root, 'src');
    const project = join(root, 'proj');
    for (const d of [home, join(home, '.claude'), join(src, 'tool'), project]) mkdirSync(d, { recursive: true });
    const env = { HOME: home, NO_COLOR: '1' };
    const tool = (v: string) =>
      writeFileSync(
        join(src, 'tool/SKILL.md'),
        skillMd(`name: tool\ndescription: Does tool things. Use when testing.\nmetadata:\n  version: ${v}\n`, '# T\n'),
      );
    tool('1.0.0');
    expect((await runCli(['registry', 'sync', src, '--registry', reg], { cwd: root, env })).exitCode).toBe(0);
    const inst = await runCli(['install', 'tool', '-g', '--agent', 'claude-code', '--registry', reg], {
      cwd: project,
      env,
    });
    expect(inst.exitCode).toBe(0);
    tool('1.1.0');
    expect((await runCli(['registry', 'sync', src, '--registry', reg], { cwd: root, env })).exitCode).toBe(0);
    // Without --registry the lock's registry skill is looked up in the default registry (~/.skills): not there.
    const lost = await runCli(['outdated', '-g'], { cwd: project, env });
    expect(lost.stderr).toContain(`tool: cannot check registry: tool is not in the registry ${join(home, '.skills')}`);
    expect(lost.exitCode).toBe(2);
    // Without -g the project has no lock.
    expect((await runCli(['outdated', '--registry', reg], { cwd: project, env })).stdout).toContain(
      'no skills installed',
    );
    const o = await runCli(['outdated', '-g', '--registry', reg], { cwd: project, env });
    expect(o.stdout).toMatch(/^tool +1\.0\.0 +1\.1\.0 +1\.1\.0 +registry$/m);
    expect(o.exitCode).toBe(0);
    const u = await runCli(['update', '-g', '--registry', reg], { cwd: project, env });
    expect(u.stdout).toContain('updated tool 1.0.0 → 1.1.0  (registry)');
    expect(u.exitCode).toBe(0);
    expect(readFileSync(join(home, '.claude/skills/tool/SKILL.md'), 'utf8')).toContain('version: 1.1.0');
    expect(readFileSync(join(home, '.config/skills/skills-lock.json'), 'utf8')).toContain('"version": "1.1.0"');
  });

  it('the README section of each names every option its --help shows', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const [cmd, heading] of [
      ['outdated', '### `skills outdated`'],
      ['update', '### `skills update [ids...]`'],
    ] as const) {
      const start = readme.indexOf(heading);
      const section = readme.slice(start, readme.indexOf('\n### ', start + 1));
      const help = (await runCli([cmd, '--help'])).stdout;
      const options = [...help.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!).filter((o) => o !== '--help');
      expect(options.length).toBeGreaterThan(1);
      for (const o of options) expect(section, `${cmd} ${o}`).toContain(`\`${o}`);
    }
  });
});
