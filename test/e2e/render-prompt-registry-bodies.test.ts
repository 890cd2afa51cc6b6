import { afterAll, describe, expect, it } from 'vitest';
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
