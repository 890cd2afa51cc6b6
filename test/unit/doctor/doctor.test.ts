import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { doctor, type AgentReport } from '../../../src/doctor/doctor.js';
import { folderReader } from '../../../src/doctor/folder-read.js';
import { isSkillsError } from '../../../src/errors.js';
import { tokenCounter } from '../../../src/tokens/tokens.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree, type TreeSpec } from '../../helpers/tree.js';

/** A manifest.json skill, which the generic agent reads and SKILL.md-only agents do not. */
const TOOL_MANIFEST = JSON.stringify({
  id: 'tool',
  name: 'Tool',
  version: '1.0.0',
  description: 'A manifest skill. Use when testing the doctor.',
  owner: 'me',
});

const { fresh, cleanup } = tempFolders('skills-doctor-');
afterAll(cleanup);

const skill = (name: string, extra = '', description = `Does ${name} things. Use when testing the doctor.`) => ({
  [`${name}/SKILL.md`]: skillMd(`name: ${name}\ndescription: ${description}\n${extra}`),
});
const words = async (text: string) => text.split(/\s+/).filter(Boolean).length;

function place(project: TreeSpec, home: TreeSpec): { cwd: string; home: string } {
  const cwd = fresh('project');
  const homeDir = fresh('home');
  writeTree(cwd, project);
  writeTree(homeDir, home);
  return { cwd, home: homeDir };
}
const under = (prefix: string, tree: TreeSpec): TreeSpec =>
  Object.fromEntries(Object.entries(tree).map(([k, v]) => [`${prefix}/${k}`, v]));
const run = (p: { cwd: string; home: string }, agents?: string[], env: Record<string, string> = {}) =>
  doctor({ ...p, env, countTokens: words, ...(agents ? { agents } : {}) });
const byReason = (a: AgentReport, reason: string) => a.skipped.filter((s) => s.reason === reason).map((s) => s.name);

describe('doctor: what Claude Code sees', () => {
  const p = place(
    under('.claude/skills', {
      ...skill('good'),
      ...skill('shared'),
      ...skill('twin'),
      ...skill('manual', 'disable-model-invocation: true'),
      ...skill('off', 'default_enabled: false'),
      'broken/SKILL.md': skillMd('name: Broken'),
      'nodesc/SKILL.md': skillMd('name: nodesc', '# Nodesc\n\nFills in forms.\n'),
      'tool/manifest.json': TOOL_MANIFEST,
    }),
    under('.claude/skills', {
      ...skill('shared', '', 'A different skill of the same name. Use when testing the doctor.'),
      ...skill('twin'),
    }),
  );

  it('loads the valid skills, user skills first, and skips the others with their reason', async () => {
    const r = await run(p);
    expect(r.agents.map((a) => a.name)).toEqual(['claude-code']);
    const a = r.agents[0]!;
    expect(a.folders.map((f) => [f.scope, f.exists])).toEqual([
      ['user', true],
      ['project', true],
    ]);
    expect(a.loaded.map((s) => [s.name, s.scope])).toEqual([
      ['shared', 'user'],
      ['twin', 'user'],
      ['good', 'project'],
      ['nodesc', 'project'],
    ]);
    // A name Claude Code's rules refuse (not lowercase): skipped, said by that error though it has others.
    expect(byReason(a, 'invalid')).toEqual(['Broken']);
    const broken = a.skipped.find((s) => s.reason === 'invalid')!;
    expect(broken.message).toMatch(/^name "Broken" must be lowercase.* \(and 2 more\)$/);
    expect(broken.errors!.map((e) => e.ruleId).sort()).toEqual(['SK007', 'SK010', 'SK011']);
    // No description: Claude Code takes the first paragraph, and loads it; still invalid to the standard.
    expect(a.loaded.find((s) => s.name === 'nodesc')!.description).toBe('Fills in forms.');
    expect(a.loadedInvalid).toEqual([
      expect.objectContaining({
        name: 'nodesc',
        scope: 'project',
        errors: [expect.objectContaining({ ruleId: 'SK011', severity: 'error', line: 2 })],
      }),
    ]);
    expect(byReason(a, 'manifest')).toEqual(['tool']);
    expect(byReason(a, 'disabled')).toEqual(['manual', 'off']);
    expect(byReason(a, 'shadowed')).toEqual(['shared', 'twin']);
  });

  it('tells a same-name skill that differs (a collision) from a copy (none)', async () => {
    const a = (await run(p)).agents[0]!;
    const shadowed = a.skipped.filter((s) => s.reason === 'shadowed');
    expect(shadowed.map((s) => [s.name, s.copy, s.by])).toEqual([
      ['shared', false, join(p.home, '.claude/skills/shared')],
      ['twin', true, join(p.home, '.claude/skills/twin')],
    ]);
    expect(a.collisions).toEqual([
      expect.objectContaining({
        kind: 'same-name',
        names: ['shared'],
        roots: [join(p.home, '.claude/skills/shared'), join(p.cwd, '.claude/skills/shared')],
      }),
    ]);
  });

  it('counts invalid skills and collisions as problems, and lists within the budget', async () => {
    const r = await run(p);
    const a = r.agents[0]!;
    expect(a.listing).toMatchObject({ over: 0, trim: [], budget: { unit: 'characters', limit: 8000 } });
    expect(a.listing.entries.map((e) => e.name)).toEqual(['shared', 'twin', 'good', 'nodesc']);
    // Broken (skipped), nodesc (loaded though invalid), the collision.
    expect(a.problems).toBe(3);
    expect(r.problems).toBe(3);
  });
});

describe('doctor: what each agent loads of an invalid skill', () => {
  const tree = {
    ...skill('good'),
    // The standard's errors Codex does not check: a name in capitals, not its folder's; a field of a wrong type.
    'caps/SKILL.md': skillMd('name: Caps Lock\ndescription: Does caps things.'),
    ...skill('typed', 'compatibility: [1, 2]'),
    // Errors Codex does check: no frontmatter, a name over 64 characters, no description, YAML that does not parse.
    'bare/SKILL.md': '# Bare\n\nNo frontmatter here.\n',
    [`${'n'.repeat(65)}/SKILL.md`]: skillMd(`name: ${'n'.repeat(65)}\ndescription: Too long a name.`),
    'nodesc/SKILL.md': skillMd('name: nodesc'),
    'yaml/SKILL.md': skillMd('name: yaml\ndescription: "unclosed'),
  };

  it('Codex loads past the errors it does not check and skips for those it does', async () => {
    const a = (await run(place(under('.agents/skills', tree), {}), ['codex'])).agents[0]!;
    expect(a.loaded.map((s) => s.name).sort()).toEqual(['Caps Lock', 'good', 'typed']);
    expect(a.loadedInvalid.map((s) => s.name).sort()).toEqual(['Caps Lock', 'typed']);
    expect(byReason(a, 'invalid').sort()).toEqual(['bare', 'n'.repeat(65), 'nodesc', 'yaml']);
    expect(a.problems).toBe(6);
  });

  it('Claude Code loads a skill with no frontmatter under its folder’s name, and skips a name it refuses', async () => {
    const a = (await run(place(under('.claude/skills', tree), {}), ['claude-code'])).agents[0]!;
    expect(a.loaded.map((s) => s.name).sort()).toEqual(['bare', 'good', 'nodesc', 'typed']);
    expect(a.loaded.find((s) => s.name === 'bare')!.description).toBe('No frontmatter here.');
    expect(byReason(a, 'invalid').sort()).toEqual(['Caps Lock', 'n'.repeat(65), 'yaml']);
  });

  it('an agent that documents nothing skips every invalid skill, as the standard says', async () => {
    const a = (await run(place(under('.cursor/skills', tree), {}), ['cursor'])).agents[0]!;
    expect(a.loaded.map((s) => s.name)).toEqual(['good']);
    expect(a.loadedInvalid).toEqual([]);
    expect(byReason(a, 'invalid')).toHaveLength(6);
  });
});

describe('doctor: precedence, visibility and names', () => {
  it('reads project skills first for Codex, and a manifest skill is the generic agent’s but not Codex’s', async () => {
    const p = place(
      under('.agents/skills', {
        ...skill('mine', '', 'The project one. Use when testing the doctor.'),
        'tool/manifest.json': TOOL_MANIFEST,
      }),
      under('.agents/skills', skill('mine', '', 'The user one. Use when testing the doctor.')),
    );
    const r = await run(p, ['codex', 'agents']);
    const codex = r.agents.find((a) => a.name === 'codex')!;
    expect(codex.loaded.map((s) => [s.name, s.scope])).toEqual([['mine', 'project']]);
    expect(byReason(codex, 'manifest')).toEqual(['tool']);
    const generic = r.agents.find((a) => a.name === 'agents')!;
    expect(generic.loaded.map((s) => s.name)).toEqual(['mine', 'tool']);
  });

  it('lets a usable skill of a later folder be seen when the first of its name is invalid', async () => {
    const p = place(
      under('.cursor/skills', { 'pdf/SKILL.md': skillMd('name: pdf') }),
      under('.cursor/skills', skill('pdf')),
    );
    const a = (await run(p)).agents[0]!;
    expect(a.loaded.map((s) => [s.name, s.scope])).toEqual([['pdf', 'user']]);
    expect(byReason(a, 'invalid')).toEqual(['pdf']);
    expect(a.collisions).toEqual([]);
  });

  it('within one folder, passes over an invalid skill to a valid one of the same name', async () => {
    // `a-copy` says it is `ok`: invalid (its name is not its folder's), found before `ok`.
    const p = place(under('.cursor/skills', { ...skill('ok'), 'a-copy/SKILL.md': skill('ok')['ok/SKILL.md']! }), {});
    const a = (await run(p)).agents[0]!;
    expect(a.loaded.map((s) => s.root)).toEqual([join(p.cwd, '.cursor/skills/ok')]);
    expect(a.skipped.map((s) => [s.name, s.reason, s.root])).toEqual([
      ['ok', 'invalid', join(p.cwd, '.cursor/skills/a-copy')],
    ]);
  });

  it('skips for Claude Code a SKILL.md two folders down its skills folder (a problem), which Codex still loads', async () => {
    const deep = under('group', skill('pdf-forms'));
    const p = place({ ...under('.claude/skills', { ...deep, ...skill('ok') }), ...under('.agents/skills', deep) }, {});
    const r = await run(p, ['claude-code', 'codex']);
    const claude = r.agents.find((a) => a.name === 'claude-code')!;
    expect(claude.loaded.map((s) => s.name)).toEqual(['ok']);
    expect(claude.skipped).toEqual([
      expect.objectContaining({
        name: 'pdf-forms',
        reason: 'too-deep',
        root: join(p.cwd, '.claude/skills/group/pdf-forms'),
        moveTo: join(p.cwd, '.claude/skills/pdf-forms'),
        message: '2 folders below its skills folder: Claude Code finds only <skills folder>/<name>/SKILL.md',
      }),
    ]);
    expect(claude.problems).toBe(1);
    const codex = r.agents.find((a) => a.name === 'codex')!;
    expect([codex.loaded.map((s) => s.name), codex.skipped, codex.problems]).toEqual([['pdf-forms'], [], 0]);
  });

  it('finds look-alike names', async () => {
    const p = place(under('.cursor/skills', { ...skill('t00ls'), ...skill('pdf'), ...skill('tools') }), {});
    const a = (await run(p)).agents[0]!;
    expect(a.collisions).toEqual([expect.objectContaining({ kind: 'look-alike', names: ['t00ls', 'tools'] })]);
    expect(a.problems).toBe(1);
  });

  it('skips a skill file that is no file as invalid, a problem', async () => {
    const p = place(under('.cursor/skills', { ...skill('ok'), 'gone/SKILL.md': { symlink: '.' } }), {});
    const a = (await run(p)).agents[0]!;
    expect(a.skipped.map((s) => [s.name, s.reason, s.root])).toEqual([
      ['gone', 'invalid', join(p.cwd, '.cursor/skills/gone')],
    ]);
    expect(a.problems).toBe(1);
  });

  // root reads every folder, whatever its mode.
  it.skipIf(process.getuid?.() === 0)('reports a skill folder that cannot be read as unreadable', async () => {
    const p = place(under('.cursor/skills', skill('ok')), {});
    const locked = join(p.cwd, '.cursor/skills/locked');
    writeTree(locked, { 'SKILL.md': skillMd('name: locked\ndescription: Locked. Use when testing.') });
    chmodSync(join(locked, 'SKILL.md'), 0o000);
    const a = (await run(p)).agents[0]!;
    expect(a.skipped.map((s) => [s.name, s.reason, s.root])).toEqual([[null, 'unreadable', locked]]);
    expect(a.problems).toBe(1);
  });
});

describe('doctor: the listing budget', () => {
  const long = (i: number) =>
    skill(`long-${i}`, '', `${'Handles a long list of cases. '.repeat(25 + i)}Use when testing.`.slice(0, 1000));
  const many = Object.assign({}, ...Array.from({ length: 10 }, (_, i) => long(i)));

  it('is over budget with many long descriptions, and names those that save most to trim first', async () => {
    const p = place(under('.claude/skills', many), {});
    const a = (await run(p)).agents[0]!;
    expect(a.listing.characters).toBeGreaterThan(8000);
    expect(a.listing.over).toBe(a.listing.characters - 8000);
    const trimmed = a.listing.trim.reduce((n, t) => n + t.saves.characters, 0);
    expect(trimmed).toBeGreaterThanOrEqual(a.listing.over);
    expect(trimmed - a.listing.trim.at(-1)!.saves.characters).toBeLessThan(a.listing.over);
    const saves = a.listing.trim.map((t) => t.saves.characters);
    expect(saves).toEqual([...saves].sort((x, y) => y - x));
    expect(a.problems).toBe(1);
  });

  it('follows SLASH_COMMAND_TOOL_CHAR_BUDGET, and an agent with no documented budget is never over', async () => {
    const p = place({ ...under('.claude/skills', many), ...under('.cursor/skills', many) }, {});
    const r = await run(p, undefined, { SLASH_COMMAND_TOOL_CHAR_BUDGET: '100000' });
    expect(r.agents.map((a) => [a.name, a.listing.over, a.listing.budget?.limit ?? null])).toEqual([
      ['claude-code', 0, 100000],
      ['cursor', 0, null],
    ]);
    expect(r.problems).toBe(0);
  });

  it('counts o200k tokens when given no counter', async () => {
    const p = place(under('.cursor/skills', skill('pdf')), {});
    const r = await doctor({ ...p, env: { SKILLS_TOKEN_CACHE: '0' } });
    const line = '- pdf: Does pdf things. Use when testing the doctor.\n';
    expect(r.agents[0]!.listing.tokens).toBe((await tokenCounter())(line));
  });
});

describe('doctor: which agents', () => {
  it('checks only agents with a skill folder here or in home', async () => {
    const p = place({}, {});
    mkdirSync(join(p.cwd, '.claude'), { recursive: true });
    expect((await run(p)).agents).toEqual([]);
    mkdirSync(join(p.home, '.gemini/skills'), { recursive: true });
    const r = await run(p);
    expect(r.agents.map((a) => [a.name, a.folders.map((f) => f.exists)])).toEqual([['gemini-cli', [false, true]]]);
    expect(r.problems).toBe(0);
  });

  it('checks the agents named, with or without folders, and refuses an unknown name', async () => {
    const p = place(under('.claude/skills', skill('good')), {});
    const r = await run(p, ['cursor,claude']);
    expect(r.agents.map((a) => [a.name, a.loaded.length])).toEqual([
      ['claude-code', 1],
      ['cursor', 0],
    ]);
    const err = await run(p, ['claud-code']).catch((e: unknown) => e);
    expect(isSkillsError(err) && err.code).toBe('E_USAGE');
  });

  it('reads a folder that several agents share once', async () => {
    const p = place(under('.agents/skills', skill('pdf')), {});
    const read = folderReader();
    const dir = join(p.cwd, '.agents/skills');
    expect(read(dir, 'project')).toBe(read(dir, 'project'));
    expect((await read(dir, 'project')).skills.map((s) => s.id)).toEqual(['pdf']);
  });
});
