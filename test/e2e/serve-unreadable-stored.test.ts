import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { failure, listAll, serveStdio, toolText } from '../helpers/mcp.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// A registry lists its skills from its index, without reading them; a stored SKILL.md that became too large or a
// FIFO cannot be read. `skills serve` serves neither: the count it says, resources/list, skills/list and
// list_skills agree, each skill left out is warned about with the reason, and reading it says that reason.

const { fresh, cleanup } = tempFolders('skills-serve-unreadable-');
afterAll(cleanup);

describe('skills serve: a registry whose stored SKILL.md cannot be read', () => {
  it('serves and counts only the skills it can read, and says why it skips the others', async () => {
    const src = fresh('src');
    for (const n of ['alpha', 'beta', 'gamma'])
      writeTree(src, {
        [`${n}/SKILL.md`]: skillMd(
          `name: ${n}\ndescription: Does ${n} things. Use when testing serve.\nmetadata:\n  version: "1.0.0"`,
        ),
      });
    const reg = join(fresh('reg'), 'registry');
    const synced = await runCli(['registry', 'sync', src, '--registry', reg]);
    expect(synced.exitCode, synced.stderr).toBe(0);
    const fifo = join(reg, 'built-in/beta@1.0.0/SKILL.md');
    rmSync(fifo);
    execFileSync('mkfifo', [fifo]);
    const big = join(reg, 'built-in/gamma@1.0.0/SKILL.md');
    writeFileSync(big, skillMd('name: gamma\ndescription: Does gamma things.') + 'x'.repeat(5 * 1024 * 1024));

    const s = await serveStdio(['--registry', reg, '--no-watch'], {}, fresh('cwd'));
    try {
      expect(s.stderr()).toMatch(/^serving 1 skill over stdio$/m);
      expect(s.stderr()).toContain(
        `warning: ${join(reg, 'built-in/beta@1.0.0')}: skipped: ${fifo} is a FIFO, not a regular file`,
      );
      expect(s.stderr()).toMatch(
        new RegExp(
          `warning: .*gamma@1\\.0\\.0: skipped: .*SKILL\\.md is \\d+ bytes, over the 4194304 read; not served`,
        ),
      );
      const resources = await s.client.listResources();
      expect(resources.resources.map((r) => r.name)).toEqual(['alpha']);
      expect((await listAll(s.client)).skills.map((e) => e.frontmatter.name)).toEqual(['alpha']);
      const listed = JSON.parse(toolText(await s.client.callTool({ name: 'list_skills', arguments: {} })));
      expect(listed.skills.map((x: { name: string }) => x.name)).toEqual(['alpha']);
      expect(await failure(s.client.readResource({ uri: 'skill://gamma/SKILL.md' }))).toMatchObject({
        message: expect.stringContaining('the skill "gamma" is not served: '),
      });
    } finally {
      await s.close();
    }
  });
});
