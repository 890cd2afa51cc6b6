import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { doctor, type AgentReport } from '../../../src/doctor/doctor.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree, type TreeSpec } from '../../helpers/tree.js';

// Claude Code's enabled plugins: their skills are listed as <plugin>:<skill> and take part of the listing budget.

const { fresh, cleanup } = tempFolders('skills-doctor-plugins-');
afterAll(cleanup);

const skill = (dir: string, name: string, description = `Does ${name} things. Use when testing plugins.`) => ({
  [`${dir}/${name}/SKILL.md`]: skillMd(`name: ${name}\ndescription: ${description}`),
});
const words = async (text: string) => text.split(/\s+/).filter(Boolean).length;

interface Setup {
  project?: TreeSpec;
  home?: TreeSpec;
  /** installed_plugins.json's plugins, with {home} and {project} in paths replaced. */
  installed?: Record<string, unknown> | string;
  userEnabled?: Record<string, boolean>;
  projectEnabled?: Record<string, boolean>;
}

function place(s: Setup): { cwd: string; home: string } {
  const cwd = fresh('project');
  const home = fresh('home');
  writeTree(cwd, { '.git/HEAD': 'ref: refs/heads/main\n', ...(s.project ?? {}) });
  writeTree(home, s.home ?? {});
  const fill = (t: string) => t.replaceAll('{home}', home).replaceAll('{project}', cwd);
  if (s.installed !== undefined)
    writeTree(home, {
      '.claude/plugins/installed_plugins.json':
        typeof s.installed === 'string' ? s.installed : fill(JSON.stringify({ version: 2, plugins: s.installed })),
    });
  if (s.userEnabled) writeTree(home, { '.claude/settings.json': JSON.stringify({ enabledPlugins: s.userEnabled }) });
  if (s.projectEnabled)
    writeTree(cwd, { '.claude/settings.json': JSON.stringify({ enabledPlugins: s.projectEnabled }) });
  return { cwd, home };
}

const claude = async (p: { cwd: string; home: string }, env: Record<string, string> = {}): Promise<AgentReport> => {
  const r = await doctor({ ...p, env, countTokens: words });
  const a = r.agents.find((x) => x.name === 'claude-code');
  if (!a) throw new Error(`claude-code not reported: ${r.agents.map((x) => x.name).join(', ')}`);
  return a;
};

const SP = '.claude/plugins/cache/mkt/superpowers/5.0.0';
const superpowers = { ...skill(`${SP}/skills`, 'brainstorming'), ...skill(`${SP}/skills`, 'tdd') };
const userInstall = (path = `{home}/${SP}`) => [{ scope: 'user', installPath: path, version: '5.0.0' }];

describe('doctor: Claude Code plugins', () => {
  it("lists an enabled plugin's skills as <plugin>:<skill>, in the listing beside the folders' skills", async () => {
    const p = place({
      project: skill('.claude/skills', 'mine'),
      home: superpowers,
      installed: { 'superpowers@mkt': userInstall() },
      userEnabled: { 'superpowers@mkt': true },
    });
    const a = await claude(p);
    expect(a.loaded.map((s) => s.name)).toEqual(['mine']);
    expect(a.plugins?.map((x) => [x.id, x.dir])).toEqual([['superpowers@mkt', join(p.home, SP)]]);
    expect(a.plugins![0]!.loaded.map((s) => s.name)).toEqual(['superpowers:brainstorming', 'superpowers:tdd']);
    expect(a.listing.entries.map((e) => e.name)).toEqual(['mine', 'superpowers:brainstorming', 'superpowers:tdd']);
    expect(a.problems).toBe(0);
    expect(a.warnings).toEqual([]);
  });

  it('finds Claude Code through its plugins alone, with no skill folder', async () => {
    const p = place({
      home: superpowers,
      installed: { 'superpowers@mkt': userInstall() },
      userEnabled: { 'superpowers@mkt': true },
    });
    const r = await doctor({ ...p, env: {}, countTokens: words });
    expect(r.agents.map((a) => a.name)).toEqual(['claude-code']);
    expect(r.agents[0]!.listing.entries).toHaveLength(2);
  });

  it("takes the project's settings over the user's, and leaves out what is installed but not enabled", async () => {
    const OTHER = '.claude/plugins/cache/mkt/other/1.0.0';
    const p = place({
      project: skill('.claude/skills', 'mine'),
      home: {
        ...superpowers,
        ...skill(`${OTHER}/skills`, 'x'),
        ...skill(`.claude/plugins/cache/mkt/idle/1/skills`, 'y'),
      },
      installed: {
        'superpowers@mkt': userInstall(),
        'other@mkt': userInstall(`{home}/${OTHER}`),
        'idle@mkt': userInstall('{home}/.claude/plugins/cache/mkt/idle/1'),
      },
      userEnabled: { 'superpowers@mkt': true, 'other@mkt': true },
      projectEnabled: { 'other@mkt': false },
    });
    const a = await claude(p);
    expect(a.plugins?.map((x) => x.id)).toEqual(['superpowers@mkt']);
  });

  it("uses a project-scope install only in its own project, and CLAUDE_CONFIG_DIR's files", async () => {
    const config = fresh('config');
    const p = place({ project: skill('.claude/skills', 'mine') });
    const elsewhere = fresh('elsewhere');
    writeTree(config, {
      ...skill('plugins/cache/m/here/1/skills', 'a'),
      ...skill('plugins/cache/m/there/1/skills', 'b'),
      'plugins/installed_plugins.json': JSON.stringify({
        version: 2,
        plugins: {
          'here@m': [{ scope: 'project', projectPath: p.cwd, installPath: join(config, 'plugins/cache/m/here/1') }],
          'there@m': [
            { scope: 'project', projectPath: elsewhere, installPath: join(config, 'plugins/cache/m/there/1') },
          ],
        },
      }),
      'settings.json': JSON.stringify({ enabledPlugins: { 'here@m': true, 'there@m': true } }),
    });
    const a = await claude(p, { CLAUDE_CONFIG_DIR: config });
    expect(a.plugins?.map((x) => x.id)).toEqual(['here@m']);
    expect(a.warnings).toEqual([
      `plugin there@m is enabled but ${join(config, 'plugins/installed_plugins.json')} has no install of it for this project`,
    ]);
  });

  it("reads the skill paths plugin.json adds, and none outside the plugin's folder", async () => {
    const P = '.claude/plugins/cache/mkt/extra/1';
    const p = place({
      home: {
        ...skill(`${P}/skills`, 'one'),
        ...skill(`${P}/more`, 'two'),
        ...skill('.claude/plugins/cache/outside', 'three'),
        [`${P}/.claude-plugin/plugin.json`]: JSON.stringify({ name: 'extra', skills: ['./more', '../../outside'] }),
      },
      installed: { 'extra@mkt': userInstall(`{home}/${P}`) },
      userEnabled: { 'extra@mkt': true },
    });
    const a = await claude(p);
    expect(a.plugins![0]!.loaded.map((s) => s.name)).toEqual(['extra:one', 'extra:two']);
    expect(a.warnings).toHaveLength(1);
    expect(a.warnings[0]).toMatch(/names skills at \.\.\/\.\.\/outside, outside the plugin's folder; not read$/);
  });

  it("counts a plugin's invalid skill as a problem, and a listing its plugins put over the budget", async () => {
    const long = `${'Checks a very particular thing. '.repeat(30)}Use when testing plugins.`;
    const P = '.claude/plugins/cache/mkt/big/1';
    const many: TreeSpec = {};
    for (let i = 0; i < 12; i++) Object.assign(many, skill(`${P}/skills`, `s${i}`, long));
    const p = place({
      home: { ...many, [`${P}/skills/Bad/SKILL.md`]: skillMd('name: Bad\ndescription: Use when x.') },
      installed: { 'big@mkt': userInstall(`{home}/${P}`) },
      userEnabled: { 'big@mkt': true },
    });
    const a = await claude(p);
    const plugin = a.plugins![0]!;
    expect(plugin.skipped.map((s) => [s.name, s.reason])).toEqual([['big:Bad', 'invalid']]);
    expect(plugin.problems).toBe(1);
    expect(a.listing.characters).toBeGreaterThan(8000);
    expect(a.listing.over).toBeGreaterThan(0);
    expect(a.listing.trim[0]!.name).toMatch(/^big:s\d+$/);
    expect(a.problems).toBe(2);
  });

  it("warns, and goes on, when Claude Code's files cannot be read or name a folder that is gone", async () => {
    const broken = place({
      project: skill('.claude/skills', 'mine'),
      installed: '{"version": 2, "plugins": {\n  "superpowers@mkt": [\n',
      userEnabled: { 'superpowers@mkt': true },
    });
    const a = await claude(broken);
    expect(a.loaded.map((s) => s.name)).toEqual(['mine']);
    expect(a.plugins).toBeUndefined();
    expect(a.warnings).toHaveLength(1);
    expect(a.warnings[0]).toMatch(
      /installed_plugins\.json:3:1: not valid JSON: .*; the skills of enabled plugins are not counted$/,
    );

    const gone = place({
      project: skill('.claude/skills', 'mine'),
      installed: { 'superpowers@mkt': userInstall('{home}/nowhere') },
      userEnabled: { 'superpowers@mkt': true },
    });
    expect((await claude(gone)).warnings).toEqual([
      `plugin superpowers@mkt is enabled but its folder ${join(gone.home, 'nowhere')} is not there (reinstall it: /plugin install superpowers@mkt)`,
    ]);

    const badSettings = place({ project: skill('.claude/skills', 'mine') });
    writeTree(badSettings.cwd, { '.claude/settings.json': JSON.stringify({ enabledPlugins: ['superpowers@mkt'] }) });
    expect((await claude(badSettings)).warnings).toEqual([
      `${join(badSettings.cwd, '.claude/settings.json')}: enabledPlugins is not an object of "<plugin>@<marketplace>": true; it is not counted`,
    ]);
  });

  it('reads the older record (version 1: one install per plugin)', async () => {
    const p = place({ home: superpowers, userEnabled: { 'superpowers@mkt': true } });
    writeTree(p.home, {
      '.claude/plugins/installed_plugins.json': JSON.stringify({
        version: 1,
        plugins: { 'superpowers@mkt': { version: '5.0.0', installPath: join(p.home, SP) } },
      }),
    });
    expect((await claude(p)).plugins![0]!.loaded).toHaveLength(2);
  });
});
