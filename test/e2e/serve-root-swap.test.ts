import { existsSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { failure, serveStdio, toolText, type Connected } from '../helpers/mcp.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// A served skill's folder swapped, after the server loaded it, for a link to a folder outside it (`mv skills/demo x;
// ln -s ~/.ssh skills/demo`): nothing of that folder is read or run, with or without the watcher (which may never
// report the swap). Before, each read checked the file against the folder's real path as it is now, and served it.

const SECRET = 'SECRET-PRIVATE-KEY-5d1c';

// With the watcher, the outside folder is no skill: were the swap reported, the skill would be gone (not found), and
// a folder with a SKILL.md reached through a link is a skill like any other. Node 20's recursive watch does not report
// it here, which is the case that matters.
describe.each([
  ['with the watcher', [] as string[]],
  ['with --no-watch', ['--no-watch']],
])('skills serve: a skill folder swapped for a link leading out (%s)', (_, flags) => {
  const watching = flags.length === 0;
  const refused = watching ? /leads outside the skill|no skill "demo" is served/ : /leads outside the skill/;
  let t: { dir: string; cleanup: () => void } | undefined;
  let s: Connected | undefined;
  afterEach(async () => {
    await s?.close();
    t?.cleanup();
  });

  it('refuses its files as leading outside the skill, and runs none of its scripts', async () => {
    t = tempDir('skills-serve-swap-');
    const ran = join(t.dir, 'outside-script-ran');
    const script = (says: string) =>
      `// Say where it runs.\nrequire('node:fs').writeFileSync(${JSON.stringify(ran)}, 'ran');\nconsole.log(JSON.stringify({ success: true, result: ${JSON.stringify(says)} }));\n`;
    writeTree(t.dir, {
      'skills/demo/SKILL.md': skillMd('name: demo\ndescription: A demo skill. Use when testing serve.'),
      'skills/demo/id_rsa': 'dummy\n',
      'skills/demo/scripts/where.js':
        '// Say where it runs.\nconsole.log(JSON.stringify({ success: true, result: "inside" }));\n',
      // Somewhere else: a private key, and a skill of the same name with a script of the same path.
      ...(watching ? {} : { 'outside/SKILL.md': skillMd('name: demo\ndescription: Not the skill served. Use never.') }),
      'outside/id_rsa': `${SECRET}\n`,
      'outside/scripts/where.js': script('outside'),
    });
    s = await serveStdio([join(t.dir, 'skills'), '--no-registry', '--allow-scripts', 'demo', ...flags]);
    expect(toolText(await s.client.callTool({ name: 'demo_where', arguments: {} }))).toContain('"inside"');
    const before = await s.client.readResource({ uri: 'skill://demo/id_rsa' });
    expect(before.contents[0]).toMatchObject({ text: 'dummy\n' });

    renameSync(join(t.dir, 'skills/demo'), join(t.dir, 'demo.old'));
    symlinkSync(join(t.dir, 'outside'), join(t.dir, 'skills/demo'));

    // The script tool: refused as leading outside the skill, and the outside script never ran.
    const run = await s.client.callTool({ name: 'demo_where', arguments: {} }).then(
      (r) => ({ isError: r.isError, text: toolText(r) }),
      (e: Error) => ({ isError: true, text: e.message }),
    );
    expect(run.isError).toBe(true);
    expect(run.text).toMatch(
      watching ? /leads outside the skill|unknown tool "demo_where"/ : /leads outside the skill/,
    );
    expect(run.text).not.toContain('"outside"');
    expect(existsSync(ran)).toBe(false);

    const err = await failure(s.client.readResource({ uri: 'skill://demo/id_rsa' }));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(refused);
    expect(err.message).not.toContain(SECRET);

    const tool = await s.client.callTool({
      name: 'read_skill_file',
      arguments: { skill_name: 'demo', file_path: 'id_rsa' },
    });
    expect(tool.isError).toBe(true);
    expect(toolText(tool)).toMatch(refused);
    expect(toolText(tool)).not.toContain(SECRET);
  });
});
