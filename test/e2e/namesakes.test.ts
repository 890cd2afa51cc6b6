import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { marketplaceJson, skillMd, writeTree } from '../helpers/tree.js';

// A repository's skill and deeper copies of its name (microsoft/ai-agents-for-beginners: `.agents/skills/x` and 54
// translations' `translations/<lang>/.agents/skills/x`, a few of them missing their description). install and
// registry sync settle them by one rule (skill/namesakes.ts): the shallowest, alone at its depth, is taken, and every
// deeper one, valid or invalid, is left out in one warning, exit 0. At a tie, sync registers the first found and
// refuses each other, as it did.

const { fresh, cleanup } = tempFolders('skills-namesakes-');
afterAll(cleanup);

const good = (name: string, body = '# Skill\n\nInstructions.\n') =>
  skillMd(`name: ${name}\ndescription: Works on ${name} files. Use when asked about ${name}.`, body);
// A translation whose frontmatter lost its description: invalid.
const noDescription = (name: string) => skillMd(`name: ${name}`, '# Umiejętność\n\nPo polsku.\n');

/** A repository folder laid out as the course is: its skill, translations (two invalid), and another skill. */
function course(): string {
  const repo = fresh('course');
  writeTree(repo, {
    '.agents/skills/docx/SKILL.md': good('docx'),
    '.agents/skills/pdf/SKILL.md': good('pdf'),
    'translations/de/.agents/skills/docx/SKILL.md': good('docx', '# docx\n\nAuf Deutsch.\n'),
    'translations/pl/.agents/skills/docx/SKILL.md': noDescription('docx'),
    'translations/pl/.agents/skills/pdf/SKILL.md': noDescription('pdf'),
    'translations/fr/.agents/skills/pdf/SKILL.md': good('pdf', '# pdf\n\nEn français.\n'),
  });
  return repo;
}

describe('install: invalid deeper namesakes', () => {
  it('leaves invalid translations out with the valid ones, in one warning, and exits 0', async () => {
    const repo = course();
    const w = fresh('w');
    const r = await runCli(['install', repo, '--into', 'out', '-y'], { cwd: w });
    expect(r.exitCode, `${repo}: expected exit 0, got\n${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('skipped');
    expect(r.stderr).toMatch(/^warning: 4 deeper skills of \S+ named as a shallower one were left out \(/m);
    expect(r.stdout).toContain('out: 2 added; skills-lock.json written');
    expect(readFileSync(join(w, 'out/docx/SKILL.md'), 'utf8')).toBe(good('docx'));
  });

  it('--list marks the invalid deeper ones left out of "all" too, with no source alone (they install nowhere)', async () => {
    const repo = course();
    const r = await runCli(['install', repo, '--list'], { cwd: fresh('w') });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    const after = (shown: RegExp) => lines[lines.findIndex((l) => shown.test(l)) + 1];
    // The two invalid translations: their finding, then why "all" leaves them out.
    expect(lines.filter((l) => /^ {2}(docx|pdf) +invalid: description is missing/.test(l))).toHaveLength(2);
    expect(
      lines.filter((l) => l.includes('left out of "all": a shallower docx is taken (.agents/skills/docx)')),
    ).toHaveLength(2);
    expect(
      lines.filter((l) => l.includes('left out of "all": a shallower pdf is taken (.agents/skills/pdf)')),
    ).toHaveLength(2);
    expect(after(/^ {2}docx {2}invalid:/)).toBe(
      '        left out of "all": a shallower docx is taken (.agents/skills/docx)',
    );
    // The valid translations keep their source alone.
    expect(r.stdout).toMatch(
      /left out of "all": a shallower pdf is taken \(\.agents\/skills\/pdf\); alone: skills install \S+translations\/fr\/\.agents\/skills\/pdf$/m,
    );
    const doc = JSON.parse((await runCli(['install', repo, '--list', '--json'], { cwd: fresh('w') })).stdout) as {
      sources: { skills: { shown: string; problem?: string; leftOut?: { why: string; alone?: string } }[] }[];
    };
    const pl = doc.sources[0]!.skills.find((s) => s.shown === join(repo, 'translations/pl/.agents/skills/pdf'));
    expect(pl?.leftOut).toEqual({ why: 'a shallower pdf is taken (.agents/skills/pdf)' });
  });

  it('--list: an invalid skill no shallower namesake outranks is invalid, not left out', async () => {
    const repo = fresh('lone');
    writeTree(repo, { 'skills/a/SKILL.md': good('a'), 'skills/b/SKILL.md': noDescription('b') });
    const r = await runCli(['install', repo, '--list'], { cwd: fresh('w') });
    expect(r.stdout).toMatch(/^ {2}b {2}invalid: description is missing/m);
    expect(r.stdout).not.toContain('left out');
  });

  it('still skips (exit 1) an invalid skill that no valid shallower one of its name outranks', async () => {
    const repo = fresh('lone');
    writeTree(repo, {
      'skills/a/SKILL.md': good('a'),
      'skills/b/SKILL.md': noDescription('b'),
    });
    const w = fresh('w');
    const r = await runCli(['install', repo, '--into', 'out', '-y'], { cwd: w });
    expect(r.exitCode).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/^skipped {3}b \(/m);
  });
});

describe('registry sync: deeper namesakes', () => {
  it('registers the shallowest of each name and leaves the deeper copies out in one warning, exit 0', async () => {
    const repo = course();
    const reg = fresh('reg');
    const r = await runCli(['registry', 'sync', repo, '--registry', reg]);
    expect(r.exitCode, `${repo}: expected exit 0, got\n${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).not.toMatch(/^(refused|skipped)/m);
    const warnings = r.stdout.split('\n').filter((l) => l.includes('deeper skill'));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warning: 4 deeper skills of \S+ named as a shallower one were left out \(translations\/\S+, translations\/\S+, translations\/\S+ and 1 more; 2 of them invalid\): the shallowest of each name is registered/,
      ),
    ]);
    expect(r.stdout).toContain('2 skills synced into');
    const stored = join(reg, 'built-in/docx@0.0.0/SKILL.md');
    expect(readFileSync(stored, 'utf8'), `${stored}: expected the repository's own docx`).toBe(good('docx'));
  });

  it('says them in --json as a top-level leftOut list, the other fields as they were', async () => {
    const repo = course();
    const reg = fresh('reg');
    const r = await runCli(['registry', 'sync', repo, '--registry', reg, '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      skills: { status: string; id: string }[];
      counts: Record<string, number>;
      leftOut: { id: string; version: string; source: string; kept: string; invalid?: true }[];
    };
    expect(doc.skills.map((s) => `${s.status} ${s.id}`).sort()).toEqual(['added docx', 'added pdf']);
    expect(doc.counts).toMatchObject({ added: 2, invalid: 0, refused: 0 });
    expect(doc.leftOut).toHaveLength(4);
    expect(doc.leftOut).toContainEqual({
      id: 'docx',
      version: '0.0.0',
      source: join(repo, 'translations/pl/.agents/skills/docx'),
      kept: join(repo, '.agents/skills/docx'),
      invalid: true,
    });
  });

  it('registers the shallowest even when a deeper copy is found first', async () => {
    const repo = fresh('order');
    writeTree(repo, {
      'a/deep/er/x/SKILL.md': good('x', '# x\n\nThe deep copy.\n'),
      'z/x/SKILL.md': good('x'),
    });
    const reg = fresh('reg');
    const r = await runCli(['registry', 'sync', repo, '--registry', reg]);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(readFileSync(join(reg, 'built-in/x@0.0.0/SKILL.md'), 'utf8')).toBe(good('x'));
    expect(r.stdout).toContain('warning: 1 deeper skill of');
  });

  it('at a tie registers the first found and refuses each other, as before', async () => {
    const repo = fresh('tie');
    writeTree(repo, {
      'a/x/SKILL.md': good('x', '# x\n\nOne.\n'),
      'b/x/SKILL.md': good('x', '# x\n\nTwo.\n'),
      'c/d/x/SKILL.md': good('x', '# x\n\nDeeper.\n'),
    });
    const reg = fresh('reg');
    const r = await runCli(['registry', 'sync', repo, '--registry', reg]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout.match(/^refused {3}x: x@0\.0\.0 is in this batch twice/gm)).toHaveLength(2);
    expect(r.stdout).toContain(`${join(repo, 'a/x')} is registered, ${join(repo, 'c/d/x')} is not`);
    expect(r.stdout).not.toContain('deeper skill');
    expect(existsSync(join(reg, 'built-in/x@0.0.0'))).toBe(true);
  });
});

describe('install: one copy per agent in one repository', () => {
  // chongdashu/vibejam-starter-pack: `.agents/skills/x` and `.claude/skills/x`, each written for its agent.
  function perAgent(): string {
    const repo = fresh('per-agent');
    writeTree(repo, {
      '.agents/skills/game/SKILL.md': good('game', '# Game\n\nFor Codex.\n'),
      '.claude/skills/game/SKILL.md': good('game', '# Game\n\nFor Claude.\n'),
      '.claude/skills/only/SKILL.md': good('only'),
    });
    return repo;
  }

  it('takes the copy of the agent folder it places into, and says which it left out, exit 0', async () => {
    const repo = perAgent();
    const claude = fresh('claude');
    writeTree(claude, { 'CLAUDE.md': '# Project\n' });
    const r = await runCli(['install', repo, '-y'], { cwd: claude });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `warning: a copy of ${repo} for another agent's folder was left out (.agents/skills/game): the one in .claude/skills, where it is placed, is installed`,
    );
    expect(readFileSync(join(claude, '.claude/skills/game/SKILL.md'), 'utf8')).toContain('For Claude.');
    // A project with no agent: .agents/skills, and its copy.
    const plain = fresh('plain');
    const p = await runCli(['install', repo, '-y'], { cwd: plain });
    expect(p.exitCode, p.stderr).toBe(0);
    expect(readFileSync(join(plain, '.agents/skills/game/SKILL.md'), 'utf8')).toContain('For Codex.');
  });

  it('into a folder no copy is for, skips both as a tie, with the message of a tie', async () => {
    const w = fresh('w');
    const r = await runCli(['install', perAgent(), '--into', 'out', '-y'], { cwd: w });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^skipped {3}game: 2 different skills of \S+ are named game \(\.agents\/skills\/game, \.claude\/skills\/game\): a folder an agent reads holds one skill of a name, so none was installed\. One alone: /m,
    );
    expect(existsSync(join(w, 'out/only/SKILL.md'))).toBe(true);
  });
});

describe('list and render-prompt: one name in two plugins of a marketplace', () => {
  /** A marketplace naming plugins a/ and b/, each with skills/setup; and an agent folder with two skills named dup. */
  function marketplace(): string {
    const repo = fresh('market');
    writeTree(repo, {
      '.claude-plugin/marketplace.json': marketplaceJson('a', 'b'),
      'a/skills/setup/SKILL.md': good('setup', '# Setup\n\nFor plugin a.\n'),
      'b/skills/setup/SKILL.md': good('setup', '# Setup\n\nFor plugin b.\n'),
      '.claude/skills/x/SKILL.md': good('dup', '# Dup\n\nOne.\n'),
      '.claude/skills/y/SKILL.md': good('dup', '# Dup\n\nTwo.\n'),
    });
    return repo;
  }
  const shadow = /setup in .* is shadowed by/;

  it('list keeps both, with no warning (agents name them a:setup and b:setup); a prompt holds the first, with none', async () => {
    const repo = marketplace();
    const list = await runCli(['list', '--no-registry', '--json', 'a', 'b'], { cwd: repo });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stderr).not.toMatch(shadow);
    const doc = JSON.parse(list.stdout) as { skills: { id: string; path: string }[]; shadowed: unknown[] };
    expect(doc.skills.map((s) => [s.id, s.path])).toEqual([
      ['setup', join(repo, 'a/skills/setup')],
      ['setup', join(repo, 'b/skills/setup')],
    ]);
    expect(doc.shadowed).toEqual([]);
    const prompt = await runCli(['render-prompt', '.'], { cwd: repo });
    expect(prompt.exitCode, prompt.stderr).toBe(0);
    expect(prompt.stderr).not.toMatch(shadow);
    // A prompt names skills by name alone (selection, --select): one skill of a name, the first, as serve serves.
    expect(prompt.stdout).toContain(`(${join(repo, 'a/skills/setup/SKILL.md')})`);
    expect(prompt.stdout).not.toContain(`(${join(repo, 'b/skills/setup/SKILL.md')})`);
  });

  it('still warns of two skills of one name in one agent folder', async () => {
    const repo = marketplace();
    const list = await runCli(['list', '--no-registry', '.claude/skills'], { cwd: repo });
    expect(list.stderr).toMatch(/dup in \S+\/\.claude\/skills\/y \(project\) is shadowed by \S+\/\.claude\/skills\/x/);
    const prompt = await runCli(['render-prompt', '.claude/skills'], { cwd: repo });
    expect(prompt.stderr).toMatch(
      /dup in \S+\/\.claude\/skills\/y \(project\) is shadowed by \S+\/\.claude\/skills\/x/,
    );
  });
});

describe('install --list: one skill at two places, file for file', () => {
  it('lists it once, says how many identical copies there are, and --json names their places', async () => {
    // NeoLabHQ/context-engineering-kit holds skills/x and plugins/<p>/skills/x, file for file: listed twice, with
    // nothing to tell them apart.
    const repo = fresh('kit');
    writeTree(repo, {
      'skills/docx/SKILL.md': good('docx'),
      'skills/pdf/SKILL.md': good('pdf'),
      'plugins/office/skills/docx/SKILL.md': good('docx'),
      'plugins/office/skills/pdf/SKILL.md': good('pdf', '# pdf\n\nAnother pdf skill.\n'),
    });
    const r = await runCli(['install', repo, '--list'], { cwd: fresh('w') });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: 3 skills, and 1 identical copy of them elsewhere in it$/m);
    expect(r.stdout.split('\n').filter((l) => /^ {2}docx /.test(l))).toHaveLength(1);
    // Another skill of one name is still listed, and left out of "all" for the shallower one.
    expect(r.stdout.split('\n').filter((l) => /^ {2}pdf /.test(l))).toHaveLength(2);
    const doc = JSON.parse((await runCli(['install', repo, '--list', '--json'], { cwd: fresh('w') })).stdout) as {
      sources: { skills: { id: string; copies?: string[] }[] }[];
    };
    expect(doc.sources[0]!.skills.filter((s) => s.id === 'docx')).toMatchObject([
      { copies: [expect.stringMatching(/docx$/)] },
    ]);
  });
});
