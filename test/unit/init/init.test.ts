import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import {
  createSkill,
  defaultDescription,
  descriptionProblem,
  renderTemplate,
  templatesDir,
  titleOf,
  yamlScalar,
  type CreateSkillOptions,
} from '../../../src/init/init.js';
import { loadSkill } from '../../../src/skill/load.js';
import { validateSkills } from '../../../src/skill/validate.js';
import { ROOT, tempDir } from '../../helpers/cli.js';
import { writeTree } from '../../helpers/tree.js';

const tmp = tempDir('skills-init-');
afterAll(tmp.cleanup);
let n = 0;
const fresh = () => {
  const dir = join(tmp.dir, String(n++));
  mkdirSync(dir);
  return dir;
};
const base = (parent: string, more: Partial<CreateSkillOptions> = {}): CreateSkillOptions => ({
  name: 'demo',
  layout: 'skill-md',
  parent,
  description: 'Demo things. Use when the user asks for a demo.',
  version: '1.0.0',
  with: [],
  ...more,
});

describe('renderTemplate', () => {
  const values = { name: 'demo', title: 'Demo', description: 'Say "hi": now #1', version: '1.2.3' };

  it('keeps {{#flag}} blocks whose flag is set and drops the others, with their lines', () => {
    const t = 'a\n{{#scripts}}\nrun scripts/x\n{{/scripts}}\n{{#assets}}\nsee assets/y\n{{/assets}}\nz\n';
    expect(renderTemplate(t, 'README.md', values, { scripts: true, assets: false })).toBe('a\nrun scripts/x\nz\n');
  });

  it('escapes values as JSON string content in .json files', () => {
    const out = renderTemplate('{ "d": "{{description}}", "n": "{{name}}" }', 'x.json', values, {});
    expect(JSON.parse(out)).toEqual({ d: 'Say "hi": now #1', n: 'demo' });
  });

  it('writes YAML scalars in the frontmatter of .md files and plain text in the body', () => {
    const out = renderTemplate(
      '---\nname: {{name}}\ndescription: {{description}}\nv: {{version}}\n---\n\n{{description}}\n',
      'SKILL.md',
      values,
      {},
    );
    const [, fm, body] = out.split('---\n');
    expect(yaml.load(fm!)).toEqual({ name: 'demo', description: 'Say "hi": now #1', v: '1.2.3' });
    expect(body).toBe('\nSay "hi": now #1\n');
  });

  it('does not expand placeholders that values bring in, and leaves unknown ones', () => {
    expect(renderTemplate('{{name}} {{other}}', 'a.txt', { name: '{{title}}', title: 'T' }, {})).toBe(
      '{{title}} {{other}}',
    );
  });
});

describe('yamlScalar', () => {
  it.each([
    'my-skill',
    'true',
    'No',
    'null',
    '1.0.0',
    '1e5',
    '0x1f',
    'a: b',
    'a #b',
    '"q"',
    "it's",
    '- x',
    'ends ',
    'tab\there',
    'line\nbreak',
    '[x]',
    '{x}',
    '*a',
    '&a',
    '!t',
    '%x',
    '@x',
    '`x`',
    '|',
    '>',
    '?',
    'Use when …',
  ])('reads back %j as the same text', (v) => {
    expect(yaml.load(`k: ${yamlScalar(v)}`)).toEqual({ k: v });
  });

  it('leaves simple text plain', () => {
    expect(yamlScalar('my-skill')).toBe('my-skill');
    expect(yamlScalar('Demo things, fast. Use when asked.')).toBe('Demo things, fast. Use when asked.');
    expect(yamlScalar('true')).toBe('"true"');
  });
});

describe('defaults', () => {
  it.each(['a', 'my-skill', 'k8s-tools', 'café', 'x'.repeat(64)])(
    'the default description of %j is valid and says when to use the skill',
    (name) => {
      const d = defaultDescription(name);
      expect(descriptionProblem(d)).toBeUndefined();
      expect(d.length).toBeGreaterThanOrEqual(20);
      expect(d).toMatch(/^[A-Z\p{Lu}].*\. Use when .+\.$/u);
      expect(d.startsWith(titleOf(name))).toBe(true);
    },
  );

  it('titles a name in words', () => {
    expect(titleOf('pdf-tools')).toBe('Pdf Tools');
    expect(titleOf('écrire-vite')).toBe('Écrire Vite');
  });

  it('refuses empty, overlong and angle-bracketed descriptions', () => {
    expect(descriptionProblem('  ')).toMatch(/empty/);
    expect(descriptionProblem('x'.repeat(1025))).toMatch(/1025 characters long; at most 1024/);
    expect(descriptionProblem('𠀀'.repeat(1024))).toBeUndefined();
    expect(descriptionProblem('Use <b>bold</b>. Use when asked.')).toMatch(/< or >/);
  });

  it('finds the templates folder from src/core (two levels up)', () => {
    expect(templatesDir()).toBe(join(ROOT, 'templates/'));
  });
});

describe('createSkill', () => {
  it('renders the skill-md templates with the chosen folders, into a skill that validates without findings', async () => {
    const parent = fresh();
    const r = await createSkill(base(parent, { with: ['scripts', 'assets'] }));
    expect(r).toEqual({
      path: join(parent, 'demo'),
      name: 'demo',
      layout: 'skill-md',
      files: ['SKILL.md', 'assets/template.json', 'scripts/example.py'],
    });
    expect(existsSync(join(parent, 'demo/references'))).toBe(false);
    const md = readFileSync(join(parent, 'demo/SKILL.md'), 'utf8');
    expect(md).toContain('scripts/example.py');
    expect(md).toContain('assets/template.json');
    expect(md).not.toContain('references/');
    expect(md).not.toMatch(/\{\{|TODO|FIXME/);
    expect(statSync(join(parent, 'demo/scripts/example.py')).mode & 0o777).toBe(0o755);
    const [report] = await validateSkills([loadSkill(r.path)]);
    expect(report!.diagnostics).toEqual([]);
  });

  it('fills a manifest that validates, with owner and title', async () => {
    const parent = fresh();
    const r = await createSkill(base(parent, { layout: 'manifest', owner: 'bee-7', name: 'pdf-tools' }));
    const m = JSON.parse(readFileSync(join(r.path, 'manifest.json'), 'utf8'));
    expect(m).toMatchObject({
      id: 'pdf-tools',
      name: 'Pdf Tools',
      owner: 'bee-7',
      version: '1.0.0',
      scripts: ['scripts/example.sh'],
    });
    const [report] = await validateSkills([loadSkill(r.path)]);
    expect(report!.diagnostics).toEqual([]);
  });

  it('renames _dotfiles on copy and makes scripts executable', async () => {
    const templates = fresh();
    writeTree(join(templates, 'skill-md'), {
      '_env.example': 'KEY=\n',
      'scripts/run.sh': '#!/bin/sh\necho {{name}}\n',
      'notes/_gitignore': 'x\n',
    });
    mkdirSync(join(templates, 'manifest'));
    const parent = fresh();
    const r = await createSkill(base(parent, { templates, with: ['scripts'] }));
    expect(r.files).toEqual(['.env.example', 'notes/.gitignore', 'scripts/run.sh']);
    expect(readFileSync(join(r.path, 'scripts/run.sh'), 'utf8')).toBe('#!/bin/sh\necho demo\n');
    expect(statSync(join(r.path, 'scripts/run.sh')).mode & 0o111).toBe(0o111);
  });

  it('uses an existing empty folder', async () => {
    const parent = fresh();
    mkdirSync(join(parent, 'demo'));
    const r = await createSkill(base(parent));
    expect(readdirSync(r.path)).toEqual(['SKILL.md']);
    expect(readdirSync(parent)).toEqual(['demo']);
  });

  it('refuses a non-empty folder or a file at the target, writing nothing', async () => {
    const parent = fresh();
    writeTree(parent, { 'demo/notes.txt': 'mine\n', other: 'a file\n' });
    await expect(createSkill(base(parent))).rejects.toMatchObject({
      code: 'E_EXISTS',
      message: expect.stringContaining('not empty'),
    });
    await expect(createSkill(base(parent, { name: 'other' }))).rejects.toMatchObject({
      code: 'E_EXISTS',
      message: expect.stringContaining('not a folder'),
    });
    expect(readdirSync(parent).sort()).toEqual(['demo', 'other']);
    expect(readdirSync(join(parent, 'demo'))).toEqual(['notes.txt']);
  });

  it('removes the staging folder and the parents it created when a write fails half-way', async () => {
    // Two template files land on the same name: the second write fails after the first succeeded.
    const templates = fresh();
    writeTree(join(templates, 'skill-md'), { '.env.example': 'A=\n', '_env.example': 'B=\n' });
    mkdirSync(join(templates, 'manifest'));
    const root = fresh();
    const parent = join(root, 'new/deeper');
    await expect(createSkill(base(parent, { templates }))).rejects.toMatchObject({
      code: 'E_IO',
      message: expect.stringMatching(/\.env\.example.*nothing was written/),
    });
    expect(readdirSync(root)).toEqual([]);
    // an existing parent stays; only the staging folder goes
    const kept = fresh();
    await expect(createSkill(base(kept, { templates }))).rejects.toMatchObject({ code: 'E_IO' });
    expect(readdirSync(kept)).toEqual([]);
  });

  it('refuses a parent that runs through a file', async () => {
    const root = fresh();
    writeFileSync(join(root, 'file'), 'x');
    await expect(createSkill(base(join(root, 'file/sub')))).rejects.toMatchObject({
      code: 'E_IO',
      message: expect.stringContaining('is a file'),
    });
    expect(readdirSync(root)).toEqual(['file']);
  });
});
