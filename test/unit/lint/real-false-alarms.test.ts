// Shapes of real, published skills that lint used to report wrongly (test/fixtures/real-false-alarms, written
// in our own words; its README says which collection each imitates). Before the rules were tuned, this folder
// had 33 findings, 4 of them errors; now it has one, a warning that is true.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { lintPaths } from '../../../src/lint/lint-paths.js';
import { ROOT } from '../../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'real-false-alarms');

it('lints the shapes of real skills without a false alarm', async () => {
  const run = await lintPaths({ paths: ['.'], cwd: FIXTURE });
  expect(run.reports.map((r) => r.skill.id).sort()).toEqual([
    'claude-api',
    'codex-icons',
    'office-scripts',
    'placeholder-keys',
    'reference-docs',
    'variant-finder',
  ]);
  const findings = run.reports.flatMap((r) => r.diagnostics.map((d) => `${r.skill.id} ${d.ruleId} ${d.severity}`));
  // Anthropic reserves "claude" for uploads to its API and claude.ai: true, but a warning, as Anthropic ships
  // claude-api itself.
  expect(findings).toEqual(['claude-api SK106 warning']);
});
