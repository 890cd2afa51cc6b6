// Selection quality: how many queries of test/fixtures/selection/queries.json put the expected skill first,
// measured through the built CLI (`skills render-prompt --query Q <skills> --format json`), as a user runs it.
// Usage: node bench/selection.mjs [--verbose]   (npm run bench prints the same line after its table)
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { mapPool } from './lib.mjs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin', 'skills.js');
const SET = join(ROOT, 'test', 'fixtures', 'selection');

/**
 * Run every query of the set through the CLI, a few processes at a time. Returns { hits, total, misses: [{ query,
 * expected, got }] }, or { error } when the CLI cannot run the set at all (not built, or render-prompt failing).
 */
export async function selectionAccuracy() {
  if (!existsSync(join(ROOT, 'dist', 'commands', 'render-prompt.cjs')))
    return { error: 'render-prompt is not built (npm run build)' };
  const queries = JSON.parse(readFileSync(join(SET, 'queries.json'), 'utf8'));
  // A temp HOME and no registry: only the skills of the set take part.
  const home = mkdtempSync(join(tmpdir(), 'skills-bench-selection-'));
  const env = { ...process.env, HOME: home, NO_COLOR: '1' };
  delete env.SKILLS_MAX_ACTIVE;
  delete env.SKILLS_DIR;
  delete env.SKILLS_REGISTRY;
  const one = async ({ query, expected }) => {
    const args = [
      CLI,
      'render-prompt',
      '--query',
      query,
      join(SET, 'skills'),
      '--no-registry',
      '--max-skills',
      '3',
      '--format',
      'json',
    ];
    const r = await runNode(args, { cwd: SET, env });
    let out;
    try {
      out = JSON.parse(r.stdout);
    } catch {
      throw new Error(
        `render-prompt failed on ${JSON.stringify(query)} (${r.why}): ${(r.stderr || r.stdout).split('\n').slice(0, 5).join('\n')}`,
      );
    }
    if (out.error) throw new Error(`render-prompt failed on ${JSON.stringify(query)}: ${out.error.message}`);
    const first = out.selected?.[0]?.name;
    // Expected skills are named by folder; the catalog says which folder a name came from.
    const entry = out.catalog?.find((c) => c.name === first);
    const folder = entry ? basename(dirname(entry.location)) : undefined;
    return first === expected || folder === expected ? undefined : { query, expected, got: first ?? null };
  };
  try {
    const results = await mapPool(queries, 4, one);
    const misses = results.filter(Boolean);
    return { hits: queries.length - misses.length, total: queries.length, misses };
  } catch (err) {
    return { error: err.message };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Run node with `args`, never rejecting: `{ stdout, stderr, why }` (how it ended). Both selection benches use it. */
export function runNode(args, options) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { ...options, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        resolve({
          stdout,
          stderr,
          why: err ? (err.code !== undefined ? `exit code ${err.code}` : err.message) : 'exit code 0',
        });
      },
    );
  });
}

/** The one line the bench prints. */
export function formatSelection(result) {
  if (result.error) return `selection: not measured: ${result.error}`;
  const pct = Math.round((result.hits / result.total) * 100);
  return `selection: ${result.hits}/${result.total} queries put the expected skill first (${pct}%)`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await selectionAccuracy();
  process.stdout.write(`${formatSelection(result)}\n`);
  if (process.argv.includes('--verbose')) {
    for (const m of result.misses ?? [])
      process.stdout.write(`  miss: ${JSON.stringify(m.query)} → ${m.got ?? '(nothing)'}, expected ${m.expected}\n`);
  }
  if (result.error) process.exitCode = 1;
}
