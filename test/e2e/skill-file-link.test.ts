import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { listAll, serveStdio, toolText } from '../helpers/mcp.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// A skill whose skill file (SKILL.md, manifest.json) is a symbolic link leading out of the skill folder is read by
// no command: validate and lint report SK025 on it, install refuses it with nothing written, and render-prompt and
// serve skip it with a warning; nothing of the file it leads to reaches a prompt or an MCP answer. A skill file that
// links to a file inside the skill is read as that file.

const SECRET = 'outside-secret-91c4';

describe('a skill file that is a link leading out of its skill', () => {
  let t: { dir: string; cleanup: () => void };
  let sk: string;
  beforeAll(() => {
    t = tempDir('skills-file-link-');
    writeTree(t.dir, {
      'outside/SKILL.md': skillMd(`name: leaky\ndescription: ${SECRET} Use when leaking.`, `${SECRET} body\n`),
      'outside/manifest.json': JSON.stringify({
        id: 'leakm',
        name: 'leakm',
        version: '1.0.0',
        description: `${SECRET} Use when leaking.`,
        owner: 'x',
      }),
    });
    sk = join(t.dir, 'sk');
    mkdirSync(sk);
    writeTree(sk, {
      'leaky/SKILL.md': { symlink: join(t.dir, 'outside/SKILL.md') },
      'leakm/manifest.json': { symlink: join(t.dir, 'outside/manifest.json') },
      'ok/SKILL.md': skillMd('name: ok\ndescription: A fine skill for tests. Use when testing links.'),
      'inner/docs/SKILL.md': skillMd('name: inner\ndescription: Its file is a link inside. Use when testing links.'),
      'inner/SKILL.md': { symlink: 'docs/SKILL.md' },
    });
  });
  afterAll(() => t.cleanup());

  it('validate reports SK025 on the link, naming where it leads and what was expected; the link inside is valid', async () => {
    const r = await runCli(['validate', sk]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(
      `leaky/SKILL.md  error    SKILL.md is a symbolic link that leads out of the skill (to ${join(t.dir, 'outside/SKILL.md')}): expected a file inside the skill folder; no command reads it  SK025 path-inside`,
    );
    expect(r.stdout).toContain('leakm/manifest.json  error    manifest.json is a symbolic link that leads out');
    expect(r.stdout).toMatch(/✔ .*inner/);
    expect(r.stdout).not.toContain('SK010');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('lint reports it too', async () => {
    const r = await runCli(['lint', join(sk, 'leaky')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('SK025');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('install refuses it and writes nothing', async () => {
    const w = join(t.dir, 'w');
    mkdirSync(w, { recursive: true });
    const r = await runCli(['install', join(sk, 'leaky'), '--into', 'out', '-y'], { cwd: w });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('nothing was installed');
    expect(r.stderr).toContain('SKILL.md is a symbolic link that leads out of the skill');
    expect(existsSync(join(w, 'out'))).toBe(false);
    expect(existsSync(join(w, 'skills-lock.json'))).toBe(false);
  });

  it('render-prompt skips it with a one-line warning and never prints what it leads to', async () => {
    const r = await runCli(['render-prompt', sk, '--query', 'leaky leaking']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stderr).toContain(
      `warning: ${join(sk, 'leaky')}: skipped: SKILL.md is a symbolic link that leads out of the skill (to ${join(t.dir, 'outside/SKILL.md')})`,
    );
    expect(r.stderr).not.toContain(SECRET);
  });

  it('serve neither lists nor loads it; the skill whose file links inside is served', async () => {
    const s = await serveStdio([sk]);
    try {
      const all = toolText(await s.client.callTool({ name: 'list_skills', arguments: {} }));
      expect(all).not.toContain(SECRET);
      expect(all).not.toContain('leaky');
      expect(all).toContain('inner');
      const loaded = await s.client.callTool({ name: 'load_skill', arguments: { skill_name: 'leaky' } });
      expect(loaded.isError).toBe(true);
      expect(toolText(loaded)).not.toContain(SECRET);
      const { skills } = await listAll(s.client);
      expect(skills.map((x) => x.uri).sort()).toEqual(['skill://inner/SKILL.md', 'skill://ok/SKILL.md']);
      expect(JSON.stringify(skills)).not.toContain(SECRET);
      expect(s.stderr()).toContain('SKILL.md is a symbolic link that leads out of the skill');
      expect(s.stderr()).not.toContain(SECRET);
    } finally {
      await s.close();
    }
  });
});
