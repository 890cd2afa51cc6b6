// Selection on collections the ranking was never tuned on: the sets of bench/selection/other-queries-N.json, each over
// the collections bench/selection/other-collections.json names for it (K-Dense-AI's scientific skills, getsentry,
// expo and posit-dev for the first; daymade, hashicorp and parts of wshobson/agents and alirezarezvani/claude-skills
// for the second; Jeffallan/claude-skills, part of github/awesome-copilot, vercel-labs, cloudflare and
// callstackincubator for the third), through the built CLI as bench/selection-real.mjs runs the four collections.
// A set is blind (figures only, never its misses) until other-collections.json marks it "open" (says when its misses
// were read while tuning): the first is open, the second and third blind.
//
// The collections are not in this repository: SKILLS_OTHER_CORPORA names a folder holding each one extracted at the
// commit other-collections.json gives, in a folder named as its "folder" key (only the "paths" listed, where given).
// Without it, or with a collection missing, the bench says so and skips the set.
// Usage: SKILLS_OTHER_CORPORA=<dir> node bench/selection-other.mjs [--json]
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { mapPool } from './lib.mjs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { line, measure, readRealQueries } from './selection-real.mjs';
import { runNode } from './selection.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin', 'skills.js');
const DIR = join(ROOT, 'bench', 'selection');
export const OTHER_CORPORA_ENV = 'SKILLS_OTHER_CORPORA';
const MAX = 3;

/** The sets of other-collections.json in order: [{ file, folders: [name…], blind }]; blind unless marked "open". */
export function otherSets() {
  const { sets } = JSON.parse(readFileSync(join(DIR, 'other-collections.json'), 'utf8'));
  const files = Object.keys(sets).sort((a, b) => Number(a.match(/\d+/)) - Number(b.match(/\d+/)));
  return files.map((file) => ({
    file,
    folders: sets[file].collections.map((c) => c.folder),
    blind: typeof sets[file].open !== 'string',
  }));
}

/** One set through the CLI over its folders: measure()'s figures, or { skipped } / { error }. */
async function runSet(set, base, env) {
  const missing = set.folders.filter((f) => !existsSync(join(base, f)));
  if (missing.length) return { skipped: `${missing.join(', ')} not in ${OTHER_CORPORA_ENV}=${base}` };
  // As the CLI reports them (a folder of links to the collections is usual): the real paths.
  const dirs = set.folders.map((f) => realpathSync(join(base, f)));
  // A name may hold a slash here: posit-dev's `r-lib/cli` names itself so (the id: the collection, then the name).
  const requests = readRealQueries(join(DIR, set.file), /^[^/]+\/./);
  const home = mkdtempSync(join(tmpdir(), 'skills-bench-other-'));
  const childEnv = { ...env, HOME: home, NO_COLOR: '1' };
  for (const k of ['SKILLS_MAX_ACTIVE', 'SKILLS_DIR', 'SKILLS_REGISTRY']) delete childEnv[k];
  const folderOf = (location) => set.folders.find((f, i) => !relative(dirs[i], location).startsWith('..'));
  const one = async ({ query, expected }) => {
    const args = [CLI, 'render-prompt', '-q', '--query', query, ...dirs, '--no-registry'];
    args.push('--max-skills', String(MAX), '--format', 'json', '--explain');
    const r = await runNode(args, { cwd: home, env: childEnv });
    const out = JSON.parse(r.stdout || '{}');
    if (!out.catalog) throw new Error(`render-prompt failed on ${JSON.stringify(query)}: ${r.stderr.slice(0, 300)}`);
    const where = new Map(out.catalog.map((c) => [c.name, folderOf(c.location)]));
    const id = (s) => `${where.get(s.name) ?? '?'}/${s.name}`;
    const got = (out.selected ?? []).map(id);
    const at = (out.ranked ?? out.selected ?? []).map(id).findIndex((s) => expected.includes(s));
    return { query, expected, got, rank: at + 1 };
  };
  try {
    const rows = await mapPool(requests, 2, one);
    return measure(rows);
  } catch (err) {
    return { error: err.message };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Every set over its collections: { sets: [{ file, folders, blind, …measure() | skipped | error }] }, or { skipped }.
 */
export async function otherSelection(env = process.env) {
  const base = env[OTHER_CORPORA_ENV];
  if (!base)
    return { skipped: `${OTHER_CORPORA_ENV} is not set (a folder of the collections other-collections.json names)` };
  if (!existsSync(join(ROOT, 'dist', 'commands', 'render-prompt.cjs')))
    return { skipped: 'render-prompt is not built (npm run build)' };
  const sets = [];
  for (const set of otherSets()) sets.push({ ...set, ...(await runSet(set, base, env)) });
  return { sets };
}

export function formatOtherSelection(result) {
  if (result.skipped) return `selection on other collections: skipped: ${result.skipped}`;
  return result.sets
    .flatMap((s) => {
      const head = `selection on other collections, ${s.file} (${s.folders.join(', ')}; ${
        s.blind ? 'blind: figures only' : 'open: its misses were read while tuning'
      })`;
      if (s.skipped) return [`${head}: skipped, ${s.skipped}`];
      if (s.error) return [`${head}: not measured: ${s.error}`];
      return [
        `${head}, ${s.fit + s.none} requests, ${s.none} that no skill fits:`,
        line(s.file.replace('.json', ''), s),
      ];
    })
    .join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await otherSelection();
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(`${formatOtherSelection(result)}\n`);
}
