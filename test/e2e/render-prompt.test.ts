import { afterAll, describe, expect, it } from 'vitest';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { BIN, EXAMPLES, runCli, tempFolders, testEnv } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-render-e2e-');
afterAll(cleanup);

/** A SKILL.md skill folder spec; `extra` frontmatter lines go after the description. */
const skill = (name: string, description: string, extra = '', body = `# ${name}\n\nInstructions of ${name}.\n`) => ({
  [`${name}/SKILL.md`]: skillMd(`name: ${name}\ndescription: ${description}\n${extra}`, body),
});

/** A tree of varied skills: triggers, a hidden one, scripts, a manifest with MCP servers. */
function varied(): string {
  const dir = fresh('varied');
  writeTree(dir, {
    ...skill(
      'pdf-tools',
      'Fill, merge and split PDF files. Use when the user works with PDF documents.',
      'triggers:\n  keywords: [pdf]\n  verbs: [merge]',
      '# PDF tools\n\nUse scripts/merge.py.\n',
    ),
    'pdf-tools/scripts/merge.py': '"""Merge several PDF files into one."""\nimport sys\n',
    'pdf-tools/references/forms.md': '# Forms\n',
    ...skill(
      'csv-report',
      'Summarise CSV files into a short report. Use when the user has a spreadsheet or CSV data.',
      'triggers:\n  keywords: [csv, spreadsheet]',
    ),
    ...skill(
      'git-helper',
      'Explain git history and write commit messages. Use when the user asks about commits.',
      'triggers:\n  keywords: [git, commit]',
    ),
    ...skill(
      'secret-admin',
      'Rotate production secrets. Use only when asked by name.',
      'disable-model-invocation: true',
    ),
    'notify/manifest.json': JSON.stringify({
      id: 'notify',
      name: 'Notify People',
      version: '2.1.0',
      description: 'Send notifications by mail and chat. Use when the user wants to notify a team.',
      owner: 'built-in',
      context: ['context/instructions.md'],
      scripts: ['scripts/send.sh'],
      mcpServers: [{ name: 'chat-mcp', type: 'local', command: 'node', args: ['chat.js'] }],
    }),
    'notify/context/instructions.md': '# Notify\n\nSend the message.\n',
    'notify/scripts/send.sh': { content: '#!/bin/sh\n# Send one notification.\necho sent\n', mode: 0o755 },
  });
  return dir;
}

const json = (stdout: string) =>
  JSON.parse(stdout) as {
    tier: string;
    query: string | null;
    maxSkills: number;
    selected: { name: string; kind: string; score?: number; matched: string[] }[];
    ranked?: { name: string; kind: string; score: number; matched: string[]; below?: string }[];
    catalog: { name: string; description: string; location: string; scope: string; version?: string }[];
    prompt: string;
    tokens: number;
    budget?: number;
    dropped: { what: string; skill?: string; to?: string }[];
    warnings: string[];
    searched: { folders: string[]; registry: string | null; leftOut: number };
  };

describe('skills render-prompt (built CLI)', () => {
  it('the quick start: "scrape prices" over the example skills selects web-scraping', async () => {
    const r = await runCli(['render-prompt', '--query', 'scrape prices', 'examples/skills']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.startsWith('# Available Skills\n')).toBe(true);
    expect(r.stdout).toContain(`## web-scraping (v1.2.0)\n\n<skill_content name="web-scraping">\n# Web Scraping`);
    expect(r.stdout).toContain(`Skill directory: ${join(EXAMPLES, 'web-scraping')}`);
    expect(r.stdout).toContain('<file>scripts/scraper.py</file>');
    expect(r.stdout).toContain('# Available Tools\n\n- web-scraping/scripts/scraper.py: ');
    expect(r.stdout.match(/<skill_content /g)).toHaveLength(1);
    expect(r.stderr).toMatch(/^~\d+ tokens \(o200k_base\), tier full, 1 of 7 skills selected$/);
    // With nothing that selects, the count is of the skills the catalog holds.
    const all = await runCli(['render-prompt', 'examples/skills']);
    expect(all.stderr).toMatch(/^~\d+ tokens \(o200k_base\), tier catalog, 7 skills$/);
  });

  it('prints nothing on stdout when there are no skills, and says on stderr where it looked (exit 0)', async () => {
    const empty = fresh('empty');
    const given = await runCli(['render-prompt', '--query', 'anything', empty]);
    expect(given).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: `no skills to list: looked in ${empty} (no registry read)`,
    });
    // No folders given: the default folders and the registry, all empty or missing.
    const defaults = await runCli(['render-prompt', '--format', 'xml'], { cwd: empty });
    expect(defaults).toMatchObject({ exitCode: 0, stdout: '' });
    expect(defaults.stderr).toBe(
      'no skills to list: looked in .agents/skills, .claude/skills, .agent/skills, skills, ~/.agents/skills, ~/.claude/skills, ~/.agent/skills and the registry ~/.skills',
    );
    // Skills that are there but hidden are counted; --json says it in `searched`, and prints nothing else.
    mkdirSync(join(empty, 'quiet'));
    writeFileSync(
      join(empty, 'quiet/SKILL.md'),
      '---\nname: quiet\ndescription: Only by name. Use when asked.\ndisable-model-invocation: true\n---\n# q\n',
    );
    const hidden = await runCli(['render-prompt', '--no-registry', empty]);
    expect(hidden.stderr).toBe(
      `no skills to list: looked in ${empty} (no registry read); 1 found is hidden or disabled`,
    );
    const doc = await runCli(['render-prompt', '--no-registry', '--json', empty]);
    expect(doc.stderr).toBe('');
    expect(json(doc.stdout).searched).toEqual({ folders: [empty], registry: null, leftOut: 1 });
  });

  it('--format xml is byte-identical to skills-ref to-prompt for the same folders in the same order', async () => {
    // Expected bytes written from skills-ref's prompt.py and cli.py (skills_ref 0.1.1, as published on PyPI;
    // agentskills/agentskills skills-ref/src/skills_ref): lines joined with "\n", name and description through
    // html.escape(quote=True), the location as str(Path(dir).resolve() / "SKILL.md"), click.echo's final newline.
    const dir = fresh('xml');
    writeTree(dir, {
      'b-skill/SKILL.md': skillMd(`name: b-skill\ndescription: Use <tags> & "quotes" and 'apostrophes'.`),
      'a-skill/skill.md': skillMd('name: a-skill\ndescription: |\n  First line.\n  Second line.\n'),
    });
    const real = fresh('real-c');
    writeTree(real, skill('c-skill', 'Reached through a symlink.'));
    symlinkSync(join(real, 'c-skill'), join(dir, 'c-link'));
    // Raw bytes: runCli would strip the final newline.
    // A SKILL.md path stands for its folder, as in skills-ref's CLI.
    const r = await execa(
      process.execPath,
      [
        BIN,
        'render-prompt',
        '--format',
        'xml',
        join(dir, 'b-skill/SKILL.md'),
        join(dir, 'a-skill'),
        join(dir, 'c-link'),
      ],
      {
        env: testEnv(fresh('home')),
        extendEnv: false,
        stripFinalNewline: false,
        reject: false,
      },
    );
    expect(r.exitCode).toBe(0);
    const d = realpathSync(dir);
    expect(r.stdout).toBe(
      [
        '<available_skills>',
        '<skill>',
        '<name>',
        'b-skill',
        '</name>',
        '<description>',
        'Use &lt;tags&gt; &amp; &quot;quotes&quot; and &#x27;apostrophes&#x27;.',
        '</description>',
        '<location>',
        `${d}/b-skill/SKILL.md`,
        '</location>',
        '</skill>',
        '<skill>',
        '<name>',
        'a-skill',
        '</name>',
        '<description>',
        'First line.\nSecond line.',
        '</description>',
        '<location>',
        `${d}/a-skill/skill.md`,
        '</location>',
        '</skill>',
        '<skill>',
        '<name>',
        'c-skill',
        '</name>',
        '<description>',
        'Reached through a symlink.',
        '</description>',
        '<location>',
        `${realpathSync(real)}/c-skill/SKILL.md`,
        '</location>',
        '</skill>',
        '</available_skills>',
      ].join('\n') + '\n',
    );
  });

  it('--format json: tier, query, selected in rank order, catalog, prompt and its tokens', async () => {
    const dir = varied();
    const r = await runCli(['render-prompt', '--query', 'merge these pdf files', dir, '--format', 'json']);
    expect(r.exitCode).toBe(0);
    const doc = json(r.stdout);
    expect(doc.tier).toBe('full');
    expect(doc.query).toBe('merge these pdf files');
    expect(doc.maxSkills).toBe(3);
    expect(doc.selected[0]).toMatchObject({ name: 'pdf-tools', kind: expect.any(String), score: expect.any(Number) });
    expect(doc.selected[0]!.matched.length).toBeGreaterThan(0);
    expect(doc.catalog.map((c) => c.name).sort()).toEqual(['csv-report', 'git-helper', 'notify', 'pdf-tools']);
    expect(doc.catalog.find((c) => c.name === 'notify')).toEqual({
      name: 'notify',
      description: 'Send notifications by mail and chat. Use when the user wants to notify a team.',
      location: join(realpathSync(dir), 'notify/manifest.json'),
      scope: 'project',
      version: '2.1.0',
    });
    expect(doc.prompt).toContain('<skill_content name="pdf-tools">');
    expect(doc.prompt).toContain('- pdf-tools/scripts/merge.py: Merge several PDF files into one.');
    expect(doc.tokens).toBeGreaterThan(50);
    expect(doc.dropped).toEqual([]);
    expect(doc.warnings).toEqual([]);
    expect(doc.ranked).toBeUndefined();
  });

  it('a manifest skill at the full tier: ## Name (vX.Y.Z), context as instructions, its tools and MCP servers', async () => {
    const dir = varied();
    const r = await runCli(['render-prompt', '--select', 'notify', dir]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(
      '## Notify People (v2.1.0)\n\n<skill_content name="notify">\n# Notify\n\nSend the message.\n',
    );
    expect(r.stdout).toContain('- notify/scripts/send.sh: Send one notification.');
    expect(r.stdout).toContain('# MCP Tools\n\n- chat-mcp (notify): local, node chat.js');
  });

  it('--explain prints every candidate with its score and what matched (stderr), or in the JSON', async () => {
    const dir = varied();
    const r = await runCli(['render-prompt', '--query', 'summarise this csv spreadsheet', '--explain', dir]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      /explain: \d+ of 4 skills match "summarise this csv spreadsheet" \(\* selected\)\n\* {2}1\. csv-report {2}\w+ {2}\d+\.\d\d {2}.*csv/,
    );
    const j = await runCli(['render-prompt', '--query', 'summarise this csv spreadsheet', '--explain', dir, '--json']);
    const doc = json(j.stdout);
    expect(doc.ranked![0]).toMatchObject({ name: 'csv-report', score: expect.any(Number) });
    expect(j.stderr).not.toContain('explain:');
  });

  it('selects a skill found by relevance after a better one only when it scores 0.8 of it, and --explain says why not', async () => {
    const dir = fresh();
    writeTree(dir, {
      ...skill('charts', 'Plot bar charts, line charts and scatter plots from tables.'),
      ...skill('sheets', 'Sort tables and plot columns.'),
      // A word half the skills share says nothing: eight skills about other things.
      ...Object.assign(
        {},
        ...['mail', 'git', 'pdf', 'docker', 'slides', 'calendar', 'sql', 'images'].map((n) =>
          skill(n, `Work with ${n}.`),
        ),
      ),
    });
    const r = await runCli(['render-prompt', '--query', 'plot a scatter chart of the tables', '--explain', dir]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      /\n {3}2\. sheets {2}relevance {2}(0\.\d\d) {2}relevance: plot \(description\), tables \(description\) {2}\(not selected: it scores \1, under 0\.8 of the 0\.\d\d of charts, the best skill found by relevance: a skill much less relevant than one selected is left out\)\n/,
    );
    expect(r.stderr).toContain('1 of 10 skills selected');
    const j = json(
      (await runCli(['render-prompt', '--query', 'plot a scatter chart of the tables', dir, '--json'])).stdout,
    );
    expect(j.selected.map((s) => s.name)).toEqual(['charts']);
  });

  it('reads the body of SKILL.md to rank the skills a query finds', async () => {
    const dir = fresh();
    writeTree(dir, {
      ...skill('a-review', 'Review pull requests.', '', '# Review\n\nRead the diff.\n'),
      ...skill('b-review', 'Review pull requests.', '', '# Injection\n\nLook for SQL injection, command injection.\n'),
    });
    const j = json((await runCli(['render-prompt', '--query', 'review this for injection', dir, '--json'])).stdout);
    expect(j.selected[0]!.name).toBe('b-review');
    expect(j.selected[0]!.matched).toEqual(['relevance: review (name, description), injection (headings, body)']);
  });

  it('selects nothing when no skill fits, and --explain says why a weak match was not selected', async () => {
    const dir = fresh();
    const topics = ['mail', 'calendar', 'weather', 'stocks', 'resize', 'docker', 'cron', 'sql', 'charts', 'logs'];
    writeTree(dir, {
      ...Object.assign(
        {},
        ...topics.flatMap((t) => [skill(`${t}-a`, `Work with ${t}.`), skill(`${t}-b`, `Handle ${t}.`)]),
      ),
      ...skill('theme', 'Apply a colour theme to slides.'),
    });
    const r = await runCli(['render-prompt', '--query', 'a presentation about autumn leaves', '--explain', dir]);
    expect(r.exitCode).toBe(0);
    // Nothing selected and no skill declares triggers: the catalog tier, without instructions.
    expect(r.stdout).not.toContain('Instructions of theme');
    expect(r.stderr).toMatch(
      /explain: 1 of 21 skills match .*\n {3}1\. theme {2}relevance {2}-?\d\.\d\d {2}relevance: presentation ~ a related word \(description\) {2}\(not selected: its name, triggers, descriptions and headings match 0\.\d\d of one rare word, under the 0\.\d+ needed/,
    );
    const j = json(
      (await runCli(['render-prompt', '--query', 'a presentation about autumn leaves', '--explain', dir, '--json']))
        .stdout,
    );
    expect(j.selected).toEqual([]);
    expect(j.ranked).toEqual([expect.objectContaining({ name: 'theme', below: expect.stringMatching(/^its name/) })]);
    // The same skill with a word of the query itself is selected.
    const k = json((await runCli(['render-prompt', '--query', 'colour slides for the review', dir, '--json'])).stdout);
    expect(k.selected.map((s) => s.name)).toEqual(['theme']);
  });

  it('breadcrumb when skills have triggers and none match; --tier forces a tier', async () => {
    const dir = varied();
    const r = await runCli(['render-prompt', '--query', 'what is the weather in Oslo', dir]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('[4 skills available]');
    const forced = await runCli(['render-prompt', '--query', 'what is the weather in Oslo', '--tier', 'catalog', dir]);
    expect(forced.stdout.startsWith('# Available Skills\n')).toBe(true);
    expect(forced.stdout).not.toContain('<skill_content');
    const none = await runCli(['render-prompt', '--query', 'merge pdf', '--tier', 'none', dir]);
    expect(none).toMatchObject({ exitCode: 0, stdout: '' });
    const bad = await runCli(['render-prompt', '--tier', 'everything', dir]);
    expect(bad.exitCode).toBe(2);
  });

  it('the catalog tier when no skill has triggers and none matches', async () => {
    const dir = fresh('no-triggers');
    writeTree(dir, {
      ...skill('alpha', 'Handles alpha requests. Use for alpha.'),
      ...skill('beta', 'Handles beta requests. Use for beta.'),
    });
    const r = await runCli(['render-prompt', '--query', 'zzz qqq', dir]);
    expect(r.stdout).toContain('- alpha: Handles alpha requests. Use for alpha.');
    expect(r.stderr).toMatch(/tier catalog, 0 of 2 skills selected/);
  });

  it('--max-skills, SKILLS_MAX_ACTIVE and maxSkills (max_skills) in the configuration limit the selection, in that order', async () => {
    const dir = fresh('many');
    writeTree(dir, {
      ...skill('invoice-a', 'Render invoice documents. Use for invoice work.', 'triggers:\n  keywords: [invoice]'),
      ...skill('invoice-b', 'Check invoice totals. Use for invoice work.', 'triggers:\n  keywords: [invoice]'),
      ...skill('invoice-c', 'Send invoice reminders. Use for invoice work.', 'triggers:\n  keywords: [invoice]'),
    });
    const count = async (args: string[], env: Record<string, string> = {}, cwd?: string) =>
      json((await runCli(['render-prompt', '--query', 'invoice', dir, '--json', ...args], { env, cwd })).stdout)
        .selected.length;
    expect(await count([])).toBe(3);
    expect(await count(['--max-skills', '1'])).toBe(1);
    expect(await count([], { SKILLS_MAX_ACTIVE: '2' })).toBe(2);
    expect(await count(['-n', '1'], { SKILLS_MAX_ACTIVE: '2' })).toBe(1);
    const cfg = fresh('cfg');
    writeFileSync(join(cfg, 'skills.config.json'), '{ "max_skills": 1 }');
    expect(await count([], {}, cfg)).toBe(1);
    expect(await count([], { SKILLS_MAX_ACTIVE: '2' }, cfg)).toBe(2);
    const bad = await runCli(['render-prompt', '--max-skills', 'two', dir]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--max-skills must be a whole number');
  });

  it('--select activates skills by name, hidden ones included; an unknown name fails with close names', async () => {
    const dir = varied();
    const r = await runCli(['render-prompt', '--select', 'secret-admin,git-helper', dir, '--json']);
    expect(r.exitCode).toBe(0);
    const doc = json(r.stdout);
    expect(doc.selected).toEqual([
      { name: 'secret-admin', kind: 'select', matched: ['--select'] },
      { name: 'git-helper', kind: 'select', matched: ['--select'] },
    ]);
    expect(doc.catalog.map((c) => c.name)).not.toContain('secret-admin');
    expect(doc.prompt).toContain('<skill_content name="secret-admin">');
    const bad = await runCli(['render-prompt', '--select', 'git-helpr', dir]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('error: --select git-helpr: no skill of that name; did you mean "git-helper"?');
  });

  it('--select plus --query: the named skills first, the query fills the remaining places', async () => {
    const dir = varied();
    const doc = json(
      (await runCli(['render-prompt', '--select', 'git-helper', '--query', 'merge pdf', '-n', '2', dir, '--json']))
        .stdout,
    );
    expect(doc.selected.map((s) => s.name)).toEqual(['git-helper', 'pdf-tools']);
  });

  it('shows the first 10 warnings about single skills and how many more; --verbose and --json hold them all', async () => {
    const dir = fresh('many-warnings');
    // 25 skills with no description: each is skipped with a warning.
    for (let i = 0; i < 25; i++) writeTree(dir, { [`s${i}/SKILL.md`]: skillMd(`name: s${i}`) });
    writeTree(dir, skill('kept', 'A skill with a description. Use when testing warnings.'));
    const r = await runCli(['render-prompt', dir, '--tier', 'catalog', '--budget', '20']);
    expect(r.exitCode).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('warning: '));
    expect(lines.slice(0, 10).every((l) => /skipped: SKILL\.md has no description/.test(l))).toBe(true);
    expect(lines[10]).toBe('warning: … and 15 more warnings about single skills; --verbose shows them all');
    // The warning about the run itself comes after, whole.
    expect(lines[11]).toMatch(/^warning: --budget 20: dropped /);
    const all = await runCli(['render-prompt', dir, '--tier', 'catalog', '--budget', '20', '--verbose']);
    expect(all.stderr.split('\n').filter((l) => /skipped: SKILL\.md has no description/.test(l))).toHaveLength(25);
    const doc = json((await runCli(['render-prompt', dir, '--tier', 'catalog', '--json'])).stdout);
    expect(doc.warnings.filter((w) => /has no description/.test(w))).toHaveLength(25);
    expect(Object.keys(doc)).not.toContain('skillWarnings');
  });

  it('the default folders: project over user with a warning, SKILLS_DIR replacing ./skills', async () => {
    const cwd = fresh('cwd');
    const home = fresh('home');
    writeTree(join(cwd, 'skills'), skill('shared', 'Project copy. Use in the project.'));
    writeTree(join(cwd, 'custom-dir'), skill('from-env', 'From SKILLS_DIR. Use for env.'));
    writeTree(join(home, '.agents/skills'), {
      ...skill('shared', 'User copy. Use anywhere.'),
      ...skill('personal', 'A personal skill. Use for me.'),
    });
    const r = await runCli(['render-prompt', '--json'], { cwd, env: { HOME: home } });
    const doc = json(r.stdout);
    expect(doc.catalog.map((c) => `${c.name}:${c.scope}`)).toEqual(['shared:project', 'personal:user']);
    expect(doc.catalog[0]!.description).toBe('Project copy. Use in the project.');
    expect(r.stderr).toContain(
      `warning: shared in ${join(home, '.agents/skills/shared')} (user) is shadowed by ${join(cwd, 'skills/shared')} (project)`,
    );
    const env = await runCli(['render-prompt', '--json'], { cwd, env: { HOME: home, SKILLS_DIR: 'custom-dir' } });
    // SKILLS_DIR replaces ./skills: the user's copy of shared is the one left.
    const withEnv = json(env.stdout).catalog;
    expect(withEnv[0]!.name).toBe('from-env');
    expect(withEnv.map((c) => `${c.name}:${c.scope}`).sort()).toEqual([
      'from-env:project',
      'personal:user',
      'shared:user',
    ]);
  });

  it('skillDirs (or skill_dirs) and disabledSkills (or disabled_skills) from skills.config.json', async () => {
    const cwd = fresh('configured');
    writeTree(join(cwd, 'team'), {
      ...skill('alpha', 'Alpha. Use for alpha.'),
      ...skill('beta', 'Beta. Use for beta.'),
    });
    writeTree(join(cwd, 'skills'), skill('ignored', 'Not read. Use never.'));
    writeFileSync(join(cwd, 'skills.config.json'), '{ "skill_dirs": ["team"], "disabled_skills": ["beta"] }');
    const doc = json((await runCli(['render-prompt', '--json'], { cwd })).stdout);
    expect(doc.catalog.map((c) => c.name)).toEqual(['alpha']);
    const r = await runCli(['render-prompt', '--select', 'beta'], { cwd });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--select beta: the skill is disabled by disabledSkills');
  });

  it('lenient loading through the CLI: skipped and recovered skills are named on stderr', async () => {
    const dir = fresh('lenient');
    writeTree(dir, {
      ...skill('fine', 'Fine. Use always.'),
      'colon/SKILL.md': skillMd('name: colon\ndescription: Use when: the user types colons'),
      'nodesc/SKILL.md': skillMd('name: nodesc'),
      'mismatch/SKILL.md': skillMd('name: other\ndescription: Mismatched. Use rarely.'),
    });
    const r = await runCli(['render-prompt', dir, '--json']);
    expect(r.exitCode).toBe(0);
    const doc = json(r.stdout);
    expect(doc.catalog.map((c) => c.name).sort()).toEqual(['colon', 'fine', 'other']);
    expect(doc.catalog.find((c) => c.name === 'colon')!.description).toBe('Use when: the user types colons');
    expect(r.stderr).toContain(`warning: ${join(dir, 'nodesc')}: skipped: SKILL.md has no description`);
    expect(r.stderr).toContain(`warning: ${join(dir, 'colon')}: SKILL.md: a value holds an unquoted ": "`);
    expect(r.stderr).toContain(
      `warning: ${join(dir, 'mismatch')}: the name "other" does not match the folder "mismatch"; loaded anyway`,
    );
  });

  it('a query over cached readings selects as a fresh read does, and sees a body changed since', async () => {
    const dir = fresh('cached-query');
    writeTree(dir, {
      ...skill('fine', 'Use when the user has widgets', '', '# Fine\n\nPolish it.\n'),
      // Its YAML is repaired as it is read: its body counts for the query too.
      'colon/SKILL.md': skillMd(
        'name: colon\ndescription: Use when: the user has widgets',
        '# Colon\n\nCalibrate the zorbulator.\n',
      ),
      'tool/manifest.json': JSON.stringify({ id: 'tool', name: 'Tool', description: 'Gadgets. Use when.' }),
    });
    const cache = fresh('cached-query-cache');
    // Files changed within 2 seconds of a run are not kept: the cache is filled by a run after that.
    await new Promise((r) => setTimeout(r, 2100));
    const query = (words: string, env: Record<string, string> = {}) =>
      runCli(['render-prompt', dir, '--no-registry', '--query', words, '--json', '--explain'], {
        env: { XDG_CACHE_HOME: cache, ...env },
      });
    // Which skills' bodies hold the word, as the ranking read them.
    const inBody = (r: { stdout: string }, word: string) =>
      json(r.stdout)
        .ranked!.filter((s) => s.matched.some((m) => m.includes(`${word} (body)`)))
        .map((s) => s.name);
    const fill = await query('calibrate the zorbulator widgets');
    expect(fill.exitCode).toBe(0);
    expect(readdirSync(join(cache, 'skills')).some((f) => f.startsWith('catalog-'))).toBe(true);
    const warm = await query('calibrate the zorbulator widgets');
    const cold = await query('calibrate the zorbulator widgets', { SKILLS_CATALOG_CACHE: '0' });
    expect(inBody(warm, 'zorbulator')).toEqual(['colon']);
    expect(warm.stdout).toBe(cold.stdout);
    expect(warm.stderr).toBe(cold.stderr);
    // The body is the file's now, not what an earlier run read: the zorbulator moved to another skill.
    writeFileSync(
      join(dir, 'colon/SKILL.md'),
      skillMd('name: colon\ndescription: Use when: the user has widgets', '# Colon\n\nPolish it.\n'),
    );
    writeFileSync(
      join(dir, 'fine/SKILL.md'),
      skillMd('name: fine\ndescription: Use when the user has widgets', '# Fine\n\nCalibrate the zorbulator.\n'),
    );
    expect(inBody(await query('calibrate the zorbulator widgets'), 'zorbulator')).toEqual(['fine']);
  });

  it('the registry: catalog from index.json, full instructions from the stored copy; folders win over it', async () => {
    const reg = join(fresh('reg'), 'registry');
    const sync = await runCli(['sync', EXAMPLES, '--registry', reg]);
    expect(sync.exitCode).toBe(0);
    const cwd = fresh('regcwd');
    const r = await runCli(['render-prompt', '--query', 'scrape prices', '--registry', reg, '--json'], { cwd });
    expect(r.exitCode).toBe(0);
    const doc = json(r.stdout);
    expect(doc.catalog).toHaveLength(7);
    expect(doc.catalog.every((c) => c.scope === 'registry' && c.location.startsWith(reg))).toBe(true);
    expect(doc.catalog.find((c) => c.name === 'web-scraping')!.version).toBe('1.2.0');
    expect(doc.selected[0]!.name).toBe('web-scraping');
    expect(doc.prompt).toContain(`Skill directory: ${join(reg, 'custom/web-scraping@1.2.0')}`);
    expect(doc.prompt).toContain('- web-scraping/scripts/scraper.py: ');
    // SKILLS_REGISTRY is read when no folders are given; a project folder's skill shadows the registry's copy.
    writeTree(join(cwd, 'skills'), skill('web-scraping', 'A local scraper. Use when scraping.'));
    const local = json((await runCli(['render-prompt', '--json'], { cwd, env: { SKILLS_REGISTRY: reg } })).stdout);
    expect(local.catalog.find((c) => c.name === 'web-scraping')!.scope).toBe('project');
    expect(local.catalog).toHaveLength(7);
    // Folders given: no registry unless --registry names one; --no-registry reads none.
    const given = json(
      (await runCli(['render-prompt', 'skills', '--json'], { cwd, env: { SKILLS_REGISTRY: reg } })).stdout,
    );
    expect(given.catalog.map((c) => c.name)).toEqual(['web-scraping']);
    const noReg = json(
      (await runCli(['render-prompt', '--no-registry', '--json'], { cwd, env: { SKILLS_REGISTRY: reg } })).stdout,
    );
    expect(noReg.catalog.map((c) => c.name)).toEqual(['web-scraping']);
  });

  describe('--selector', () => {
    const bin = fresh('selectors');
    const script = (name: string, code: string) => {
      writeFileSync(join(bin, name), code);
      return `node ${JSON.stringify(join(bin, name))}`;
    };
    // Echoes what it was given into a file, and picks git-helper.
    const good = script(
      'pick.mjs',
      `import { writeFileSync } from 'node:fs';
let s = '';
process.stdin.on('data', (d) => (s += d));
process.stdin.on('end', () => {
  writeFileSync(${JSON.stringify(join(bin, 'request.json'))}, s);
  process.stdout.write(JSON.stringify(['git-helper']));
});
`,
    );
    const lines = script(
      'lines.mjs',
      "process.stdin.resume(); process.stdin.on('end', () => console.log('csv-report\\npdf-tools'));",
    );
    const failing = script('fail.mjs', "console.error('model unavailable'); process.exit(3);");
    const unknown = script(
      'unknown.mjs',
      "process.stdin.resume(); process.stdin.on('end', () => console.log('no-such-skill'));",
    );
    const slow = script('slow.mjs', 'setTimeout(() => {}, 60_000);');

    it('takes the names the command prints (JSON array), given the catalog and query as JSON on stdin', async () => {
      const dir = varied();
      const r = await runCli(['render-prompt', '--query', 'merge pdf', '--selector', good, dir, '--json']);
      expect(r.exitCode).toBe(0);
      const doc = json(r.stdout);
      expect(doc.selected).toEqual([{ name: 'git-helper', kind: 'selector', matched: [`--selector ${good}`] }]);
      const request = JSON.parse(readFileSync(join(bin, 'request.json'), 'utf8'));
      expect(request.query).toBe('merge pdf');
      expect(request.maxSkills).toBe(3);
      expect(request.catalog.map((c: { name: string }) => c.name).sort()).toEqual([
        'csv-report',
        'git-helper',
        'notify',
        'pdf-tools',
      ]);
      expect(Object.keys(request.catalog[0]).sort()).toEqual(['description', 'location', 'name']);
    });

    it('reads names one per line too', async () => {
      const doc = json(
        (await runCli(['render-prompt', '--query', 'anything', '--selector', lines, varied(), '--json'])).stdout,
      );
      expect(doc.selected.map((s) => s.name)).toEqual(['csv-report', 'pdf-tools']);
    });

    it('falls back to the built-in selection, with a warning, when the command fails, names unknown skills or times out', async () => {
      const dir = varied();
      const fail = await runCli(['render-prompt', '--query', 'merge pdf', '--selector', failing, dir, '--json']);
      expect(fail.exitCode).toBe(0);
      const doc = json(fail.stdout);
      expect(doc.selected[0]!.name).toBe('pdf-tools');
      expect(doc.warnings[0]).toMatch(
        /the selector ".*fail\.mjs"" exited with code 3: model unavailable; the built-in selection is used/,
      );
      expect(fail.stderr).toContain('warning: the selector');
      const unk = json(
        (await runCli(['render-prompt', '--query', 'merge pdf', '--selector', unknown, dir, '--json'])).stdout,
      );
      expect(unk.selected[0]!.name).toBe('pdf-tools');
      expect(unk.warnings).toContain(
        'the selector named "no-such-skill", not in the catalog; the built-in selection is used',
      );
      const timeout = json(
        (
          await runCli([
            'render-prompt',
            '--query',
            'merge pdf',
            '--selector',
            slow,
            '--selector-timeout',
            '500',
            dir,
            '--json',
          ])
        ).stdout,
      );
      expect(timeout.selected[0]!.name).toBe('pdf-tools');
      expect(timeout.warnings[0]).toMatch(/did not answer within 500 ms; the built-in selection is used/);
    });
  });

  it('--soul puts the soul file first, as # Soul', async () => {
    const dir = varied();
    const soul = join(fresh('soul'), 'soul.md');
    writeFileSync(soul, 'You are Buzz, a helpful bee.\n');
    const r = await runCli(['render-prompt', '--soul', soul, '--query', 'merge pdf', dir]);
    expect(r.stdout.startsWith('# Soul\n\nYou are Buzz, a helpful bee.\n\n---\n\n# Available Skills\n')).toBe(true);
    const missing = await runCli(['render-prompt', '--soul', join(dir, 'nope.md'), dir]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('--soul: cannot read');
  });

  it('--budget drops instructions lowest ranked first, then descriptions, and says so', async () => {
    const dir = varied();
    const full = json((await runCli(['render-prompt', '--select', 'pdf-tools,git-helper', dir, '--json'])).stdout);
    const r = await runCli([
      'render-prompt',
      '--select',
      'pdf-tools,git-helper',
      dir,
      '--budget',
      String(full.tokens - 1),
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('<skill_content name="pdf-tools">');
    expect(r.stdout).not.toContain('<skill_content name="git-helper">');
    expect(r.stderr).toContain(`warning: --budget ${full.tokens - 1}: dropped the instructions of git-helper`);
    const tight = json(
      (await runCli(['render-prompt', '--select', 'pdf-tools,git-helper', dir, '--budget', '20', '--json'])).stdout,
    );
    expect(tight.budget).toBe(20);
    expect(tight.dropped).toEqual([
      { what: 'instructions', skill: 'git-helper' },
      { what: 'instructions', skill: 'pdf-tools' },
      { what: 'descriptions', to: 'brief' },
      { what: 'descriptions', to: 'none' },
    ]);
    expect(tight.warnings.at(-1)).toMatch(/still over --budget 20/);
    expect(tight.prompt).not.toContain('Fill, merge and split');
  });

  describe('the token cache', () => {
    /** 300 skills: a prompt of about 40,000 characters, counted in several pieces. */
    function many(): string {
      const dir = fresh('many');
      const tree = {};
      for (let i = 0; i < 300; i++)
        Object.assign(
          tree,
          skill(`tool-${i}`, `Handle tool number ${i} and its reports. Use when the user asks about tool ${i}.`),
        );
      writeTree(dir, tree);
      return dir;
    }
    const cacheFile = (xdg: string) => join(xdg, 'skills', 'tokens-o200k_base.json');
    const counts = (xdg: string) =>
      (JSON.parse(readFileSync(cacheFile(xdg), 'utf8')) as { counts: Record<string, number> }).counts;

    it('keeps the counts of a prompt in $XDG_CACHE_HOME/skills (private), and a second run takes them from there', async () => {
      const dir = many();
      const xdg = fresh('xdg');
      const args = ['render-prompt', '--query', 'tool 7 reports', dir, '--json'];
      const uncached = json((await runCli(args, { env: { SKILLS_TOKEN_CACHE: '0', XDG_CACHE_HOME: xdg } })).stdout);
      expect(existsSync(cacheFile(xdg))).toBe(false);
      const first = json((await runCli(args, { env: { XDG_CACHE_HOME: xdg } })).stdout);
      expect(first.tokens).toBe(uncached.tokens);
      expect(first.prompt).toBe(uncached.prompt);
      const kept = counts(xdg);
      expect(Object.keys(kept).length).toBeGreaterThan(3);
      expect(Object.values(kept).reduce((a, b) => a + b, 0)).toBe(uncached.tokens);
      if (process.platform !== 'win32') {
        expect(statSync(join(xdg, 'skills')).mode & 0o777).toBe(0o700);
        expect(statSync(cacheFile(xdg)).mode & 0o777).toBe(0o600);
      }
      // Counts that no tokenizer would give show that the second run read them rather than counting.
      const file = JSON.parse(readFileSync(cacheFile(xdg), 'utf8')) as {
        counter: string;
        counts: Record<string, number>;
      };
      writeFileSync(
        cacheFile(xdg),
        JSON.stringify({ ...file, counts: Object.fromEntries(Object.keys(kept).map((k) => [k, 1])) }),
        { mode: 0o600 },
      );
      const second = json((await runCli(args, { env: { XDG_CACHE_HOME: xdg } })).stdout);
      expect(second.tokens).toBe(Object.keys(kept).length);
      // SKILLS_TOKEN_CACHE=0 neither reads nor writes it.
      expect(json((await runCli(args, { env: { SKILLS_TOKEN_CACHE: '0', XDG_CACHE_HOME: xdg } })).stdout).tokens).toBe(
        uncached.tokens,
      );
    });

    it('survives a corrupt cache file, and rewrites it', async () => {
      const dir = many();
      const xdg = fresh('xdg');
      mkdirSync(join(xdg, 'skills'), { recursive: true, mode: 0o700 });
      writeFileSync(cacheFile(xdg), '{"counter": "o200k_base', { mode: 0o600 });
      const args = ['render-prompt', dir, '--json'];
      const uncached = json((await runCli(args, { env: { SKILLS_TOKEN_CACHE: '0' } })).stdout);
      const r = await runCli(args, { env: { XDG_CACHE_HOME: xdg } });
      expect(r.exitCode).toBe(0);
      expect(json(r.stdout).tokens).toBe(uncached.tokens);
      expect(Object.values(counts(xdg)).reduce((a, b) => a + b, 0)).toBe(uncached.tokens);
    });

    it('--budget fits the same prompt, to the token, with the counts cached', async () => {
      const dir = many();
      const xdg = fresh('xdg');
      const full = json(
        (
          await runCli(['render-prompt', '--select', 'tool-1,tool-2', dir, '--json'], {
            env: { SKILLS_TOKEN_CACHE: '0' },
          })
        ).stdout,
      );
      for (const budget of [full.tokens - 1, Math.floor(full.tokens / 2), 3000, 20]) {
        const args = ['render-prompt', '--select', 'tool-1,tool-2', dir, '--budget', String(budget), '--json'];
        const uncached = json((await runCli(args, { env: { SKILLS_TOKEN_CACHE: '0' } })).stdout);
        // Once to fill the cache, once from it.
        for (let run = 0; run < 2; run++) {
          const cached = json((await runCli(args, { env: { XDG_CACHE_HOME: xdg } })).stdout);
          expect({ tokens: cached.tokens, dropped: cached.dropped, prompt: cached.prompt }).toEqual({
            tokens: uncached.tokens,
            dropped: uncached.dropped,
            prompt: uncached.prompt,
          });
        }
      }
    });
  });

  it('a folder given that does not exist is an error (exit 2)', async () => {
    const r = await runCli(['render-prompt', join(fresh('x'), 'missing')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no such folder');
    expect(r.stderr).toContain('hint: give skill folders or folders that hold skills');
    // `-q "a request"`: -q is --quiet; the request was read as a folder, and the hint says how to give it.
    const request = await runCli(['render-prompt', '-q', 'scrape the prices'], { cwd: fresh('q') });
    expect(request.exitCode).toBe(2);
    expect(request.stderr).toContain(
      'hint: to select skills for a request, give it with --query: skills render-prompt --query "scrape the prices" (-q is --quiet)',
    );
  });

  it('the same folder given twice is read once, with no shadowing warning', async () => {
    const dir = fresh('twice');
    writeTree(dir, skill('once', 'Once. Use once.'));
    const r = json((await runCli(['render-prompt', dir, dir, '--json'])).stdout);
    expect(r.catalog.map((c) => c.name)).toEqual(['once']);
    expect(r.warnings).toEqual([]);
  });

  it('a name typed in NFD (cafe + U+0301, as macOS spells folder names) names the skill café: --select and run-script', async () => {
    const dir = fresh('nfd');
    writeTree(join(dir, 'skills'), {
      ...skill('caf\u00e9', 'Brew coffee. Use when the user wants coffee.'),
      'caf\u00e9/scripts/brew.sh': '#!/bin/sh\necho brewed\n',
    });
    const nfd = 'cafe\u0301';
    const r = await runCli(['render-prompt', 'skills', '--select', nfd, '--json'], { cwd: dir });
    expect(r.exitCode, r.stdout).toBe(0);
    expect(json(r.stdout).selected.map((x) => x.name)).toEqual(['caf\u00e9']);
    const run = await runCli(['run-script', nfd, 'brew.sh'], {
      cwd: dir,
      env: { HOME: fresh('home') },
    });
    expect(run.stderr).not.toContain('no skill');
    expect(run.stdout).toContain('brewed');
  });
});
