import { execa } from 'execa';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, EXAMPLES, tempFolders, testEnv } from '../helpers/cli.js';
import { failure, listAll, serveStdio, SkillsGetResult, toolText } from '../helpers/mcp.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// Which skills `skills serve` serves: those render-prompt reads, by the same rules (skillDirs and disabledSkills
// from skills.config.json, the first skill of a name, skills kept out of the catalog but loadable by name, the
// registry).

const { fresh, cleanup } = tempFolders('skills-serve-sources-');
afterAll(cleanup);

describe('skills serve: the skills render-prompt reads', () => {
  it('follows skills.config.json: skillDirs, disabledSkills; hides disable-model-invocation skills from listings only', async () => {
    const project = fresh('project');
    writeTree(project, {
      'skills.config.json': JSON.stringify({ skillDirs: ['team', 'mine'], disabledSkills: ['off'] }),
      'team/shared/SKILL.md': skillMd('name: shared\ndescription: The team copy. Use when testing serve.'),
      'mine/shared/SKILL.md': skillMd('name: shared\ndescription: My copy, shadowed. Use when testing serve.'),
      'team/off/SKILL.md': skillMd('name: off\ndescription: Disabled. Use when testing serve.'),
      'team/quiet/SKILL.md': skillMd(
        'name: quiet\ndescription: Only by name. Use when testing serve.\ndisable-model-invocation: true',
        '# Quiet\n\nQuiet instructions.\n',
      ),
    });
    const s = await serveStdio([], {}, project);
    try {
      const { skills } = await listAll(s.client);
      expect(skills.map((e) => [e.frontmatter.name, e.frontmatter.description])).toEqual([
        ['shared', 'The team copy. Use when testing serve.'],
      ]);
      // Hidden: not listed, but served by URI and by name.
      const got = await s.client.request(
        { method: 'skills/get', params: { uri: 'skill://quiet/SKILL.md' } },
        SkillsGetResult,
      );
      expect(got.skill.frontmatter['disable-model-invocation']).toBe(true);
      expect(toolText(await s.client.callTool({ name: 'load_skill', arguments: { skill_name: 'quiet' } }))).toContain(
        'Quiet instructions.',
      );
      // Disabled: not served at all, and said so.
      expect(await failure(s.client.readResource({ uri: 'skill://off/SKILL.md' }))).toMatchObject({
        code: -32602,
        message: expect.stringContaining('the skill "off" is disabled (disabledSkills)'),
      });
      const all = JSON.parse(toolText(await s.client.callTool({ name: 'list_skills', arguments: {} })));
      expect(all.skills.map((x: { name: string }) => x.name)).toEqual(['shared']);
    } finally {
      await s.close();
    }
  });

  it('serves the registry when no folder is given, and not when one is (unless --registry names it)', async () => {
    const home = fresh('home');
    const reg = join(fresh('reg'), 'registry');
    const synced = await execa(
      process.execPath,
      [BIN, 'registry', 'sync', join(EXAMPLES, 'web-scraping'), '--registry', reg],
      {
        env: testEnv(home),
        extendEnv: false,
        reject: false,
      },
    );
    expect(synced.exitCode).toBe(0);
    const empty = fresh('empty');
    const s = await serveStdio([], { SKILLS_REGISTRY: reg }, empty);
    try {
      const { skills } = await listAll(s.client);
      expect(skills.map((e) => e.frontmatter.name)).toEqual(['web-scraping']);
      const read = await s.client.readResource({ uri: 'skill://web-scraping/scripts/scraper.py' });
      expect(read.contents[0]!.mimeType).toBe('text/x-python');
    } finally {
      await s.close();
    }
    const folders = await serveStdio([join(EXAMPLES, 'timeplus-sql-guide')], { SKILLS_REGISTRY: reg }, empty);
    try {
      expect((await listAll(folders.client)).skills.map((e) => e.frontmatter.name)).toEqual(['timeplus-sql-guide']);
    } finally {
      await folders.close();
    }
    const both = await serveStdio([join(EXAMPLES, 'timeplus-sql-guide'), '--registry', reg], {}, empty);
    try {
      expect((await listAll(both.client)).skills.map((e) => e.frontmatter.name)).toEqual([
        'timeplus-sql-guide',
        'web-scraping',
      ]);
    } finally {
      await both.close();
    }
  });
});
