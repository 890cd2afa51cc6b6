import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import {
  DirectoryResult,
  failure,
  listAll,
  serveStdio,
  SkillsGetResult,
  toolText,
  type Connected,
} from '../helpers/mcp.js';
import { marketplaceJson, skillMd, writeTree } from '../helpers/tree.js';

// One rule for a skill's name over `skills serve`: a name that cannot be one skill:// URI segment (a separator, dots
// alone, a control character) is not served at all, neither listed nor loadable, with one warning line; every other
// name the catalog takes (capitals, spaces, Unicode, `%`) round-trips: the URI listed is the URI read.

const SECRET = 'outside-secret-9c1e';

/** Folder → frontmatter `name` as YAML writes it (double-quoted, so escapes are YAML's). */
const BAD: Record<string, { yaml: string; name: string; hidden?: boolean }> = {
  up: { yaml: '"../../etc"', name: '../../etc' },
  dots: { yaml: '".."', name: '..' },
  dot: { yaml: '"."', name: '.' },
  three: { yaml: '"..."', name: '...' },
  back: { yaml: '"a\\\\b"', name: 'a\\b' },
  esc: { yaml: '"esc\\e[31mred"', name: 'esc\u001b[31mred' },
  tab: { yaml: '"tab\\tname"', name: 'tab\tname' },
  nl: { yaml: '"two\\nlines"', name: 'two\nlines' },
  hid: { yaml: '"hid/den"', name: 'hid/den', hidden: true },
  // A right-to-left override and a zero-width space: not typable, and shown without them by render-prompt.
  rtl: { yaml: '"rtl\\u202Egpj"', name: 'rtl\u202egpj' },
  zw: { yaml: '"z\\u200Bw"', name: 'z\u200bw' },
};
const GOOD = ['Web Scraping', 'PDF', 'café-ü', '数据-分析', '50% off', 'a+b (c)'];

describe('skills serve: names a skill:// URI cannot carry are not served', () => {
  let t: { dir: string; cleanup: () => void };
  let s: Connected;
  beforeAll(async () => {
    t = tempDir('skills-serve-names-');
    writeFileSync(join(t.dir, 'SKILL.md'), skillMd('name: outside\ndescription: Outside. Use when never.', SECRET));
    mkdirSync(join(t.dir, 'skills'));
    const tree: Record<string, string> = {};
    for (const [folder, b] of Object.entries(BAD))
      tree[`${folder}/SKILL.md`] = skillMd(
        `name: ${b.yaml}\ndescription: Bad name. Use when testing serve.${b.hidden ? '\ndisable-model-invocation: true' : ''}`,
      );
    GOOD.forEach((name, i) => {
      tree[`good${i}/SKILL.md`] = skillMd(
        `name: ${JSON.stringify(name)}\ndescription: Good name ${i}. Use when testing.`,
      );
      tree[`good${i}/references/notes.md`] = `notes of ${i}\n`;
    });
    writeTree(join(t.dir, 'skills'), tree);
    s = await serveStdio([join(t.dir, 'skills'), '--no-watch', '--verbose']);
  });
  afterAll(async () => {
    await s.close();
    t.cleanup();
  });

  it('says one line for each skill left out, naming its folder and why; counts only the others', () => {
    const lines = s.stderr().split('\n');
    for (const folder of Object.keys(BAD)) {
      const said = lines.filter((l) => l.includes(`skills/${folder}: skipped: the name`));
      expect(said, `stderr: ${s.stderr()}`).toHaveLength(1);
      expect(said[0]).toContain('cannot be a skill:// URI segment');
      expect(said[0]).toMatch(/; not served$/);
    }
    expect(s.stderr()).toContain('(it holds "/", a path separator)');
    expect(s.stderr()).toContain('(it holds "\\", a path separator)');
    expect(s.stderr()).toContain('made of dots alone');
    expect(s.stderr()).toContain('the control character U+001B (ESC)');
    expect(s.stderr()).toContain('the control character U+000A');
    expect(s.stderr()).toContain('the bidirectional character U+202E');
    expect(s.stderr()).toContain('the invisible character U+200B');
    expect(s.stderr()).not.toContain('\u001b');
    expect(s.stderr()).not.toContain('\u202e');
    expect(s.stderr()).toContain(`serving ${GOOD.length} skills over stdio`);
  });

  it('lists none of them in list_skills, skills/list or resources/list', async () => {
    const tool = JSON.parse(toolText(await s.client.callTool({ name: 'list_skills', arguments: {} }))) as {
      skills: { name: string; uri: string }[];
    };
    expect(tool.skills.map((x) => x.name).sort()).toEqual([...GOOD].sort());
    const { skills } = await listAll(s.client);
    expect(skills.map((e) => e.frontmatter.name).sort()).toEqual([...GOOD].sort());
    const { resources } = await s.client.listResources();
    expect(resources.map((r) => r.name).sort()).toEqual([...GOOD].sort());
  });

  it.each(Object.values(BAD).map((b) => b.name))('load_skill and read_skill_file refuse %j', async (name) => {
    const load = await s.client.callTool({ name: 'load_skill', arguments: { skill_name: name } });
    expect(load.isError, toolText(load)).toBe(true);
    expect(toolText(load)).toContain('is not served: its name cannot be a skill:// URI segment');
    const read = await s.client.callTool({
      name: 'read_skill_file',
      arguments: { skill_name: name, file_path: 'SKILL.md' },
    });
    expect(read.isError, toolText(read)).toBe(true);
    expect(toolText(read)).not.toContain(SECRET);
  });

  it.each([
    'skill://..%2F..%2Fetc/SKILL.md',
    'skill://../SKILL.md',
    'skill://%2E%2E/SKILL.md',
    'skill://.../SKILL.md',
    'skill://a%5Cb/SKILL.md',
    'skill://esc%1B%5B31mred/SKILL.md',
    'skill://hid%2Fden/SKILL.md',
  ])('resources/read and skills/get of %s fail with -32602, reading nothing', async (uri) => {
    for (const p of [
      s.client.readResource({ uri }),
      s.client.request({ method: 'skills/get', params: { uri } }, SkillsGetResult),
    ]) {
      const err = await failure(p);
      expect(err.code, err.message).toBe(-32602);
      expect(err.message).not.toContain(SECRET);
    }
  });

  it.each(GOOD)(
    '%j round-trips: the URI listed is read, its folder listed, load_skill and read_skill_file work',
    async (name) => {
      const { skills } = await listAll(s.client);
      const entry = skills.find((e) => e.frontmatter.name === name)!;
      expect(entry, `skills/list: ${skills.map((e) => e.uri).join(', ')}`).toBeDefined();
      for (const r of entry.resources) {
        const read = await s.client.readResource({ uri: r.uri });
        expect(read.contents[0]!.uri).toBe(r.uri);
      }
      const got = await s.client.request({ method: 'skills/get', params: { uri: entry.uri } }, SkillsGetResult);
      expect(got.skill.uri).toBe(entry.uri);
      const root = entry.uri.slice(0, -'/SKILL.md'.length);
      const dir = await s.client.request(
        { method: 'resources/directory/read', params: { uri: root } },
        DirectoryResult,
      );
      expect(dir.resources.map((r) => r.uri).sort()).toEqual([`${root}/SKILL.md`, `${root}/references`]);

      const tool = JSON.parse(toolText(await s.client.callTool({ name: 'list_skills', arguments: {} }))) as {
        skills: { name: string; uri: string }[];
      };
      expect(tool.skills.find((x) => x.name === name)?.uri).toBe(entry.uri);
      const { resources } = await s.client.listResources();
      expect(resources.find((r) => r.name === name)?.uri).toBe(entry.uri);

      const load = await s.client.callTool({ name: 'load_skill', arguments: { skill_name: name } });
      expect(load.isError ?? false, toolText(load)).toBe(false);
      expect(toolText(load)).toContain(`URI: ${entry.uri}`);
      const notes = await s.client.callTool({
        name: 'read_skill_file',
        arguments: { skill_name: name, file_path: 'references/notes.md' },
      });
      expect(toolText(notes)).toContain('notes of');
    },
  );
});

describe('skills serve: one name in two plugins of a marketplace', () => {
  it('serves the first under skill://setup, as render-prompt holds the first, with no warning of the other plugin', async () => {
    const t = tempDir('skills-serve-plugins-');
    writeTree(t.dir, {
      '.claude-plugin/marketplace.json': marketplaceJson('a', 'b'),
      'a/skills/setup/SKILL.md': skillMd('name: setup\ndescription: Sets up a. Use when setting up a.'),
      'b/skills/setup/SKILL.md': skillMd('name: setup\ndescription: Sets up b. Use when setting up b.'),
    });
    const s = await serveStdio([t.dir, '--no-watch', '--verbose']);
    try {
      const { resources } = await s.client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(['skill://setup/SKILL.md']);
      const tool = JSON.parse(toolText(await s.client.callTool({ name: 'list_skills', arguments: {} }))) as {
        skills: { name: string; description: string }[];
      };
      expect(tool.skills.map((x) => x.description)).toEqual(['Sets up a. Use when setting up a.']);
      // The catalog keeps the first of two plugins' skills of one name (prompt/catalog.ts), and warns of neither.
      expect(s.stderr()).not.toMatch(/shadowed|not served/);
    } finally {
      await s.close();
      t.cleanup();
    }
  });
});
