import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCli, tempFolders } from '../helpers/cli.js';
import { serveLocal } from '../helpers/http.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// A collection's skeletons of skills (jezweb/claude-skills' templates/skill-skeleton/SKILL.md, full of [TODO: …];
// anthropics/skills' template/SKILL.md) are for authors to copy: install and registry sync leave them out unless
// named, so an invalid skeleton no longer fails the run of the collection.

const { fresh, cleanup } = tempFolders('skills-template-skills-e2e-');
afterAll(cleanup);

const skillText = (name: string) => skillMd(`name: ${name}\ndescription: Does ${name} things. Use when testing.`);

/** A collection: two skills, an invalid skeleton below templates/, and a valid one at template/. */
function collection(): string {
  const dir = fresh('collection');
  writeTree(dir, {
    'README.md': '# Skills\n',
    'skills/pdf/SKILL.md': skillText('pdf'),
    'skills/docx/SKILL.md': skillText('docx'),
    'templates/skill-skeleton/SKILL.md':
      '---\nname: [TODO: lowercase-hyphen-case-name]\ndescription: |\n  [TODO: Write the description]\n---\n\n# [TODO: Skill Display Name]\n',
    'template/SKILL.md': skillText('template-skill'),
  });
  return dir;
}

describe('skeletons of skills below templates/ in a collection (built CLI)', () => {
  it('install leaves them out of "all" (exit 0), --list says so, and --skill installs one by its name', async () => {
    const src = collection();
    const project = fresh('project');
    const r = await runCli(['install', src, '--into', 'skills'], { cwd: project });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('skill-skeleton');
    expect(readdirSync(join(project, 'skills')).sort()).toEqual(['docx', 'pdf']);

    const list = await runCli(['install', src, '--list'], { cwd: project });
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(
      /template-skill +Does template-skill things\. Use when testing\.\n +left out of "all": a template \(a skeleton to copy\), installed only when named \(--skill template-skill\)/,
    );
    expect(list.stdout).toMatch(/skill-skeleton +invalid: .*\n +left out of "all": a template/);

    const one = await runCli(['install', src, '--skill', 'template-skill', '--into', 'skills'], { cwd: project });
    expect(one.exitCode, one.stderr).toBe(0);
    expect(readdirSync(join(project, 'skills')).sort()).toEqual(['docx', 'pdf', 'template-skill']);
  });

  it('install of a "Download ZIP" of the collection leaves them out too', async () => {
    const src = collection();
    const project = fresh('project');
    await execa('zip', ['-qr', join(project, 'skills-main.zip'), '.'], { cwd: src });
    const r = await runCli(['install', 'skills-main.zip', '--into', 'skills'], { cwd: project });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(join(project, 'skills')).sort()).toEqual(['docx', 'pdf']);
  });

  it('install of that zip by URL leaves them out too', async () => {
    const src = collection();
    const project = fresh('project');
    const zip = join(fresh('zip'), 'skills-main.zip');
    await execa('zip', ['-qr', zip, '.'], { cwd: src });
    const server = await serveLocal((_req, res) => res.end(readFileSync(zip)));
    try {
      const r = await runCli(['install', `${server.url}skills-main.zip`, '--into', 'skills'], { cwd: project });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(readdirSync(join(project, 'skills')).sort()).toEqual(['docx', 'pdf']);
    } finally {
      await server.close();
    }
  });

  it('a collection of templates alone installs them, and one named by its folder installs', async () => {
    const src = fresh('only-templates');
    writeTree(src, { 'templates/starter/SKILL.md': skillText('starter') });
    const project = fresh('project');
    const r = await runCli(['install', src, '--into', 'skills'], { cwd: project });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(join(project, 'skills'))).toEqual(['starter']);
    const named = await runCli(['install', join(collection(), 'template'), '--into', 'named'], { cwd: project });
    expect(named.exitCode, named.stderr).toBe(0);
    expect(readdirSync(join(project, 'named'))).toEqual(['template-skill']);
  });

  it('registry sync registers the skills and not the skeletons (exit 0)', async () => {
    const src = collection();
    const base = fresh('sync');
    const r = await runCli(['registry', 'sync', src, '--registry', join(base, 'reg')], { cwd: base });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/skill-skeleton|template-skill@/);
    expect(existsSync(join(base, 'reg'))).toBe(true);
    const list = await runCli(['list', '--registry', join(base, 'reg'), '--json'], { cwd: base });
    expect(list.stdout).toContain('"pdf"');
    expect(list.stdout).not.toContain('"template-skill"');
  });
});
