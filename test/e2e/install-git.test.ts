// Installing from where skills live (git repositories, GitHub shorthands, archives by URL) into where agents read
// them: real repositories on disk and a git daemon on 127.0.0.1, `https://github.com/…` sent to them by insteadOf
// rules in a temporary GIT_CONFIG_GLOBAL, so the shorthand code path runs offline.
import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, tempFolders, testEnv } from '../helpers/cli.js';
import {
  git,
  gitConfigGlobal,
  makeRepo,
  startAuthServer,
  startFileServer,
  startGitDaemon,
  type GitDaemon,
  type TestServer,
} from '../helpers/git-repos.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-install-git-');
let daemon: GitDaemon;
let auth: TestServer;
let repos: string;
/** A repository like anthropics/skills: skills/<name>/SKILL.md, one of them invalid. */
let upstream: string;
let first: string;

const skill = (name: string, body = `# ${name}\n\nInstructions for ${name}.\n`) =>
  skillMd(`name: ${name}\ndescription: Helps with ${name} work. Use when the task involves ${name}.\n`, body);

beforeAll(async () => {
  repos = fresh('repos');
  // Named as the URLs the shorthands make end: `https://github.com/anthropics/skills.git`.
  upstream = join(repos, 'skills.git');
  first = makeRepo(
    upstream,
    {
      'README.md': '# skills\n',
      'skills/pdf/SKILL.md': skill('pdf'),
      'skills/pdf/scripts/fill.py': { content: 'print("fill")\n', mode: 0o755 },
      'skills/docx/SKILL.md': skill('docx'),
      'skills/broken/SKILL.md': skillMd('name: Broken_Name\ndescription: x\n'),
      // Another tool's data file named manifest.json: not a skill, so not an invalid one.
      'plugins/review/prompts/clusters/manifest.json': '{"version": 1, "clusters": []}\n',
    },
    { tag: 'v1.0.0', annotated: true },
  );
  makeRepo(join(repos, 'empty.git'), { 'README.md': 'no skills here\n' });
  makeRepo(join(repos, 'single.git'), { 'SKILL.md': skill('single') });
  daemon = await startGitDaemon(repos);
  auth = await startAuthServer();
});

afterAll(async () => {
  await daemon?.stop();
  await auth?.stop();
  cleanup();
});

/** A user: HOME, cache and config in temp folders, github.com and gitlab.com sent to the local repositories. */
function user(): Record<string, string> {
  const home = fresh('home');
  return {
    ...gitConfigGlobal(home, {
      'https://github.com/anthropics/': `file://${repos}/`,
      'https://github.com/served/': daemon.url(''),
      'https://gitlab.com/group/': `file://${repos}/`,
      'https://github.com/private/': `${auth.url}/`,
    }),
    XDG_CACHE_HOME: join(home, '.cache'),
    SKILLS_REGISTRY: '',
  };
}

function project(withAgent = '.claude/skills'): string {
  const dir = fresh('project');
  git(dir, ['init', '--quiet']);
  if (withAgent) mkdirSync(join(dir, withAgent), { recursive: true });
  return dir;
}

const lockOf = (dir: string, name = 'skills-lock.json') => JSON.parse(readFileSync(join(dir, name), 'utf8'));

describe('skills install from git', () => {
  it('installs anthropics/skills --skill pdf through the GitHub shorthand into the agent folder the project has', async () => {
    const env = user();
    const dir = project();
    const r = await runCli(['install', 'anthropics/skills', '--skill', 'pdf'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('added     pdf@0.0.0  → .claude/skills/pdf');
    expect(readFileSync(join(dir, '.claude/skills/pdf/SKILL.md'), 'utf8')).toBe(skill('pdf'));
    expect(lstatSync(join(dir, '.claude/skills/pdf/scripts/fill.py')).mode & 0o111).not.toBe(0);
    expect(existsSync(join(dir, '.claude/skills/docx'))).toBe(false);
    const lock = lockOf(dir);
    expect(lock.into).toEqual(['.claude/skills']);
    expect(lock.skills.pdf).toMatchObject({
      source: 'git:https://github.com/anthropics/skills.git',
      commit: first,
      path: 'skills/pdf',
      version: '0.0.0',
    });
    expect(lock.skills.pdf.ref).toBeUndefined();
    // No registry: nothing under HOME but the cache and the git config.
    expect(readdirSync(env.HOME!).sort()).toEqual(['.cache', 'gitconfig']);
  });

  it('skips two different skills of one name at one depth in a repository, installs the others, and names the source of each', async () => {
    const env = user();
    const dir = project();
    const twins = join(repos, 'twins.git');
    makeRepo(twins, {
      'plugins/docs/skills/docx/SKILL.md': skill('docx'),
      'plugins/office/skills/docx/SKILL.md': skill('docx', '# docx\n\nAnother docx skill.\n'),
      'skills/pdf/SKILL.md': skill('pdf'),
      // The same skill at a second path is one skill, not a clash.
      'mirror/pdf/SKILL.md': skill('pdf'),
    });
    const r = await runCli(['install', `file://${twins}`], { cwd: dir, env });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('added     pdf@0.0.0  → .claude/skills/pdf');
    expect(r.stdout).toContain('.claude/skills: 1 added, 2 skipped (same name); skills-lock.json written');
    expect(readdirSync(join(dir, '.claude/skills'))).toEqual(['pdf']);
    expect(Object.keys(lockOf(dir).skills)).toEqual(['pdf']);
    // One line for the name, with both folders and the source of one alone.
    const skipped = r.stderr.split('\n').filter((l) => l.startsWith('skipped'));
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatch(
      /^skipped {3}docx: 2 different skills of file:\/\/\S+ are named docx \(plugins\/docs\/skills\/docx, plugins\/office\/skills\/docx\): a folder an agent reads holds one skill of a name, so none was installed\. One alone: skills install file:\/\/\S+#:plugins\/docs\/skills\/docx$/,
    );

    // --list names the source of each alone, and that source installs it.
    const listed = await runCli(['install', `file://${twins}`, '--list'], { cwd: project(), env });
    expect(listed.exitCode).toBe(0);
    const sources = listed.stdout
      .split('\n')
      .filter((l) => l.includes('left out of "all": same name as another here at its depth; alone: skills install '))
      .map((l) => /skills install (\S+)$/.exec(l)![1]!);
    expect(sources.map((s) => s.replace(/^.*#:/, ''))).toEqual([
      'plugins/docs/skills/docx',
      'plugins/office/skills/docx',
    ]);
    const one = await runCli(['install', sources[1]!], { cwd: dir, env });
    expect(one.exitCode).toBe(0);
    expect(one.stdout).toContain('added     docx@0.0.0  → .claude/skills/docx');
    expect(readFileSync(join(dir, '.claude/skills/docx/SKILL.md'), 'utf8')).toContain('Another docx skill.');

    // --json says why each was left out, one entry a skill.
    const json = await runCli(['install', `file://${twins}`, '--json', '--dry-run'], { cwd: project(), env });
    expect(json.exitCode).toBe(1);
    const doc = JSON.parse(json.stdout);
    expect(doc.skipped.map((s: { id: string; reason: string }) => [s.id, s.reason])).toEqual([
      ['docx', 'same-name'],
      ['docx', 'same-name'],
    ]);
    expect(doc.skipped[0].message).toContain('another skill of file://');

    // Named on their own, or with --strict, the clash refuses the run and writes nothing.
    for (const extra of [['--skill', 'docx'], ['--strict']]) {
      const strict = project();
      const s = await runCli(['install', `file://${twins}`, ...extra], { cwd: strict, env });
      expect(s.exitCode).toBe(2);
      expect(s.stderr).toMatch(/^error: docx is given twice: /m);
      expect(s.stderr).toMatch(/^hint: two different skills are named docx: install the one you want by itself/m);
      expect(existsSync(join(strict, 'skills-lock.json'))).toBe(false);
      expect(existsSync(join(strict, '.claude/skills/pdf'))).toBe(false);
    }
  });

  it('takes the shallowest of namesakes when it is alone at its depth, and says how many deeper ones were left out', async () => {
    const env = user();
    const dir = project();
    const course = join(repos, 'course.git');
    makeRepo(course, {
      '.agents/skills/docx/SKILL.md': skill('docx'),
      'translations/fr/.agents/skills/docx/SKILL.md': skill('docx', '# docx\n\nEn français.\n'),
      'translations/de/.agents/skills/docx/SKILL.md': skill('docx', '# docx\n\nAuf Deutsch.\n'),
    });
    const r = await runCli(['install', `file://${course}`], { cwd: dir, env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      /^warning: 2 deeper skills of file:\/\/\S+ named as a shallower one were left out \(translations\/(de|fr)\/\.agents\/skills\/docx, translations\/(de|fr)\/\.agents\/skills\/docx\): the shallowest of each name is installed/m,
    );
    expect(r.stdout).toContain('added     docx@0.0.0  → .claude/skills/docx');
    expect(readFileSync(join(dir, '.claude/skills/docx/SKILL.md'), 'utf8')).toBe(skill('docx'));
    expect(lockOf(dir).skills.docx.path).toBe('.agents/skills/docx');
  });

  it('installs with --skill a skill nested in a repository whose top is a skill itself (datadog-labs/agent-skills)', async () => {
    // Its README: `npx skills add datadog-labs/agent-skills --skill dd-pup`; the top SKILL.md names the collection.
    const env = user();
    const nest = join(repos, 'nest.git');
    makeRepo(nest, {
      'SKILL.md': skill('nest'),
      'dd-pup/SKILL.md': skill('dd-pup'),
      'dd-apm/SKILL.md': skill('dd-apm'),
      'dd-apm/k8s/enable-ssi/SKILL.md': skill('enable-ssi'),
      'dd-apm/references/notes.md': '# Notes\n',
    });
    const dir = project();
    const r = await runCli(['install', `file://${nest}`, '--skill', 'dd-pup', '--skill', 'enable-ssi'], {
      cwd: dir,
      env,
    });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(readdirSync(join(dir, '.claude/skills')).sort()).toEqual(['dd-pup', 'enable-ssi']);
    expect(lockOf(dir).skills['enable-ssi'].path).toBe('dd-apm/k8s/enable-ssi');
    // Without --skill the top is the one skill, as before, with its nested folders as its files.
    const whole = project();
    const w = await runCli(['install', `file://${nest}`], { cwd: whole, env });
    expect(w.exitCode).toBe(0);
    expect(readdirSync(join(whole, '.claude/skills'))).toEqual(['nest']);
    expect(existsSync(join(whole, '.claude/skills/nest/dd-apm/k8s/enable-ssi/SKILL.md'))).toBe(true);
  });

  it('lists with --list the skills nested in a repository whose top is a skill, as what --skill installs', async () => {
    const env = user();
    const nest = join(repos, 'nest-list.git');
    // A template the top skill ships (templates/SKILL.md) is a file of it, not a skill nested in it.
    makeRepo(nest, {
      'SKILL.md': skill('nest'),
      'dd-pup/SKILL.md': skill('dd-pup'),
      'templates/SKILL.md': skill('template-skill'),
      'dd-pup/assets/example/SKILL.md': skill('example-skill'),
    });
    const r = await runCli(['install', `file://${nest}`, '--list'], { cwd: project(), env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/: 2 skills\n {2}nest {4}\S/);
    expect(r.stdout).toContain('left out of "all": nested in nest, installed only when named (--skill dd-pup)');
  });

  it('finds with --skill and --list a skill nested in a skill below the top of a repository (zoom: contact-center/android)', async () => {
    const env = user();
    const zoom = join(repos, 'zoom.git');
    makeRepo(zoom, {
      'skills/contact-center/SKILL.md': skill('contact-center'),
      'skills/contact-center/android/SKILL.md': skill('android'),
      'skills/contact-center/android/deep/ios/SKILL.md': skill('ios'),
      'skills/other/SKILL.md': skill('other'),
    });
    const list = await runCli(['install', `file://${zoom}`, '--list'], { cwd: project(), env });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/: 4 skills\n {2}contact-center {2}\S/);
    expect(list.stdout).toContain(
      'left out of "all": nested in contact-center, installed only when named (--skill android)',
    );
    expect(list.stdout).toContain(
      'left out of "all": nested in contact-center, installed only when named (--skill ios)',
    );
    const dir = project();
    const r = await runCli(['install', `file://${zoom}`, '--skill', 'android', '--skill', 'other'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(readdirSync(join(dir, '.claude/skills')).sort()).toEqual(['android', 'other']);
    expect(lockOf(dir).skills.android.path).toBe('skills/contact-center/android');
    // Without --skill: the skills below the top, each whole, with what is nested in them as their files.
    const whole = project();
    const w = await runCli(['install', `file://${zoom}`], { cwd: whole, env });
    expect(w.exitCode, w.stderr).toBe(0);
    expect(readdirSync(join(whole, '.claude/skills')).sort()).toEqual(['contact-center', 'other']);
    expect(existsSync(join(whole, '.claude/skills/contact-center/android/SKILL.md'))).toBe(true);
  });

  it('installs every valid skill of a repository, skipping the invalid one with one line and exit 1; --strict refuses all', async () => {
    const env = user();
    const dir = project();
    const r = await runCli(['install', 'github:anthropics/skills'], { cwd: dir, env });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('.claude/skills: 2 added, 1 skipped (invalid); skills-lock.json written');
    const skipped = r.stderr.split('\n').filter((l) => l.startsWith('skipped'));
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toContain('github:anthropics/skills: skills/broken/SKILL.md:2');
    expect(skipped[0]).toContain('must be lowercase');
    expect(skipped[0]).not.toContain('.cache');
    expect(readdirSync(join(dir, '.claude/skills')).sort()).toEqual(['docx', 'pdf']);

    const strict = project();
    const s = await runCli(['install', 'github:anthropics/skills', '--strict'], { cwd: strict, env });
    expect(s.exitCode).toBe(1);
    expect(s.stderr).toContain('Broken_Name is not valid; nothing was installed');
    expect(readdirSync(join(strict, '.claude/skills'))).toEqual([]);
    expect(existsSync(join(strict, 'skills-lock.json'))).toBe(false);
  });

  it('takes a branch, a tag, a full and a short commit, and a path inside, over git:// and file://', async () => {
    const env = user();
    const second = makeRepo(upstream, { 'skills/pdf/SKILL.md': skill('pdf', '# pdf\n\nVersion two.\n') });
    try {
      const cases: [string, string, string | undefined][] = [
        [`${daemon.url('skills.git')}#main:skills/pdf`, second, 'main'],
        [`${daemon.url('skills.git')}#v1.0.0:skills/pdf`, first, 'v1.0.0'],
        [`file://${upstream}#${first}:skills/pdf`, first, first],
        [`file://${upstream}#${second.slice(0, 9)}:skills/pdf`, second, second.slice(0, 9)],
        ['anthropics/skills/skills/pdf#v1.0.0', first, 'v1.0.0'],
        ['https://github.com/anthropics/skills/tree/main/skills/pdf', second, 'main'],
        ['gitlab:group/skills.git#v1.0.0:skills/pdf', first, 'v1.0.0'],
      ];
      for (const [source, commit, ref] of cases) {
        const dir = project();
        const r = await runCli(['install', source], { cwd: dir, env });
        expect(r.exitCode, `${source}: ${r.stderr}`).toBe(0);
        const entry = lockOf(dir).skills.pdf;
        expect(entry.commit, source).toBe(commit);
        expect(entry.path).toBe('skills/pdf');
        expect(entry.ref).toBe(ref);
        const body = readFileSync(join(dir, '.claude/skills/pdf/SKILL.md'), 'utf8');
        expect(body.includes('Version two'), source).toBe(commit === second);
      }
    } finally {
      git(upstream, ['reset', '--quiet', '--hard', first]);
    }
  });

  it('replays the lock with --frozen at the locked commit after the branch moved', async () => {
    const env = user();
    const dir = project();
    expect((await runCli(['install', `file://${upstream}#main:skills/pdf`], { cwd: dir, env })).exitCode).toBe(0);
    const lockBefore = readFileSync(join(dir, 'skills-lock.json'), 'utf8');
    makeRepo(upstream, { 'skills/pdf/SKILL.md': skill('pdf', '# pdf\n\nMoved on.\n') });
    try {
      rmSync(join(dir, '.claude/skills/pdf'), { recursive: true });
      // Another machine: an empty cache, so the locked commit is fetched again.
      const other = { ...env, XDG_CACHE_HOME: fresh('cache') };
      const r = await runCli(['install', '--frozen'], { cwd: dir, env: other });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(readFileSync(join(dir, '.claude/skills/pdf/SKILL.md'), 'utf8')).toBe(skill('pdf'));
      expect(readFileSync(join(dir, 'skills-lock.json'), 'utf8')).toBe(lockBefore);
    } finally {
      git(upstream, ['reset', '--quiet', '--hard', first]);
    }
  });

  it('refuses what cannot be installed, clearly, with nothing written', async () => {
    const env = user();
    const cases: [string[], RegExp][] = [
      [['install', 'private/repo'], /cannot read the repository: it does not exist or needs credentials/],
      [['install', `file://${join(repos, 'empty.git')}`], /no skill at commit [0-9a-f]{12}/],
      [['install', `file://${upstream}#no-such-ref`], /has no branch, tag or commit "no-such-ref"/],
      [['install', `file://${join(repos, 'nothing-here')}`], /cannot read the repository/],
      [['install', 'ext::sh -c touch% /tmp/pwned'], /./],
      [['install', `file://${upstream}#main:skills/nope`], /the repository has no folder "skills\/nope"/],
      [['install', 'anthropics/skills', '--skill', 'nope'], /--skill nope: no such skill/],
    ];
    for (const [args, message] of cases) {
      const dir = project();
      const started = Date.now();
      const r = await runCli(args, { cwd: dir, env });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(readdirSync(join(dir, '.claude/skills'))).toEqual([]);
      expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
    }
    expect(existsSync('/tmp/pwned')).toBe(false);
  });

  it('says git is missing from PATH, with a hint', async () => {
    const env = { ...user(), PATH: fresh('no-git') };
    const dir = project();
    const r = await runCli(['install', 'anthropics/skills'], { cwd: dir, env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/git is not installed \(or not on PATH\)/);
    expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
  });

  it('leaves nothing half-placed when killed with -9 mid-fetch, and the next run installs', async () => {
    const big = join(repos, 'big');
    const files: Record<string, string> = { 'SKILL.md': skill('big') };
    for (let i = 0; i < 40; i++) files[`assets/blob-${i}.txt`] = `${i}`.repeat(400_000);
    makeRepo(big, files);
    const env = user();
    const dir = project();
    const child = spawn(process.execPath, [BIN, 'install', `file://${big}`], {
      cwd: dir,
      env: testEnv(env.HOME!, env),
      stdio: 'ignore',
    });
    await new Promise((done) => setTimeout(done, 150));
    child.kill('SIGKILL');
    await new Promise((done) => child.once('exit', done));
    expect(existsSync(join(dir, '.claude/skills/big'))).toBe(false);
    expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
    const r = await runCli(['install', `file://${big}`], { cwd: dir, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(join(dir, '.claude/skills/big/assets'))).toHaveLength(40);
    expect(readdirSync(join(dir, '.claude/skills')).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});

describe('where skills go', () => {
  it('keeps a project install out of other projects: no registry is written', async () => {
    const env = user();
    const a = project();
    const b = project();
    expect((await runCli(['install', 'anthropics/skills', '--skill', 'docx'], { cwd: a, env })).exitCode).toBe(0);
    const listA = await runCli(['list', '--json'], { cwd: a, env });
    const listB = await runCli(['list', '--json'], { cwd: b, env });
    expect(listA.stdout).toContain('"docx"');
    expect(listB.stdout).not.toContain('"docx"');
    const prompt = await runCli(['render-prompt'], { cwd: b, env });
    expect(prompt.stdout).not.toContain('docx');
    expect(existsSync(join(env.HOME!, '.skills'))).toBe(false);
  });

  it('places into .agents/skills, said on stderr, when the project shows no agent; the folders of the agents it uses; --agent picks folders', async () => {
    const env = user();
    const dir = project('');
    const r = await runCli(['install', 'anthropics/skills', '--skill', 'pdf'], { cwd: dir, env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('placed into .agents/skills');
    expect(existsSync(join(dir, '.agents/skills/pdf/SKILL.md'))).toBe(true);

    const two = project('');
    const t = await runCli(
      ['install', 'anthropics/skills', '-s', 'pdf', '--agent', 'claude-code,cursor', '-a', 'copilot'],
      {
        cwd: two,
        env,
      },
    );
    expect(t.exitCode, t.stderr).toBe(0);
    for (const d of ['.claude/skills', '.cursor/skills', '.github/skills'])
      expect(existsSync(join(two, d, 'pdf/SKILL.md')), d).toBe(true);
    expect(lockOf(two).into).toEqual(['.claude/skills', '.cursor/skills', '.github/skills']);
    // No skill folder yet, but agents the project shows it uses: their folders, not .agents/skills (which Claude Code
    // does not read).
    const used = project('');
    mkdirSync(join(used, '.cursor'));
    writeFileSync(join(used, 'CLAUDE.md'), '# Notes for Claude\n');
    const u = await runCli(['install', 'anthropics/skills', '-s', 'pdf'], { cwd: used, env });
    expect(u.exitCode, u.stderr).toBe(0);
    expect(u.stderr).toContain(
      'placed into .claude/skills, .cursor/skills, for the agents used here: Claude Code (CLAUDE.md); Cursor (.cursor)',
    );
    for (const d of ['.claude/skills', '.cursor/skills'])
      expect(existsSync(join(used, d, 'pdf/SKILL.md')), d).toBe(true);
    expect(existsSync(join(used, '.agents'))).toBe(false);
    expect(lockOf(used).into).toEqual(['.claude/skills', '.cursor/skills']);
    const bad = await runCli(['install', 'anthropics/skills', '--agent', 'claud'], { cwd: two, env });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('did you mean "claude"');
  });

  it('installs --global into the user folder, locked in the user config, not the project', async () => {
    const env = user();
    const dir = project();
    const r = await runCli(['install', 'anthropics/skills', '-s', 'pdf', '-g', '-a', 'claude-code'], { cwd: dir, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(existsSync(join(env.HOME!, '.claude/skills/pdf/SKILL.md'))).toBe(true);
    expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
    const lock = lockOf(join(env.XDG_CONFIG_HOME!, 'skills'));
    expect(lock.into).toEqual(['~/.claude/skills']);
    // list and render-prompt read ~/.claude/skills.
    const list = await runCli(['list', '--json'], { cwd: fresh('elsewhere'), env });
    expect(list.stdout).toContain('"pdf"');
    // With no --agent and no folder in the user's lock: the user folders of the agents found in the home folder.
    const other = user();
    for (const d of ['.claude', '.cursor']) mkdirSync(join(other.HOME!, d));
    const again = await runCli(['install', 'anthropics/skills', '-s', 'docx', '-g'], { cwd: dir, env: other });
    expect(again.exitCode, again.stderr).toBe(0);
    for (const d of ['.claude/skills', '.cursor/skills'])
      expect(existsSync(join(other.HOME!, d, 'docx/SKILL.md')), d).toBe(true);
    // A project's lock naming the home folder is refused.
    writeFileSync(
      join(dir, 'skills-lock.json'),
      JSON.stringify({ into: ['~/.claude/skills'], lockfileVersion: 1, skills: {} }),
    );
    const refused = await runCli(['install'], { cwd: dir, env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("only the user's lock");
  });

  it('links a folder with --link, and replays the link', async () => {
    const env = user();
    const dir = project();
    writeTree(join(dir, 'src/mine'), { 'SKILL.md': skill('mine') });
    const r = await runCli(['install', './src/mine', '--link'], { cwd: dir, env });
    expect(r.exitCode, r.stderr).toBe(0);
    const placed = join(dir, '.claude/skills/mine');
    expect(lstatSync(placed).isSymbolicLink()).toBe(true);
    expect(lockOf(dir).skills.mine.link).toBe(true);
    // The author edits in place; a replay keeps the link and does not call it a mismatch.
    writeFileSync(join(dir, 'src/mine/SKILL.md'), skill('mine', '# mine\n\nEdited.\n'));
    const again = await runCli(['install', '--frozen'], { cwd: dir, env });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(readFileSync(join(placed, 'SKILL.md'), 'utf8')).toContain('Edited.');
    // Uninstall removes the link, never the author's folder.
    expect((await runCli(['uninstall', 'mine'], { cwd: dir, env })).exitCode).toBe(0);
    expect(existsSync(placed)).toBe(false);
    expect(existsSync(join(dir, 'src/mine/SKILL.md'))).toBe(true);
    const refused = await runCli(['install', 'anthropics/skills', '--link'], { cwd: dir, env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--link links a skill folder');
  });

  it('warns when a manifest.json skill goes where only SKILL.md is read', async () => {
    const env = user();
    const dir = project();
    writeTree(join(dir, 'src/tools'), {
      'manifest.json': JSON.stringify({
        id: 'tools',
        name: 'Tools',
        version: '1.0.0',
        owner: 'built-in',
        description: 'Basic tools. Use when files need reading.',
        context: ['context/main.md'],
      }),
      'context/main.md': '# Tools\n',
    });
    const r = await runCli(['install', './src/tools'], { cwd: dir, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/tools is a manifest\.json skill, and Claude Code reads only SKILL\.md skills/);
  });

  it('says which files of a skill are Git LFS pointers, which it installs as they are (lint: SK132)', async () => {
    const env = user();
    const dir = project();
    const lfs = join(repos, 'lfs.git');
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${'ab'.repeat(32)}\nsize 4096\n`;
    makeRepo(lfs, {
      'skills/art/SKILL.md': skill('art'),
      'skills/art/assets/logo.png': pointer,
      'skills/art/scripts/draw.py': pointer,
      'skills/plain/SKILL.md': skill('plain'),
    });
    const r = await runCli(['install', `file://${lfs}`], { cwd: dir, env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      'warning: art: assets/logo.png, scripts/draw.py are Git LFS pointers, not the content (skills does not fetch LFS content; lint: SK132)',
    );
    expect(r.stderr).not.toContain('plain:');
    expect(readFileSync(join(dir, '.claude/skills/art/scripts/draw.py'), 'utf8')).toBe(pointer);
    const lint = await runCli(['lint', join(dir, '.claude/skills/art')], { env });
    expect(lint.stdout).toContain('scripts/draw.py is a Git LFS pointer (to a file of 4096 bytes), not the file');
  });

  it('says a git submodule is not fetched, by its path and URL, when installing the repository or the submodule', async () => {
    const env = user();
    const dir = project();
    const vendor = join(repos, 'vendor.git');
    const vendored = makeRepo(vendor, { 'SKILL.md': skill('vendored') });
    const outer = join(repos, 'outer.git');
    makeRepo(outer, {
      'skills/own/SKILL.md': skill('own'),
      'packs/mine/SKILL.md': skill('mine'),
      '.gitmodules': [
        `[submodule "vendored"]\n\tpath = skills/vendored\n\turl = file://${vendor}`,
        // Beside a skill, whatever its name: said. A library's, where no skill is: no news.
        `[submodule "extra"]\n\tpath = packs/extra\n\turl = https://user:s3cret@example.com/extra.git`,
        `[submodule "lib"]\n\tpath = third_party/lib\n\turl = https://example.com/lib.git`,
      ].join('\n'),
    });
    // The submodules as git records them: a commit of another repository at each path (a gitlink).
    for (const path of ['skills/vendored', 'packs/extra', 'third_party/lib'])
      git(outer, ['update-index', '--add', '--cacheinfo', `160000,${vendored},${path}`]);
    git(outer, ['commit', '--quiet', '-m', 'add the submodules']);
    const all = await runCli(['install', `file://${outer}`], { cwd: dir, env });
    expect(all.exitCode).toBe(0);
    expect(all.stderr).toContain(
      `warning: file://${outer}: 2 git submodules are not fetched, and no skill in them is installed (skills/vendored (file://${vendor}), packs/extra (https://example.com/extra.git)): install each from its own repository`,
    );
    expect(all.stderr).not.toContain('third_party');
    expect(all.stderr).not.toContain('s3cret');
    expect(all.stdout).toContain('added     own@0.0.0');
    const one = await runCli(['install', `file://${outer}#:skills/vendored`], { cwd: dir, env });
    expect(one.exitCode).toBe(2);
    expect(one.stderr).toContain(
      `skills/vendored (file://${vendor}) is a git submodule, which skills does not fetch; nothing was installed`,
    );
    expect(one.stderr).toContain(`hint: install it from its own repository: skills install file://${vendor}`);
  });

  it('names every link that leads out of a skill from git, as from its folder, and never reads a folder linked out of the repository', async () => {
    const env = user();
    const linked = join(repos, 'linked.git');
    const away = fresh('away');
    writeFileSync(join(away, 'SKILL.md'), skill('away'));
    makeRepo(linked, {
      'skills/a/SKILL.md': skill('a'),
      'skills/a/inner.md': { symlink: 'SKILL.md' },
      'skills/a/refs': { symlink: '../../shared' },
      'skills/a/passwd': { symlink: '/etc/passwd' },
      'skills/a/up': { symlink: '../../../outside' },
      'shared/x.md': 'shared\n',
      'skills/elsewhere': { symlink: away },
    });
    const warning =
      'warning: a: passwd, refs, up are symbolic links that lead out of the skill, left out of its copies (lint: SK131)';
    const fromGit = project();
    const r = await runCli(['install', `file://${linked}`], { cwd: fromGit, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(warning);
    expect(readdirSync(join(fromGit, '.claude/skills/a')).sort()).toEqual(['SKILL.md', 'inner.md']);
    // The same skill from a clone of the repository, installed as a folder: the same words.
    const clone = join(fresh('clone'), 'linked');
    git(repos, ['clone', '--quiet', linked, clone]);
    const fromFolder = await runCli(['install', join(clone, 'skills/a')], { cwd: project(), env });
    expect(fromFolder.stderr).toContain(warning);
    // A folder named in the repository that is a link out of it: refused, not installed from this machine.
    const out = project();
    const e = await runCli(['install', `file://${linked}#:skills/elsewhere`], { cwd: out, env });
    expect(e.exitCode).toBe(2);
    expect(e.stderr).toMatch(
      /"skills\/elsewhere" at commit [0-9a-f]{12} is a symbolic link that leads out of the repository/,
    );
    expect(existsSync(join(out, '.claude/skills/away'))).toBe(false);
    expect(existsSync(join(out, 'skills-lock.json'))).toBe(false);
  });

  it('installs an archive by URL, checked by the same archive reader', async () => {
    const env = user();
    const src = fresh('packsrc');
    writeTree(join(src, 'zipped'), { 'SKILL.md': skill('zipped') });
    const out = fresh('packed');
    expect((await runCli(['pack', join(src, 'zipped'), '--out', out], { env })).exitCode).toBe(0);
    const tgz = readdirSync(out).find((f) => f.endsWith('.tgz'))!;
    const server = await startFileServer({
      '/zipped.tgz': { body: readFileSync(join(out, tgz)) },
      '/traversal.tgz': { body: Buffer.from('not an archive') },
    });
    try {
      const dir = project();
      const r = await runCli(['install', `${server.url}/zipped.tgz`], { cwd: dir, env });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(lockOf(dir).skills.zipped.source).toBe(`url:${server.url}/zipped.tgz`);
      expect(existsSync(join(dir, '.claude/skills/zipped/SKILL.md'))).toBe(true);
      const bad = await runCli(['install', `${server.url}/traversal.tgz`], { cwd: project(), env });
      expect(bad.exitCode).toBe(2);
      const missing = await runCli(['install', `${server.url}/missing.zip`], { cwd: project(), env });
      expect(missing.exitCode).toBe(2);
      expect(missing.stderr).toContain('404');
    } finally {
      await server.stop();
    }
  });
});

describe('what a review found (issue 13, checked again)', () => {
  it('never links a skill folder to itself, and keeps it whole', async () => {
    const env = user();
    const dir = project();
    writeTree(join(dir, '.claude/skills/mine'), { 'SKILL.md': skill('mine') });
    const r = await runCli(['install', '.claude/skills/mine', '--link'], { cwd: dir, env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("is the skill's own folder, where --link would put a link to it");
    expect(lstatSync(join(dir, '.claude/skills/mine')).isDirectory()).toBe(true);
    expect(readFileSync(join(dir, '.claude/skills/mine/SKILL.md'), 'utf8')).toBe(skill('mine'));
  });

  it("reads a project's own skills with `install .`, not the copies in its agent folders", async () => {
    const env = user();
    const dir = project();
    expect((await runCli(['install', 'anthropics/skills', '-s', 'pdf'], { cwd: dir, env })).exitCode).toBe(0);
    writeTree(join(dir, 'skills/own'), { 'SKILL.md': skill('own') });
    const r = await runCli(['install', '.'], { cwd: dir, env });
    expect(r.exitCode, r.stderr).toBe(0);
    const lock = lockOf(dir);
    expect(lock.skills.pdf.source).toBe('git:https://github.com/anthropics/skills.git');
    expect(lock.skills.own.source).toBe('folder:skills/own');
  });

  it('refuses an agent folder that leads out of the project through a symlink, by default or by --agent; --into places there unrecorded', async () => {
    const env = user();
    const dir = project('');
    const away = fresh('away');
    // A repository can commit `.claude` as a link to ~/.claude: skills would land where every project reads them.
    symlinkSync(away, join(dir, '.claude'));
    for (const extra of [[], ['-a', 'claude-code']]) {
      const refused = await runCli(['install', 'anthropics/skills', '-s', 'pdf', ...extra], { cwd: dir, env });
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(
        `error: the agent folder ${join(dir, '.claude/skills')}: ${join(dir, '.claude')} leads out of ${dir} (through a symlink, to ${realpathSync(away)}); nothing was installed`,
      );
      expect(refused.stderr).toContain("hint: a project's agent folder is written inside the project");
      expect(readdirSync(away)).toEqual([]);
      expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
    }
    const r = await runCli(['install', 'anthropics/skills', '-s', 'pdf', '--into', '.claude/skills'], {
      cwd: dir,
      env,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('leads out of');
    expect(readdirSync(join(away, 'skills'))).toEqual(['pdf']);
    expect(lockOf(dir).into).toBeUndefined();
    // The next install reads the lock, which records no folder: it would place into the agent folder, and is refused.
    const replay = await runCli(['install', '--frozen'], { cwd: dir, env });
    expect(replay.exitCode).toBe(2);
    expect(replay.stderr).toContain('leads out of');
  });

  it('prints no password of a URL, in --list or an error', async () => {
    const env = user();
    const withCreds = `https://user:secret@github.com/anthropics/skills.git`;
    const listed = await runCli(['install', withCreds, '--list', '--json'], { cwd: project(), env });
    const missing = await runCli(['install', withCreds, '--skill', 'zz'], { cwd: project(), env });
    for (const r of [listed, missing]) expect(`${r.stdout}${r.stderr}`).not.toContain('secret');
  });

  it('refuses a lock whose git source the command line would refuse', async () => {
    const env = user();
    const dir = project();
    const integrity = `sha512-${Buffer.alloc(64).toString('base64')}`;
    for (const [source, ref] of [
      ['git:ext::sh -c touch% /tmp/pwned-lock', undefined],
      ['git:http://example.com/x.git', undefined],
      [`git:file://${upstream}`, '--upload-pack=touch /tmp/pwned-lock'],
    ] as const) {
      writeFileSync(
        join(dir, 'skills-lock.json'),
        JSON.stringify({
          lockfileVersion: 1,
          skills: {
            pdf: { commit: first, dependencies: {}, integrity, source, version: '0.0.0', ...(ref ? { ref } : {}) },
          },
        }),
      );
      const r = await runCli(['install'], { cwd: dir, env });
      expect(r.exitCode, source).toBe(2);
      expect(r.stderr, source).toContain(`${join(dir, 'skills-lock.json')}: pdf: `);
    }
    expect(existsSync('/tmp/pwned-lock')).toBe(false);
  });
});

describe('on a terminal', () => {
  /** Run the CLI on a pseudo-terminal (util-linux `script`), answering each prompt once its text has appeared. */
  async function onTerminal(args: string[], cwd: string, env: Record<string, string>, answers: [string, string][]) {
    const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd,
      env: testEnv(env.HOME!, { ...env, TERM: 'xterm' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number>((done) => child.once('exit', (code) => done(code ?? -1)));
    for (const [waitFor, keys] of answers) {
      const until = Date.now() + 20_000;
      while (!out.includes(waitFor) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(out, `waiting for "${waitFor}"`).toContain(waitFor);
      // Each key on its own, as a person types.
      for (const k of keys) {
        child.stdin.write(k);
        await new Promise((r) => setTimeout(r, 80));
      }
    }
    const code = await exited;
    return { code, out };
  }

  it('asks which skills of a repository and which agents, and installs what was chosen', async () => {
    const env = user();
    const dir = project('');
    // Skills: docx (ticked), pdf (ticked); the invalid one is shown, not choosable. Untick the first, confirm.
    // Agents: none in the project, so the generic folder is ticked; tick the first (Claude Code) too, confirm.
    const r = await onTerminal(['install', 'github:anthropics/skills'], dir, env, [
      ['install which?', ' \r'],
      ['which agents', ' \r'],
    ]);
    expect(r.out).toContain('invalid: name "Broken_Name" must be lowercase');
    expect(r.code).toBe(0);
    for (const d of ['.claude/skills', '.agents/skills']) expect(readdirSync(join(dir, d)), d).toEqual(['pdf']);
    expect(lockOf(dir).into).toEqual(['.agents/skills', '.claude/skills']);
    // The same skill in two agents' folders is a twin: list and render-prompt show it once, warning about nothing.
    for (const args of [['list'], ['render-prompt']]) {
      const shown = await runCli(args, { cwd: dir, env });
      expect(shown.exitCode).toBe(0);
      expect(shown.stderr, args[0]).not.toContain('shadowed');
    }
  });

  it('shows namesakes with their folders, unticked, and installs the one chosen', async () => {
    const env = user();
    const dir = project('');
    const twins = join(repos, 'twins-picked.git');
    makeRepo(twins, {
      'plugins/docs/skills/docx/SKILL.md': skill('docx'),
      'plugins/office/skills/docx/SKILL.md': skill('docx', '# docx\n\nAnother docx skill.\n'),
      'skills/pdf/SKILL.md': skill('pdf'),
    });
    // The first choice is a docx (ticked: nothing of it); tick the one under the cursor, confirm; Enter for agents.
    const r = await onTerminal(['install', `file://${twins}`], dir, env, [
      ['install which?', ' \r'],
      ['which agents', '\r'],
    ]);
    expect(r.out).toContain('docx (plugins/office/skills/docx)');
    expect(r.out).toContain('docx (plugins/docs/skills/docx)');
    expect(r.code, r.out).toBe(0);
    expect(readdirSync(join(dir, '.agents/skills')).sort()).toEqual(['docx', 'pdf']);
    const chosen = readFileSync(join(dir, '.agents/skills/docx/SKILL.md'), 'utf8');
    const first = r.out.indexOf('docx (plugins/office/skills/docx)') < r.out.indexOf('docx (plugins/docs/skills/docx)');
    expect(chosen.includes('Another docx skill.')).toBe(first);
    expect(lockOf(dir).skills.docx.path).toBe(first ? 'plugins/office/skills/docx' : 'plugins/docs/skills/docx');
  });

  it('shows twins (one skill at two paths) once, as --list does, and installs it once', async () => {
    const env = user();
    const dir = project('');
    const twins = join(repos, 'twins-same.git');
    makeRepo(twins, {
      'a/skills/pdf/SKILL.md': skill('pdf'),
      'b/skills/pdf/SKILL.md': skill('pdf'),
      'skills/xlsx/SKILL.md': skill('xlsx'),
    });
    // Untick the first choice (pdf, both of its paths), confirm; Enter for agents.
    const r = await onTerminal(['install', `file://${twins}`], dir, env, [
      ['install which?', ' \r'],
      ['which agents', '\r'],
    ]);
    expect(r.code, r.out).toBe(0);
    // It said "holds 3 skills" and listed pdf twice.
    expect(r.out).toMatch(/holds\s+2\s+skills:/);
    expect(r.out).not.toMatch(/holds\s+3\s+skills/);
    expect(readdirSync(join(dir, '.agents/skills'))).toEqual(['xlsx']);
  });

  it('shows a skill held twice file for file (twins) once, with its folders, as --list does', async () => {
    const env = user();
    const dir = project('');
    const repo = join(repos, 'twins-alike-picked.git');
    makeRepo(repo, {
      'plugins/docs/skills/pdf/SKILL.md': skill('pdf'),
      'plugins/office/skills/pdf/SKILL.md': skill('pdf'),
      'skills/docx/SKILL.md': skill('docx'),
    });
    const r = await onTerminal(['install', `file://${repo}`], dir, env, [
      ['install which?', '\r'],
      ['which agents', '\r'],
    ]);
    expect(r.code, r.out).toBe(0);
    // The terminal is 80 columns wide: the question may wrap.
    expect(r.out).toMatch(/holds\s+2\s+skills: install which\?/);
    expect(r.out).toContain('pdf (found at plugins/docs/skills/pdf, plugins/office/skills/pdf: the same');
    expect(readdirSync(join(dir, '.agents/skills')).sort()).toEqual(['docx', 'pdf']);
  });

  it('ticks the folder of the agent the project shows it uses (CLAUDE.md) when it has no skill folder yet', async () => {
    const env = user();
    const dir = project('');
    writeFileSync(join(dir, 'CLAUDE.md'), '# Notes for Claude\n');
    // Enter takes what is ticked: Claude Code's folder, not the generic one.
    const r = await onTerminal(['install', 'github:anthropics/skills', '-s', 'pdf'], dir, env, [
      ['which agents', '\r'],
    ]);
    expect(r.code, r.out).toBe(0);
    expect(readdirSync(join(dir, '.claude/skills'))).toEqual(['pdf']);
    expect(existsSync(join(dir, '.agents'))).toBe(false);
    expect(lockOf(dir).into).toEqual(['.claude/skills']);
  });
});

describe("another installer's skills-lock.json", () => {
  it('is read, replayed from its git sources, and never written; our lock goes beside it', async () => {
    const env = user();
    const dir = project();
    const theirs = `${JSON.stringify(
      {
        version: 1,
        skills: {
          pdf: {
            source: 'anthropics/skills',
            sourceType: 'github',
            skillPath: 'skills/pdf/SKILL.md',
            computedHash: 'x',
          },
          docx: { source: 'anthropics/skills', sourceType: 'github', computedHash: 'y' },
          npmthing: { source: 'some-package', sourceType: 'node_modules', computedHash: 'z' },
          known: { source: 'https://example.com/.well-known/skills', sourceType: 'well-known', computedHash: 'w' },
          away: { source: '/etc', sourceType: 'local', computedHash: 'v' },
        },
      },
      null,
      2,
    )}\n`;
    writeFileSync(join(dir, 'skills-lock.json'), theirs);
    // Before: outdated and update say whose lock it is and how to take its skills over, not only "no lock".
    for (const cmd of ['outdated', 'update']) {
      const said = await runCli([cmd], { cwd: dir, env });
      expect([said.exitCode, said.stdout.trim()]).toEqual([
        0,
        "no skills installed (no .skills-lock.json); skills-lock.json is another installer's (npx skills add), with 5 " +
          'skills: `skills install` with no sources installs them from their sources and locks them here',
      ]);
    }
    const r = await runCli(['install'], { cwd: dir, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('npmthing is not installed');
    expect(r.stderr).toContain('known is not installed');
    expect(r.stderr).toContain('away is not installed: its folder /etc is outside the project');
    expect(readdirSync(join(dir, '.claude/skills')).sort()).toEqual(['docx', 'pdf']);
    expect(readFileSync(join(dir, 'skills-lock.json'), 'utf8')).toBe(theirs);
    expect((await runCli(['outdated'], { cwd: dir, env })).stdout).not.toContain('no skills installed');
    const ours = lockOf(dir, '.skills-lock.json');
    expect(ours.skills.pdf.commit).toBe(first);
    // Later installs use our lock and still leave theirs alone.
    const more = await runCli(['install', 'anthropics/skills', '-s', 'pdf', '--frozen'], { cwd: dir, env });
    expect(more.exitCode, more.stderr).toBe(0);
    expect(readFileSync(join(dir, 'skills-lock.json'), 'utf8')).toBe(theirs);
  });
});

describe('a server that never answers, and a small skill in a large repository', () => {
  it('gives up on a server that accepts and never answers after SKILLS_GIT_TIMEOUT, naming it, writing nothing', async () => {
    const { createServer } = await import('node:net');
    const held = new Set<import('node:net').Socket>();
    const silent = createServer((s) => {
      held.add(s);
      s.on('error', () => {});
    });
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const { port } = silent.address() as import('node:net').AddressInfo;
    try {
      const env = { ...user(), SKILLS_GIT_TIMEOUT: '2' };
      const cases: [string, RegExp][] = [
        [`git://127.0.0.1:${port}/x.git`, /did not answer within 2 s \(git ls-remote was stopped\)/],
        [`http://127.0.0.1:${port}/x.git`, /did not answer within 2 s \(git ls-remote was stopped\)/],
        // A locked commit is fetched without asking first: the fetch ends as soon, by its watch on progress.
        [`git://127.0.0.1:${port}/x.git#${first}`, /the transfer stalled/],
      ];
      for (const [source, message] of cases) {
        const dir = project();
        const before = readdirSync(dir).sort();
        const started = Date.now();
        const r = await runCli(['install', source], { cwd: dir, env });
        expect(Date.now() - started, source).toBeLessThan(15_000);
        expect(r.exitCode, source).toBe(2);
        expect(r.stderr, source).toContain(`${source.split('#')[0]}: `);
        expect(r.stderr, source).toMatch(message);
        expect(r.stderr, source).toMatch(/check that the server is up and reachable/);
        expect(r.stderr, source).toContain('SKILLS_GIT_TIMEOUT=<seconds> (now 2 s)');
        // Nothing written, and the project's lock let go.
        expect(readdirSync(dir).sort(), source).toEqual(before);
        expect(readdirSync(join(dir, '.claude/skills'))).toEqual([]);
      }
    } finally {
      for (const s of held) s.destroy();
      await new Promise<void>((done) => silent.close(() => done()));
    }
  }, 60_000);

  it('installs a skill named by its folder from a repository over the archive limits, and refuses the whole', async () => {
    // 20,100 small files beside one tiny skill: more entries than an archive may hold.
    const mono = join(repos, 'mono.git');
    mkdirSync(mono, { recursive: true });
    git(mono, ['init', '--quiet', '--initial-branch=main']);
    for (let d = 0; d < 201; d++) {
      mkdirSync(join(mono, 'data', `d${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(join(mono, 'data', `d${d}`, `f${f}.txt`), `${d}.${f}\n`);
    }
    writeTree(join(mono, 'skills/s'), { 'SKILL.md': skill('s') });
    git(mono, ['add', '--all']);
    git(mono, ['commit', '--quiet', '-m', 'big']);
    const env = user();

    const whole = project();
    const refused = await runCli(['install', `file://${mono}`], { cwd: whole, env });
    expect(refused.exitCode).toBe(2);
    // Counted from git's listing, before an archive is written and extracted (which stopped at entry 20,001).
    expect(refused.stderr).toMatch(/refused: it holds more than 20000 entries \(20101 files in 204 folders\)/);
    expect(refused.stderr).toMatch(/name the folder of the skill inside it/);
    expect(readdirSync(join(whole, '.claude/skills'))).toEqual([]);
    expect(existsSync(join(whole, 'skills-lock.json'))).toBe(false);

    for (const source of [`file://${mono}#:skills/s`, 'anthropics/mono/skills/s']) {
      const dir = project();
      const r = await runCli(['install', source], { cwd: dir, env });
      expect(r.exitCode, `${source}: ${r.stderr}`).toBe(0);
      expect(readFileSync(join(dir, '.claude/skills/s/SKILL.md'), 'utf8')).toBe(skill('s'));
      expect(lockOf(dir).skills.s).toMatchObject({ path: 'skills/s' });
    }
    // A folder the commit does not have is refused as before.
    const nope = await runCli(['install', `file://${mono}#:skills/nope`], { cwd: project(), env });
    expect(nope.exitCode).toBe(2);
    expect(nope.stderr).toMatch(/the repository has no folder "skills\/nope" at commit [0-9a-f]{12}/);
  }, 60_000);
});
