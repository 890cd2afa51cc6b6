import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog } from '../../../src/prompt/catalog.js';
import { inlineBlockValues, quoteColonValues } from '../../../src/formats/yaml-repair.js';
import { activate } from '../../../src/skill/light.js';
import { registerSkill } from '../../../src/registry/register.js';
import { loadSkill } from '../../../src/skill/load.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-catalog-');
afterAll(cleanup);

const desc = (name: string) => `Does ${name} things. Use when testing the catalog.`;
const skill = (name: string, extra = '') => ({
  [`${name}/SKILL.md`]: skillMd(`name: ${name}\ndescription: ${desc(name)}\n${extra}`),
});
const project = (dir: string) => ({ dir, scope: 'project' as const });
const user = (dir: string) => ({ dir, scope: 'user' as const });

describe('buildCatalog: lenient loading', () => {
  const dir = fresh('lenient');
  writeTree(dir, {
    ...skill('good'),
    'wrong-folder/SKILL.md': skillMd(`name: other-name\ndescription: ${desc('x')}`),
    [`${'l'.repeat(70)}/SKILL.md`]: skillMd(`name: ${'l'.repeat(70)}\ndescription: ${desc('long')}`),
    'no-description/SKILL.md': skillMd('name: no-description'),
    'empty-description/SKILL.md': skillMd('name: empty-description\ndescription:'),
    // An unclosed quote: no repair says what was meant. (An unclosed "[" is read as text: yaml-repair.ts.)
    'bad-yaml/SKILL.md': skillMd('name: bad-yaml\ndescription: "unclosed\nlicense: MIT'),
    'colon/SKILL.md': skillMd(
      'name: colon\ndescription: Use when: the user asks about colons\n  and keeps going # a comment\nlicense: MIT',
    ),
    'no-frontmatter/SKILL.md': '# Just a title\n',
    'no-name/SKILL.md': skillMd(`description: ${desc('no-name')}`),
    'manifest-skill/manifest.json': JSON.stringify({
      id: 'manifest-skill',
      name: 'Manifest Skill',
      version: '1.0.0',
      description: desc('m'),
      owner: 'built-in',
    }),
    'broken-json/manifest.json': '{"id": "broken-json",',
    'inline-block/SKILL.md': skillMd(
      'name: inline-block\ndescription: | Use when: a block indicator\n  has text after it\ncompatibility: Needs: Python 3',
    ),
    'fence-spaces/SKILL.md': `---\nname: fence-spaces\ndescription: ${desc('fence')}\n--- \t\n# Body\n`,
    'runaway/SKILL.md': skillMd(`name: runaway\ndescription: "${'x'.repeat(1022)}\\U0001F600\\U0001F600\\U0001F600"`),
  });
  const c = buildCatalog({ folders: [project(dir)] });
  const names = c.entries.map((e) => e.name).sort();
  const warned = (re: RegExp) => c.warnings.some((w) => re.test(w));

  it('loads what an agent can use, with warnings for a wrong folder name and a long name', () => {
    expect(names).toEqual(
      [
        'colon',
        'fence-spaces',
        'good',
        'inline-block',
        'l'.repeat(70),
        'manifest-skill',
        'no-name',
        'other-name',
        'runaway',
      ].sort(),
    );
    expect(warned(/wrong-folder: the name "other-name" does not match the folder "wrong-folder"; loaded anyway/)).toBe(
      true,
    );
    expect(warned(/the name is 70 characters long, over the 64 allowed; loaded anyway/)).toBe(true);
    expect(warned(/no-name: SKILL.md has no name; the folder's name "no-name" is used/)).toBe(true);
  });

  it('skips, with a warning, a skill without a description or whose frontmatter cannot be read', () => {
    expect(warned(/no-description: skipped: SKILL.md has no description/)).toBe(true);
    expect(warned(/empty-description: skipped: SKILL.md has no description/)).toBe(true);
    expect(warned(/bad-yaml: skipped: SKILL.md: frontmatter YAML does not parse/)).toBe(true);
    expect(warned(/no-frontmatter: skipped: SKILL.md: SKILL.md must begin with YAML frontmatter/)).toBe(true);
    expect(warned(/broken-json: skipped: manifest.json is not valid JSON/)).toBe(true);
  });

  it('recovers a description broken only by an unquoted colon, folding its continuation lines', () => {
    const e = c.entries.find((x) => x.name === 'colon')!;
    expect(e.description).toBe('Use when: the user asks about colons and keeps going');
    expect(warned(/colon: SKILL.md: a value holds an unquoted ": "; read as quoted text/)).toBe(true);
  });

  it('recovers a value given after a block indicator, together with an unquoted colon elsewhere', () => {
    expect(c.entries.find((x) => x.name === 'inline-block')!.description).toBe(
      'Use when: a block indicator has text after it',
    );
    expect(
      warned(
        /inline-block: SKILL.md: a value holds an unquoted ": "; read as quoted text \(quote it to silence this\); a value starts with \| or > followed by text/,
      ),
    ).toBe(true);
  });

  it('closes the frontmatter at a --- followed by spaces', () => {
    expect(c.entries.find((x) => x.name === 'fence-spaces')!.description).toBe(desc('fence'));
  });

  it('cuts a description over 1,024 code points, never inside a surrogate pair, with a warning', () => {
    const d = c.entries.find((x) => x.name === 'runaway')!.description;
    expect(d).toBe(`${'x'.repeat(1022)}\u{1F600}…`);
    expect(
      warned(/runaway: the description is 1025 characters long, over the 1024 allowed; cut to 1024 in the catalog/),
    ).toBe(true);
  });

  it('reads manifest skills by id, with their name as title and their version', () => {
    const e = c.entries.find((x) => x.name === 'manifest-skill')!;
    expect(e).toMatchObject({
      title: 'Manifest Skill',
      version: '1.0.0',
      layout: 'manifest',
      location: join(dir, 'manifest-skill/manifest.json'),
      scope: 'project',
    });
  });
});

describe('buildCatalog: a SKILL.md opened straight away, anything else read through its folder', () => {
  it('reads every kind of skill folder as before, and says the same of what it cannot read', () => {
    const dir = fresh('kinds');
    writeTree(dir, {
      ...skill('plain'),
      'lower/skill.md': skillMd(`name: lower\ndescription: ${desc('lower')}`),
      // A folder named SKILL.md is no skill file: the skill.md beside it is.
      'odd/SKILL.md/notes.txt': 'x',
      'odd/skill.md': skillMd(`name: odd\ndescription: ${desc('odd')}`),
      'both/manifest.json': '{"id": "not-read"}',
      ...skill('both'),
      'manifest-only/manifest.json': JSON.stringify({ id: 'manifest-only', description: desc('m') }),
      'dangling/SKILL.md': { symlink: 'gone.md' },
      ...Object.fromEntries(Object.entries(skill('inner')).map(([k, v]) => [`group/${k}`, v])),
    });
    mkdirSync(join(dir, 'fifo'));
    execFileSync('mkfifo', [join(dir, 'fifo/pipe')]);
    symlinkSync('pipe', join(dir, 'fifo/SKILL.md'));
    mkdirSync(join(dir, 'huge'));
    writeFileSync(
      join(dir, 'huge/SKILL.md'),
      skillMd(`name: huge\ndescription: ${desc('huge')}`).padEnd(4 * 1024 * 1024 + 1),
    );
    const c = buildCatalog({ folders: [project(dir)] });
    const real = realpathSync(dir);
    expect(Object.fromEntries(c.entries.map((e) => [e.name, e.location]))).toEqual({
      plain: join(real, 'plain/SKILL.md'),
      lower: join(real, 'lower/skill.md'),
      odd: join(real, 'odd/skill.md'),
      both: join(real, 'both/SKILL.md'),
      'manifest-only': join(real, 'manifest-only/manifest.json'),
      inner: join(real, 'group/inner/SKILL.md'),
    });
    expect([...c.warnings].sort()).toEqual([
      `${join(dir, 'dangling')}: skipped: SKILL.md is a symbolic link to gone.md, which does not exist`,
      `${join(dir, 'fifo')}: skipped: cannot read SKILL.md (${join(dir, 'fifo/SKILL.md')} is a FIFO, not a regular file; it is not read)`,
      `${join(dir, 'huge')}: skipped: SKILL.md is ${4 * 1024 * 1024 + 1} bytes, over the ${4 * 1024 * 1024} read`,
    ]);
  });

  it('follows a link that is a skill folder (install --link), walks no other link, and skips a dangling one', () => {
    const src = fresh('link-src');
    writeTree(src, { ...skill('linked'), ...skill('elsewhere') });
    const dir = fresh('link-agent');
    writeTree(dir, {
      ...skill('own'),
      linked: { symlink: join(src, 'linked') },
      group: { symlink: src },
      gone: { symlink: join(src, 'gone') },
    });
    const c = buildCatalog({ folders: [project(dir)] });
    expect(c.entries.map((e) => [e.name, e.root, e.location]).sort()).toEqual([
      ['linked', join(dir, 'linked'), join(realpathSync(src), 'linked/SKILL.md')],
      ['own', join(dir, 'own'), join(realpathSync(dir), 'own/SKILL.md')],
    ]);
    expect(c.warnings).toEqual([`${join(dir, 'gone')}: skipped: a link to ${join(src, 'gone')}, which does not exist`]);
  });
});

describe('quoteColonValues', () => {
  it('quotes only top-level plain values that hold ": "', () => {
    expect(quoteColonValues('name: a\ndescription: Use when: x\n')).toBe('name: a\ndescription: "Use when: x"\n');
    expect(quoteColonValues('description: "already: quoted"\n')).toBeUndefined();
    expect(quoteColonValues('url: https://example.com\n')).toBeUndefined();
    expect(quoteColonValues('metadata:\n  note: a: b\n')).toBeUndefined();
  });
});

describe('inlineBlockValues', () => {
  it('reads `key: | text` and `key: >- text` as the text, folding more indented lines', () => {
    expect(inlineBlockValues('name: a\ndescription: | Use when x\n  and y\nlicense: MIT\n')).toBe(
      'name: a\ndescription: "Use when x and y"\nlicense: MIT\n',
    );
    expect(inlineBlockValues('description: >- Use when x # note\n')).toBe('description: "Use when x"\n');
    expect(inlineBlockValues('description: |\n  Use when x\n')).toBeUndefined();
    expect(inlineBlockValues('description: |- # a comment\n  Use when x\n')).toBeUndefined();
    expect(inlineBlockValues('metadata:\n  note: | text\n')).toBeUndefined();
  });
});

describe('buildCatalog: hidden, disabled, precedence', () => {
  it('keeps hidden skills out of the catalog but known; drops disabled ones by name', () => {
    const dir = fresh('hidden');
    writeTree(dir, {
      ...skill('visible'),
      ...skill('manual-only', 'disable-model-invocation: true'),
      ...skill('off-by-default', 'default_enabled: false'),
      ...skill('turned-off'),
      'json-off/manifest.json': JSON.stringify({
        id: 'json-off',
        name: 'J',
        version: '1.0.0',
        description: desc('j'),
        owner: 'o',
        default_enabled: false,
      }),
    });
    const c = buildCatalog({ folders: [project(dir)], disabled: ['turned-off'] });
    expect(c.entries.map((e) => e.name)).toEqual(['visible']);
    expect(c.hidden.map((e) => e.name).sort()).toEqual(['json-off', 'manual-only', 'off-by-default']);
    expect(c.disabled).toEqual(['turned-off']);
  });

  it('compares disabledSkills after NFKC (a name pasted from a macOS folder is NFD), and says a misspelt one', () => {
    const dir = fresh('disabled-names');
    writeTree(dir, { ...skill('caf\u00e9'), ...skill('pdf-tools'), ...skill('csv-report') });
    const c = buildCatalog({
      folders: [project(dir)],
      disabled: ['cafe\u0301', 'pdf-tool', 'a-skill-of-another-folder'],
    });
    expect(c.disabled).toEqual(['caf\u00e9']);
    expect(c.entries.map((e) => e.name).sort()).toEqual(['csv-report', 'pdf-tools']);
    // The typo is said (the skill stays on); a name with none near it may be a skill of folders not read: not said.
    expect(c.warnings).toEqual([
      'disabledSkills names "pdf-tool", which no skill goes by; did you mean "pdf-tools"? It is not disabled',
    ]);
  });

  it('project beats user (with a warning), folders beat the registry (silently), the first folder beats later ones', async () => {
    const proj = fresh('proj');
    const home = fresh('user');
    const reg = fresh('reg');
    writeTree(proj, skill('shared', 'metadata:\n  version: "1.0.0"'));
    writeTree(home, { ...skill('shared'), ...skill('mine') });
    const regSrc = fresh('regsrc');
    writeTree(regSrc, {
      ...skill('shared', 'metadata:\n  version: "9.0.0"'),
      ...skill('stored', 'metadata:\n  version: "2.0.0"\nbrief_description: Stored.\ntriggers:\n  keywords: [store]'),
    });
    await registerSkill(reg, loadSkill(join(regSrc, 'shared')));
    await registerSkill(reg, loadSkill(join(regSrc, 'stored')));
    const c = buildCatalog({ folders: [project(proj), user(home)], registry: reg });
    expect(c.entries.map((e) => `${e.name}:${e.scope}`)).toEqual(['shared:project', 'mine:user', 'stored:registry']);
    expect(c.shadowed.map((s) => `${s.name}:${s.scope}`)).toEqual(['shared:user', 'shared:registry']);
    expect(c.warnings).toEqual([
      `shared in ${join(home, 'shared')} (user) is shadowed by ${join(proj, 'shared')} (project)`,
    ]);
    const stored = c.entries[2]!;
    expect(stored).toMatchObject({
      version: '2.0.0',
      briefDescription: 'Stored.',
      triggers: { keywords: ['store'], verbs: [], patterns: [] },
    });
    expect(stored.location).toBe(join(reg, 'built-in/stored@2.0.0/SKILL.md'));
  });

  it('says nothing when the skill shadowed is a twin: the same files installed for two agents', () => {
    const claude = fresh('claude');
    const agents = fresh('agents');
    writeTree(claude, skill('twin'));
    writeTree(agents, { ...skill('twin'), ...skill('differs') });
    writeTree(claude, skill('differs', 'metadata:\n  version: "2.0.0"'));
    const c = buildCatalog({ folders: [project(agents), project(claude)] });
    expect(c.shadowed.map((s) => s.name).sort()).toEqual(['differs', 'twin']);
    expect(c.warnings).toEqual([
      `differs in ${join(claude, 'differs')} (project) is shadowed by ${join(agents, 'differs')} (project)`,
    ]);
  });

  it('counts a folder reached twice once, and reports locations with symlinks resolved', () => {
    const real = fresh('real');
    writeTree(real, skill('linked'));
    const via = join(fresh('via'), 'link');
    symlinkSync(real, via);
    const c = buildCatalog({ folders: [project(via), project(real)] });
    expect(c.entries.map((e) => e.name)).toEqual(['linked']);
    expect(c.entries[0]!.location).toBe(join(real, 'linked/SKILL.md'));
    expect(c.shadowed).toEqual([]);
  });

  it('hides registry skills registered hidden', async () => {
    const reg = fresh('reg-hidden');
    const src = fresh('src-hidden');
    writeTree(src, skill('quiet', 'metadata:\n  version: "1.0.0"\ndisable-model-invocation: true'));
    await registerSkill(reg, loadSkill(join(src, 'quiet')));
    const c = buildCatalog({ folders: [], registry: reg });
    expect(c.entries).toEqual([]);
    expect(c.hidden.map((e) => e.name)).toEqual(['quiet']);
  });
});

describe('activate', () => {
  it('loads instructions, lists bundled files (not the skill file), and describes scripts from their leading comment', () => {
    const dir = fresh('activate');
    writeTree(dir, {
      ...skill('tooled'),
      'tooled/scripts/fetch.py': '"""Fetch a page and print it."""\nprint(1)\n',
      'tooled/scripts/plain.sh': 'echo hi\n',
      'tooled/references/notes.md': '# Notes\n',
    });
    const c = buildCatalog({ folders: [project(dir)] });
    const warnings: string[] = [];
    const a = activate(c.entries[0]!, warnings)!;
    expect(warnings).toEqual([]);
    expect(a.instructions).toContain('Instructions.');
    expect(a.files).toEqual(['references/notes.md', 'scripts/fetch.py', 'scripts/plain.sh']);
    expect(a.tools).toEqual([
      { path: 'scripts/fetch.py', description: 'Fetch a page and print it.' },
      { path: 'scripts/plain.sh' },
    ]);
  });

  it("leaves out a manifest skill's context files (they are the instructions) and keeps its MCP servers", () => {
    const dir = fresh('manifest');
    mkdirSync(join(dir, 'm/context'), { recursive: true });
    writeFileSync(join(dir, 'm/context/instructions.md'), 'Do the manifest thing.\n');
    writeFileSync(
      join(dir, 'm/manifest.json'),
      JSON.stringify({
        id: 'm',
        name: 'M',
        version: '1.0.0',
        description: desc('m'),
        owner: 'o',
        context: ['context/instructions.md'],
        mcpServers: [{ name: 'srv', type: 'remote', url: 'https://x.example' }],
      }),
    );
    const a = activate(buildCatalog({ folders: [project(dir)] }).entries[0]!, [])!;
    expect(a.instructions).toBe('Do the manifest thing.\n');
    expect(a.files).toEqual([]);
    expect(a.mcpServers).toEqual([{ name: 'srv', type: 'remote', url: 'https://x.example' }]);
  });

  it('warns and gives undefined when a registry skill has no stored copy', () => {
    const warnings: string[] = [];
    const gone = {
      name: 'gone',
      title: 'gone',
      description: 'd',
      layout: 'skill-md' as const,
      location: '/nowhere/gone/SKILL.md',
      root: '/nowhere/gone',
      scope: 'registry' as const,
      hidden: false,
    };
    expect(activate(gone, warnings)).toBeUndefined();
    expect(warnings[0]).toMatch(/^gone: its instructions cannot be loaded/);
  });
});
