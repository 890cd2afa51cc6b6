import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { serveStdio, toolText } from '../helpers/mcp.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// A skill's file reached through a folder that is a symbolic link leading out of the skill (`context/` or
// `references/` -> elsewhere) is read by no command, as a file link leading out is not: validate and lint report
// SK025 path-inside, render-prompt skips the skill's instructions with a warning, serve does not read it, install
// leaves the link out. Nothing of what the link leads to reaches a prompt, an answer or a copy, even when the
// folder is made a link while the command runs (a --selector swaps it between the catalog and the load).

const SECRET = 'outside-secret-3f7b';

const manifest = (id: string) =>
  JSON.stringify({
    id,
    name: id,
    version: '1.0.0',
    description: 'A manifest skill for folder links. Use when testing folder links.',
    owner: 'x',
    context: ['context/notes.md'],
  });

describe('a skill file reached through a folder that links out of the skill', () => {
  let t: { dir: string; cleanup: () => void };
  let sk: string;
  beforeAll(() => {
    t = tempDir('skills-folder-link-');
    writeTree(t.dir, {
      'outside/notes.md': `${SECRET} notes\n`,
      'outside/ref.md': `${SECRET} reference\n`,
    });
    sk = join(t.dir, 'sk');
    mkdirSync(sk);
    writeTree(sk, {
      'm/manifest.json': manifest('m'),
      'm/context': { symlink: join(t.dir, 'outside') },
      's/SKILL.md': skillMd(
        'name: s\ndescription: A skill for folder links. Use when testing folder links.',
        'See references/ref.md.\n',
      ),
      's/references': { symlink: join(t.dir, 'outside') },
    });
  });
  afterAll(() => t.cleanup());

  it('validate reports SK025 on the context file, naming the folder link', async () => {
    const r = await runCli(['validate', join(sk, 'm')]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(
      'error    context[0] "context/notes.md" goes through context, a symlink that leads out of the skill  SK025 path-inside',
    );
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('render-prompt skips the instructions with a warning and prints nothing of the folder', async () => {
    const r = await runCli(['render-prompt', sk, '--query', 'folder links', '--tier', 'full']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).not.toContain('ref.md</file>');
    expect(r.stderr).toContain(
      'warning: m: its instructions cannot be loaded (context[0] "context/notes.md" goes through context, a symlink that leads out of the skill); only its catalog entry is shown',
    );
  });

  it('serve neither loads nor reads what the folder holds', async () => {
    const s = await serveStdio([sk]);
    try {
      const loaded = await s.client.callTool({ name: 'load_skill', arguments: { skill_name: 'm' } });
      expect(toolText(loaded)).not.toContain(SECRET);
      const read = await s.client.callTool({
        name: 'read_skill_file',
        arguments: { skill_name: 's', file_path: 'references/ref.md' },
      });
      expect(read.isError, toolText(read)).toBe(true);
      expect(toolText(read)).not.toContain(SECRET);
      expect(s.stderr()).not.toContain(SECRET);
    } finally {
      await s.close();
    }
  });

  it('install leaves the folder link out of the copy', async () => {
    const w = join(t.dir, 'w');
    mkdirSync(w, { recursive: true });
    const r = await runCli(['install', join(sk, 's'), '--into', 'out', '-y'], { cwd: w });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(join(w, 'out/s')).sort()).toEqual(['SKILL.md']);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('render-prompt reads nothing through a folder made a link after the catalog was read (by the --selector)', async () => {
    const race = join(t.dir, 'race');
    writeTree(race, {
      'm2/manifest.json': manifest('m2'),
      'm2/context/notes.md': 'inside notes\n',
      's2/SKILL.md': skillMd('name: s2\ndescription: A skill for folder links. Use when testing folder links.'),
      's2/references/ref.md': 'inside reference\n',
    });
    const swap = join(t.dir, 'swap.sh');
    writeFileSync(
      swap,
      [
        '#!/bin/sh',
        'cat >/dev/null',
        `rm -rf '${race}/m2/context' '${race}/s2/references'`,
        `ln -s '${join(t.dir, 'outside')}' '${race}/m2/context'`,
        `ln -s '${join(t.dir, 'outside')}' '${race}/s2/references'`,
        `echo '["m2","s2"]'`,
        '',
      ].join('\n'),
    );
    chmodSync(swap, 0o755);
    const r = await runCli(['render-prompt', race, '--query', 'folder links', '--selector', swap]);
    expect(r.exitCode, r.stderr).toBe(0);
    // The selector ran and made the folders links.
    expect(readFileSync(join(race, 'm2/context/notes.md'), 'utf8')).toContain(SECRET);
    expect(r.stdout, 'the prompt holds nothing of the folder the link leads to').not.toContain(SECRET);
    expect(r.stdout).not.toContain('ref.md</file>');
    expect(r.stdout).not.toContain('notes.md</file>');
    expect(r.stderr).toContain('warning: m2: its instructions cannot be loaded');
    rmSync(race, { recursive: true, force: true });
  });

  it('a skill folder that is itself a link (as installs make) has its context read below it', async () => {
    const inside = join(t.dir, 'inside');
    writeTree(inside, {
      'store/m3/manifest.json': manifest('m3'),
      'store/m3/context/notes.md': 'inside notes 61d0\n',
      'agent/m3': { symlink: '../store/m3' },
    });
    const r = await runCli(['render-prompt', join(inside, 'agent'), '--query', 'folder links', '--tier', 'full']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('inside notes 61d0');
    expect(r.stderr).not.toContain('warning');
  });
});
