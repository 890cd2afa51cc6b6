import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree, type TreeSpec } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-doctor-e2e-');
afterAll(cleanup);

const skill = (name: string, extra = '', description = `Does ${name} things. Use when checking the doctor.`) => ({
  [`${name}/SKILL.md`]: skillMd(`name: ${name}\ndescription: ${description}\n${extra}`),
});
const under = (prefix: string, tree: TreeSpec): TreeSpec =>
  Object.fromEntries(Object.entries(tree).map(([k, v]) => [`${prefix}/${k}`, v]));

/** A project and a home; the variables that would move the agents' folders are cleared. */
function setup(project: TreeSpec, home: TreeSpec = {}) {
  const cwd = fresh('project');
  const homeDir = fresh('home');
  writeTree(cwd, project);
  writeTree(homeDir, home);
  const env = {
    HOME: homeDir,
    XDG_CACHE_HOME: join(homeDir, '.cache'),
    XDG_CONFIG_HOME: '',
    CLAUDE_CONFIG_DIR: '',
    CODEX_HOME: '',
    COPILOT_HOME: '',
    SLASH_COMMAND_TOOL_CHAR_BUDGET: '',
  };
  return { cwd, home: homeDir, run: (args: string[]) => runCli(['doctor', ...args], { cwd, env }) };
}

const long = (i: number) =>
  skill(`long-${i}`, '', `${`Handles case ${i} of a long list of cases. `.repeat(22)}Use when checking the doctor.`);

/** Claude Code's folders with one skill of each kind, and a listing over its 8,000 characters. */
function troubled() {
  return setup(
    under('.claude/skills', {
      ...skill('valid'),
      // Claude Code cannot read YAML that does not parse: skipped. A missing description it takes from the body.
      'broken/SKILL.md': skillMd('name: broken\ndescription: "unclosed'),
      'nodesc/SKILL.md': skillMd('name: nodesc', 'Fills in forms\nfor the doctor.\n\nMore.\n'),
      'tool/manifest.json': JSON.stringify({
        id: 'tool',
        name: 'Tool',
        version: '1.0.0',
        description: 'A manifest skill. Use when checking the doctor.',
        owner: 'me',
      }),
      ...skill('manual', 'disable-model-invocation: true'),
      ...skill('shared', '', 'The project copy. Use when checking the doctor.'),
      ...Object.assign({}, ...Array.from({ length: 9 }, (_, i) => long(i))),
    }),
    under('.claude/skills', skill('shared', '', 'The user one, different. Use when checking the doctor.')),
  );
}

describe('skills doctor (built CLI)', () => {
  it('shows what Claude Code loads, skips and why, the collision and the listing over budget; exit 1', async () => {
    const t = troubled();
    const r = await t.run([]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(1);
    const out = r.stdout;
    expect(out).toMatch(/^Claude Code \(claude-code\)\n {2}reads ~\/\.claude\/skills, then \.claude\/skills/);
    // Twelve skills: the first ten named, then how many more.
    expect(out).toMatch(/^ {2}loads 12 skills: shared, long-0, .* and 2 more \(--json lists them all\)$/m);
    expect(out).toMatch(
      /^ {2}loads though invalid 1 \(Claude Code minds none of their errors; other agents may skip them\):\n {4}nodesc {2}\.claude\/skills\/nodesc: description is missing/m,
    );
    expect(out).toMatch(/^ {2}skips 4:$/m);
    expect(out).toMatch(/^ {4}broken +invalid \(\.claude\/skills\/broken\): frontmatter YAML does not parse/m);
    expect(out).toMatch(/^ {4}tool +not read: a manifest\.json skill: Claude Code reads SKILL\.md skills only$/m);
    expect(out).toMatch(/^ {4}manual +disabled: disable-model-invocation is true/m);
    expect(out).toMatch(/^ {4}shared +shadowed: \.claude\/skills\/shared by ~\/\.claude\/skills\/shared$/m);
    expect(out).toMatch(
      /^ {4}"shared" names two different skills: ~\/\.claude\/skills\/shared is used, \.claude\/skills\/shared is not$/m,
    );
    expect(out).toMatch(
      /^ {2}listing: [\d,]+ characters, [\d,]+ tokens, over its budget of 8,000 characters by [\d,]+$/m,
    );
    expect(out).toMatch(/^ {4}trim first, the entries that save most: long-\d \(saves [\d,]+ characters\)/m);
    expect(out).toMatch(/\n {2}4 problems\n\n1 agent checked: 4 problems$/);
  });

  it('names first what saves most, as it shows, not the longest description: a long name counts too', async () => {
    // Lines are "- name: description\n": 5 characters more than the name and the description.
    const described = (name: string, chars: number) =>
      skill(name, '', `${'Checks the doctor. '.repeat(60)}`.slice(0, chars - 10) + ' Use when.');
    const longName = `named-${'x'.repeat(54)}`; // 60 characters, a 900-character description: saves 965
    const t = setup(
      under('.claude/skills', {
        ...described(longName, 900),
        ...described('wordy', 930), // saves 940
        ...Object.assign({}, ...Array.from({ length: 8 }, (_, i) => described(`fill-${i}`, 850))), // 861 each
      }),
    );
    const r = await t.run([]);
    expect(r.stdout).toMatch(/over its budget of 8,000 characters by 793$/m);
    expect(r.stdout).toMatch(
      new RegExp(`^ {4}trim first, the entries that save most: ${longName} \\(saves 965 characters\\)$`, 'm'),
    );
    const doc = JSON.parse((await t.run(['--json'])).stdout);
    expect(doc.agents[0].listing.trim.map((e: { name: string }) => e.name)).toEqual([longName]);
  });

  it('prints the full data with --json, and the same exit code', async () => {
    const t = troubled();
    const r = await t.run(['--json']);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['agents', 'problems']);
    expect(doc.problems).toBe(4);
    const [a] = doc.agents;
    expect(Object.keys(a)).toEqual([
      'name',
      'title',
      'reads',
      'first',
      'basis',
      'folders',
      'loaded',
      'skipped',
      'loadedInvalid',
      'collisions',
      'warnings',
      'listing',
      'nested',
      'problems',
    ]);
    expect(a).toMatchObject({ name: 'claude-code', reads: 'skill-md', first: 'user', problems: 4, nested: [] });
    expect(a.folders).toEqual([
      { dir: join(t.home, '.claude/skills'), scope: 'user', exists: true },
      { dir: join(t.cwd, '.claude/skills'), scope: 'project', exists: true },
    ]);
    expect(a.loaded[0]).toEqual({
      name: 'shared',
      description: 'The user one, different. Use when checking the doctor.',
      file: join(t.home, '.claude/skills/shared/SKILL.md'),
      root: join(t.home, '.claude/skills/shared'),
      scope: 'user',
    });
    expect(a.skipped.map((s: { name: string; reason: string }) => [s.name, s.reason])).toEqual([
      ['broken', 'invalid'],
      ['manual', 'disabled'],
      ['shared', 'shadowed'],
      ['tool', 'manifest'],
    ]);
    expect(a.skipped[0].errors[0]).toMatchObject({ ruleId: 'SK003' });
    expect(a.loadedInvalid).toEqual([
      {
        name: 'nodesc',
        root: join(t.cwd, '.claude/skills/nodesc'),
        scope: 'project',
        message: expect.stringMatching(/^description is missing/),
        errors: [expect.objectContaining({ ruleId: 'SK011', line: 2, column: 1 })],
      },
    ]);
    // Listed with the first paragraph of its instructions, as Claude Code takes it.
    expect(a.loaded.find((s: { name: string }) => s.name === 'nodesc').description).toBe(
      'Fills in forms for the doctor.',
    );
    expect(a.collisions).toEqual([
      expect.objectContaining({
        kind: 'same-name',
        names: ['shared'],
        roots: [join(t.home, '.claude/skills/shared'), join(t.cwd, '.claude/skills/shared')],
      }),
    ]);
    const { listing } = a;
    expect(listing.budget).toMatchObject({ unit: 'characters', limit: 8000 });
    expect(listing.over).toBe(listing.characters - 8000);
    expect(listing.entries).toHaveLength(12);
    expect(listing.tokens).toBeGreaterThan(0);
    expect(listing.trim.length).toBeGreaterThan(0);
    expect(listing.trim[0]).toEqual({
      name: expect.stringMatching(/^long-\d$/),
      descriptionCharacters: expect.any(Number),
      saves: { characters: expect.any(Number), tokens: expect.any(Number) },
    });
  });

  it('exits 0 on a clean project, and checks every agent with a folder here or in home', async () => {
    const t = setup(under('.claude/skills', { ...skill('alpha'), ...skill('beta') }), {
      ...under('.agents/skills', skill('gamma')),
    });
    const r = await t.run([]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(
      /^ {2}loads 2 skills: alpha, beta\n {2}listing: [\d,]+ characters, [\d,]+ tokens, within its budget of 8,000 characters\n {2}ok$/m,
    );
    expect(r.stdout).toMatch(
      /^Codex \(codex\)\n {2}reads ~\/\.agents\/skills\n {2}loads 1 skill: gamma\n.*within its budget of 4,000 tokens$/m,
    );
    expect(r.stdout).toMatch(/^Agent Skills \(generic\) \(agents\)$/m);
    expect(r.stdout).toMatch(/\n\n3 agents checked: nothing wrong$/);
  });

  it('checks every agent --agent names, repeated as install takes it, not only the last one', async () => {
    const t = setup(under('.claude/skills', skill('alpha')), under('.agents/skills', skill('gamma')));
    const heads = (out: string) => out.split('\n').filter((l) => /^\S.*\(\S+\)$/.test(l));
    const repeated = await t.run(['--agent', 'claude-code', '--agent', 'codex']);
    expect(heads(repeated.stdout)).toEqual(['Claude Code (claude-code)', 'Codex (codex)']);
    expect(repeated.stdout).toMatch(/\n\n2 agents checked: nothing wrong$/);
    const commas = await t.run(['--agent', 'claude-code,codex']);
    expect(commas.stdout).toBe(repeated.stdout);
  });

  it('loads a skill whose SKILL.md is named in another case, as on macOS and Windows, and warns that Linux does not', async () => {
    const t = setup({
      '.claude/skills/upper/SKILL.MD': skillMd('name: upper\ndescription: Does upper. Use when asked.'),
    });
    const r = await t.run(['--agent', 'claude-code']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('loads 1 skill: upper');
    expect(r.stdout).toContain(
      `warning: ${join(t.cwd, '.claude/skills/upper/SKILL.MD')}: the skill file is named SKILL.MD; the standard name is SKILL.md: agents on macOS and Windows, whose file names ignore case, load it, but not on Linux`,
    );
  });

  it("checks Codex's old user folder (~/.codex/skills, still read, deprecated) and says where its skills belong", async () => {
    const t = setup({}, { ...under('.codex/skills', skill('old-one')), ...under('.agents/skills', skill('new-one')) });
    const r = await t.run([]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^Codex \(codex\)\n {2}reads ~\/\.codex\/skills, then ~\/\.agents\/skills \(the first wins a name\)\n {2}loads 2 skills: old-one, new-one\n/m,
    );
    expect(r.stdout).toContain(
      `warning: ${join(t.home, '.codex/skills')} is Codex's old user skill folder: it still reads it (deprecated, kept for backward compatibility), but user skills now belong in ${join(t.home, '.agents/skills')}; move them there`,
    );
    // Found there alone, Codex is checked too; CODEX_HOME moves the folder.
    const alone = setup({}, under('.codex/skills', skill('old-one')));
    const json = JSON.parse((await alone.run(['--json'])).stdout) as { agents: { name: string; loaded: unknown[] }[] };
    expect(json.agents.map((a) => a.name)).toEqual(['codex']);
    expect(json.agents[0]!.loaded).toHaveLength(1);
    const moved = setup({}, under('elsewhere/skills', skill('old-one')));
    const m = await runCli(['doctor', '--json'], {
      cwd: moved.cwd,
      env: { HOME: moved.home, CODEX_HOME: join(moved.home, 'elsewhere'), XDG_CONFIG_HOME: '', CLAUDE_CONFIG_DIR: '' },
    });
    expect((JSON.parse(m.stdout) as { agents: { name: string }[] }).agents.map((a) => a.name)).toEqual(['codex']);
  });

  it("checks Antigravity's old project folder (.agent/skills, still read) and says where its skills belong", async () => {
    const t = setup({ ...under('.agent/skills', skill('old-one')) }, under('.gemini/config/skills', skill('mine')));
    const r = await t.run(['--json']);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as {
      agents: { name: string; loaded: { name: string }[]; warnings: string[]; folders: { dir: string }[] }[];
    };
    // Found by its old folder alone (and its global one): the only agent checked.
    expect(json.agents.map((a) => a.name)).toEqual(['antigravity']);
    const agy = json.agents[0]!;
    expect(agy.folders.map((f) => f.dir)).toEqual([
      join(t.cwd, '.agents/skills'),
      join(t.cwd, '.agent/skills'),
      join(t.home, '.gemini/config/skills'),
    ]);
    expect(agy.loaded.map((s) => s.name)).toEqual(['old-one', 'mine']);
    expect(agy.warnings).toContain(
      `${join(t.cwd, '.agent/skills')} is Google Antigravity's old project skill folder: it still reads it (kept for backward compatibility), but project skills now belong in ${join(t.cwd, '.agents/skills')}; move them there (skills install <folder> --agent antigravity puts one there)`,
    );
    const named = await t.run(['--agent', 'agy']);
    expect(named.stdout).toMatch(/^Google Antigravity \(antigravity\)$/m);
    expect(named.stdout).toMatch(/^ {2}loads 2 skills: old-one, mine$/m);
  });

  it('run in a subfolder of a repository, checks the project from its root', async () => {
    const t = setup({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'src/app/.keep': '',
      ...under('.claude/skills', skill('alpha')),
    });
    const env = { HOME: t.home, XDG_CACHE_HOME: join(t.home, '.cache'), XDG_CONFIG_HOME: '', CLAUDE_CONFIG_DIR: '' };
    const r = await runCli(['doctor', '--agent', 'claude-code'], { cwd: join(t.cwd, 'src/app'), env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}loads 1 skill: alpha$/m);
  });

  it("checks a monorepo's nested skill folders as Claude Code and Codex read them there, from anywhere in it", async () => {
    const t = setup({
      '.git/HEAD': 'ref: refs/heads/main\n',
      ...under('.claude/skills', skill('style')),
      ...under('packages/web/.claude/skills', {
        ...skill('react-patterns'),
        ...skill('style', '', 'The web team style, not the root one. Use when checking the doctor.'),
      }),
      ...under('packages/api/.agents/skills', {
        ...skill('api-design'),
        'broken/SKILL.md': skillMd('name: broken\ndescription: "unclosed'),
      }),
      // Dependencies and dot folders are not walked into.
      ...under('node_modules/pkg/.claude/skills', skill('vendored')),
      ...under('.cache/x/.claude/skills', skill('cached')),
    });
    const env = {
      HOME: t.home,
      XDG_CACHE_HOME: join(t.home, '.cache'),
      XDG_CONFIG_HOME: '',
      CLAUDE_CONFIG_DIR: '',
      CODEX_HOME: '',
    };
    const r = await runCli(['doctor'], { cwd: join(t.cwd, 'packages/web'), env });
    expect(r.exitCode, r.stderr).toBe(1);
    const lines = r.stdout.split('\n');
    const at = lines.indexOf('  when it works in ., also reads .claude/skills:');
    expect(at, r.stdout).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 6)).toEqual([
      '    loads 2 skills: react-patterns, style',
      '    skips 1:',
      // Above the working folder, paths are shown whole.
      `      style  shadowed: ${join(t.cwd, '.claude/skills/style')} by .claude/skills/style`,
      '    collisions:',
      `      "style" names two different skills: .claude/skills/style is used, ${join(t.cwd, '.claude/skills/style')} is not`,
    ]);
    // Codex has no folder at the top: it is checked for the nested one, where it skips the skill it cannot read.
    expect(r.stdout).toMatch(/^Codex \(codex\)\n {2}reads none of its folders: none exists\n {2}loads 0 skills\n/m);
    expect(r.stdout).toMatch(
      /^ {2}when it works in \S+\/packages\/api, also reads \S+\/packages\/api\/\.agents\/skills:\n {4}loads 1 skill: api-design\n {4}skips 1:\n {6}broken {2}invalid/m,
    );
    expect(r.stdout).not.toMatch(/vendored|cached/);
    const json = JSON.parse((await runCli(['doctor', '--json'], { cwd: t.cwd, env })).stdout);
    const claude = json.agents.find((a: { name: string }) => a.name === 'claude-code');
    expect(claude.nested.map((v: { workingIn: string; problems: number }) => [v.workingIn, v.problems])).toEqual([
      [join(t.cwd, 'packages/web'), 1],
    ]);
    expect(claude.problems).toBe(1);
    expect(json.agents.find((a: { name: string }) => a.name === 'codex').nested[0].folder).toBe(
      join(t.cwd, 'packages/api/.agents/skills'),
    );
  });

  it('says Claude Code does not find a skill two folders down .claude/skills, with where to move it; exit 1', async () => {
    const t = setup(under('.claude/skills/group', skill('pdf-forms')));
    const r = await t.run(['--agent', 'claude-code']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('loads 0 skills');
    expect(r.stdout).toContain(
      'pdf-forms  too deep (.claude/skills/group/pdf-forms): 2 folders below its skills folder: Claude Code finds only <skills folder>/<name>/SKILL.md\n      hint: move it up to .claude/skills/pdf-forms/, where Claude Code finds it',
    );
  });

  it('checks only the agents named with --agent', async () => {
    const t = setup(under('.claude/skills', skill('alpha')), under('.agents/skills', skill('gamma')));
    const r = await t.run(['--agent', 'codex', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).agents.map((a: { name: string }) => a.name)).toEqual(['codex']);
  });

  it('says so when no agent has a skill folder here, and exits 0', async () => {
    const t = setup({ 'README.md': '# nothing\n' });
    const r = await t.run([]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^No agent skill folders here or in your home/);
    expect(JSON.parse((await t.run(['--json'])).stdout)).toEqual({ agents: [], problems: 0 });
  });

  it('exits 2 on an unknown agent, with did-you-mean; one JSON error document with --json', async () => {
    const t = setup(under('.claude/skills', skill('alpha')));
    const r = await t.run(['--agent', 'claud-code']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: unknown agent "claud-code"; did you mean "claude-code"\?/);
    const j = await t.run(['--agent', 'claud-code', '--json']);
    expect(j.exitCode).toBe(2);
    expect(JSON.parse(j.stdout).error).toMatchObject({ code: 'E_USAGE' });
  });
  it("shows Claude Code's enabled plugins and their skills, counted in its listing; an escape in a plugin's name is shown as one", async () => {
    const P = '.claude/plugins/cache/mkt/superpowers/5.0.0';
    const t = setup(under('.claude/skills', skill('alpha')), {
      ...under(`${P}/skills`, { ...skill('brainstorming'), ...skill('tdd') }),
    });
    writeTree(t.home, {
      '.claude/plugins/installed_plugins.json': JSON.stringify({
        version: 2,
        plugins: { 'superpowers@mkt\u001b[31m': [{ scope: 'user', installPath: join(t.home, P), version: '5.0.0' }] },
      }),
      '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'superpowers@mkt\u001b[31m': true } }),
    });
    const r = await t.run([]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(
      [
        '  loads 1 skill: alpha',
        `  plugin superpowers@mkt\\x1b[31m (~/${P}):`,
        '    loads 2 skills: superpowers:brainstorming, superpowers:tdd',
      ].join('\n'),
    );
    expect(r.stdout).not.toContain('\u001b');
    const j = JSON.parse((await t.run(['--json'])).stdout);
    expect(j.agents[0].listing.entries.map((e: { name: string }) => e.name)).toEqual([
      'alpha',
      'superpowers:brainstorming',
      'superpowers:tdd',
    ]);
  });
});
