import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_SKILL_FILE_BYTES } from '../../src/skill/skill-file.js';
import { skillMd, writeTree } from '../helpers/tree.js';
import { runCli, tempFolders } from '../helpers/cli.js';
import { writeBodyOnlySkills } from '../helpers/body-only-skills.js';

const { fresh, cleanup } = tempFolders('skills-render-reg-bodies-e2e-');
afterAll(cleanup);

const selected = (stdout: string) =>
  (JSON.parse(stdout) as { selected: { name: string }[] }).selected.map((s) => s.name);

describe('skills render-prompt --query (built CLI) from a registry: ranked on the instructions as from folders', () => {
  it('selects the skill whose instructions fit, from the registry as from the folder', async () => {
    const dir = fresh('skills');
    writeBodyOnlySkills(dir);
    const registry = fresh('registry');
    const home = fresh('home');
    const sync = await runCli(['registry', 'sync', dir, '--registry', registry, '-q'], { env: { HOME: home } });
    expect(sync.exitCode, sync.stderr).toBe(0);
    const query = ['render-prompt', '-q', '--query', 'reconcile the invoices', '--format', 'json'];
    const fromFolder = await runCli([...query, dir, '--no-registry'], { env: { HOME: home } });
    expect(fromFolder.exitCode, fromFolder.stderr).toBe(0);
    expect(selected(fromFolder.stdout)[0]).toBe('accounts-b');
    // Twice: the first run writes the registry's selection index, the second reads it (selection-prefilter.ts).
    for (let run = 0; run < 2; run++) {
      const fromRegistry = await runCli([...query, '--registry', registry], { cwd: registry, env: { HOME: home } });
      expect(fromRegistry.exitCode, fromRegistry.stderr).toBe(0);
      expect(selected(fromRegistry.stdout)[0], `run ${run}`).toBe('accounts-b');
    }
  });
});

describe('skills render-prompt --query (built CLI) from a registry whose stored copy changed since sync', () => {
  it('renders no empty instructions for a stored SKILL.md grown past what is read since sync: a warning, its entry', async () => {
    const dir = fresh('skills');
    writeTree(dir, {
      'reconcile/SKILL.md': skillMd(
        'name: reconcile\ndescription: Reconciles invoices with bank statements. Use when invoices must be reconciled.\n',
        '# Reconcile\n\nMatch each invoice to its bank statement line.\n',
      ),
    });
    const registry = fresh('registry');
    const home = fresh('home');
    const sync = await runCli(['registry', 'sync', dir, '--registry', registry, '-q'], { env: { HOME: home } });
    expect(sync.exitCode, sync.stderr).toBe(0);
    const query = ['render-prompt', '--query', 'reconcile the invoices', '--registry', registry];
    const before = await runCli(query, { cwd: registry, env: { HOME: home } });
    expect(before.stdout).toContain('<skill_content name="reconcile">');
    // The stored copy (read-only) made larger than MAX_SKILL_FILE_BYTES by hand, its frontmatter kept.
    const stored = join(registry, 'built-in', 'reconcile@0.0.0');
    const file = join(stored, 'SKILL.md');
    chmodSync(stored, 0o755);
    chmodSync(file, 0o644);
    writeFileSync(file, readFileSync(file, 'utf8') + 'Reconcile the invoices.\n'.repeat(200_000));
    const r = await runCli(query, { cwd: registry, env: { HOME: home } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `warning: reconcile: its instructions cannot be loaded \\(SKILL\\.md is \\d+ bytes; at most ${MAX_SKILL_FILE_BYTES} bytes are read\\); only its catalog entry is shown`,
      ),
    );
    expect(r.stdout).toContain('- reconcile: ');
    expect(r.stdout).not.toContain('<skill_content name="reconcile">');
  });
});
