import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { listAll, nextListChange, serveStdio, type Connected } from '../helpers/mcp.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// A skill left out of skills/list (a frontmatter that is not YAML as written) or not served at all (one whose YAML
// aliases expand past the bound) was said on stderr again at every listing that met it: once a serve process is
// enough, and again only when the reason changes after a live update.

// Nine aliases a level, nine levels: 9^10 values once expanded.
const aliasBomb = () => {
  const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i <= 9; i++) lines.push(`a${i}: &a${i} [${new Array<string>(9).fill(`*a${i - 1}`).join(', ')}]`);
  return `name: bomb\ndescription: Bomb. Use when.\n${lines.join('\n')}\nmetadata:\n  x: *a9\n`;
};

describe('skills serve: a skill left out of skills/list is said once a run', () => {
  let t: { dir: string; cleanup: () => void };
  let s: Connected;
  beforeAll(async () => {
    t = tempDir('skills-serve-left-out-');
    writeTree(t.dir, {
      'block/SKILL.md': skillMd('name: block\ndescription: | Use when the user asks for a block.'),
      'bomb/SKILL.md': skillMd(aliasBomb()),
      'fine/SKILL.md': skillMd('name: fine\ndescription: Fine. Use when testing serve.'),
    });
    s = await serveStdio([t.dir]);
  });
  afterAll(async () => {
    await s.close();
    t.cleanup();
  });

  const said = (name: string) =>
    s
      .stderr()
      .split('\n')
      .filter(
        (l) =>
          l.startsWith(`skills/list: ${name} left out:`) || l.startsWith(`warning: ${join(t.dir, name)}: skipped:`),
      );

  it('says each left-out skill once over two skills/list, resources/list and tools/list calls', async () => {
    for (let i = 0; i < 2; i++) {
      const { skills } = await listAll(s.client);
      expect(skills.map((e) => e.frontmatter.name)).toEqual(['fine']);
      await s.client.listResources();
      await s.client.listTools();
    }
    expect(said('block')).toHaveLength(1);
    expect(said('block')[0]).toContain('its SKILL.md frontmatter is not YAML (a value starts with | or >');
    expect(said('bomb')).toHaveLength(1);
    expect(said('bomb')[0]).toContain('once its YAML aliases (*name) are expanded');
  });

  it('says it again once when its reason changes after a live update, and not for an unrelated change', async () => {
    const changed = () => nextListChange(s.client);
    let next = changed();
    writeFileSync(join(t.dir, 'fine/SKILL.md'), skillMd('name: fine\ndescription: Fine, edited. Use when testing.'));
    await next;
    await listAll(s.client);
    expect(said('block')).toHaveLength(1);
    next = changed();
    writeFileSync(join(t.dir, 'block/SKILL.md'), skillMd('name: block\ndescription: Use when: a block is asked for.'));
    await next;
    // A burst of writes may come as more than one notice: list until the new reason is said.
    for (let i = 0; i < 50 && said('block').length < 2; i++) {
      await listAll(s.client);
      await new Promise((r) => setTimeout(r, 100));
    }
    await listAll(s.client);
    expect(said('block')).toHaveLength(2);
    expect(said('block')[1]).toContain('a value holds an unquoted ": "');
    expect(said('bomb')).toHaveLength(1);
  });
});
