// The false-positive measurement: `skills lint` over the real public skill collections (anthropics/skills,
// obra/superpowers, openai/skills, trailofbits/skills), every rule at its default, counted per rule. These skills
// are published and used, so a rule that fires often on them is either finding real slips or is wrong: read a
// sample before trusting a count (the README's `skills lint` section has the last reading).
//
// The collections are not in this repository. Point SKILLS_REAL_CORPORA at a folder holding one folder per
// collection, each either the files (a checkout, or `git archive HEAD | tar -x`) or a bare git repository (a
// mirror: a folder with HEAD and objects/, or with such a folder named repo), which is unpacked to a temp folder.
// Without it the measurement is skipped, with a line saying so.
//
// Usage: SKILLS_REAL_CORPORA=<dir> node bench/false-positives.mjs [--json]   (npm run bench prints it after the table)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin', 'skills.js');
export const CORPORA_ENV = 'SKILLS_REAL_CORPORA';

/** A bare git repository in `dir` or `dir/repo`, or undefined. */
function bareRepo(dir) {
  for (const d of [dir, join(dir, 'repo')])
    if (existsSync(join(d, 'HEAD')) && existsSync(join(d, 'objects')) && !existsSync(join(d, '.git'))) return d;
  return undefined;
}

/** The collection's files: `dir` itself, or its bare repository's HEAD unpacked under `tmp`. */
function filesOf(name, dir, tmp) {
  const repo = bareRepo(dir);
  if (!repo) return dir;
  const out = join(tmp, name);
  mkdirSync(out, { recursive: true });
  const tar = join(tmp, `${name}.tar`);
  const archive = spawnSync('git', ['--git-dir', repo, 'archive', '--format=tar', '-o', tar, 'HEAD'], {
    encoding: 'utf8',
  });
  if (archive.status !== 0) throw new Error(`git archive failed in ${repo}: ${archive.stderr.trim()}`);
  const untar = spawnSync('tar', ['-xf', tar, '-C', out], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(`tar failed on ${tar}: ${untar.stderr.trim()}`);
  return out;
}

/**
 * The collections under $SKILLS_REAL_CORPORA as folders of files: `{ collections: [{ name, dir }], cleanup }`, or
 * `{ skipped }` with the reason. Bare repositories are unpacked into a temp folder that cleanup() removes.
 */
export function realCollections(env = process.env) {
  const base = env[CORPORA_ENV];
  if (!base) return { skipped: `${CORPORA_ENV} is not set (a folder of real skill collections)` };
  if (!existsSync(base) || !statSync(base).isDirectory()) return { skipped: `${CORPORA_ENV}=${base} is no folder` };
  const names = readdirSync(base)
    .filter((n) => !n.startsWith('.') && statSync(join(base, n)).isDirectory())
    .sort();
  if (names.length === 0) return { skipped: `${CORPORA_ENV}=${base} holds no collection folders` };
  const tmp = mkdtempSync(join(tmpdir(), 'skills-bench-corpora-'));
  const cleanup = () => rmSync(tmp, { recursive: true, force: true });
  try {
    return { collections: names.map((name) => ({ name, dir: filesOf(name, join(base, name), tmp) })), cleanup };
  } catch (err) {
    cleanup();
    return { skipped: err.message };
  }
}

/**
 * Lint each collection under $SKILLS_REAL_CORPORA through the built CLI. Returns { corpora: [{ name, skills,
 * failing, counts: { [ruleId]: n } }], rules: { [ruleId]: { rule, severity } } }, { skipped } when the
 * collections are not there, or { error } when lint cannot run on them.
 */
export function lintRealCorpora(env = process.env) {
  const base = env[CORPORA_ENV];
  if (!base) return { skipped: `${CORPORA_ENV} is not set (a folder of real skill collections)` };
  if (!existsSync(base) || !statSync(base).isDirectory()) return { skipped: `${CORPORA_ENV}=${base} is no folder` };
  if (!existsSync(join(ROOT, 'dist', 'commands', 'lint.cjs'))) return { error: 'lint is not built (npm run build)' };
  const names = readdirSync(base)
    .filter((n) => !n.startsWith('.') && statSync(join(base, n)).isDirectory())
    .sort();
  if (names.length === 0) return { skipped: `${CORPORA_ENV}=${base} holds no collection folders` };
  const tmp = mkdtempSync(join(tmpdir(), 'skills-bench-corpora-'));
  // A temp HOME and no registry or config of the user's: only the rules' defaults take part.
  const childEnv = { ...process.env, HOME: tmp, NO_COLOR: '1' };
  delete childEnv.SKILLS_DIR;
  delete childEnv.SKILLS_REGISTRY;
  try {
    const corpora = [];
    const rules = {};
    for (const name of names) {
      const dir = filesOf(name, join(base, name), tmp);
      const r = spawnSync(process.execPath, [CLI, 'lint', '.', '--format', 'json'], {
        cwd: dir,
        env: childEnv,
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
      let doc;
      try {
        doc = JSON.parse(r.stdout);
      } catch {
        return { error: `lint of ${name} printed no JSON (exit code ${r.status}): ${(r.stderr || '').slice(0, 500)}` };
      }
      if (doc.error) return { error: `lint of ${name} failed: ${doc.error.message}` };
      const counts = {};
      for (const s of doc.skills)
        for (const d of s.diagnostics) {
          counts[d.ruleId] = (counts[d.ruleId] ?? 0) + 1;
          rules[d.ruleId] ??= { rule: d.rule, severity: d.severity };
        }
      corpora.push({ name, skills: doc.skills.length, failing: doc.skills.filter((s) => !s.valid).length, counts });
    }
    return { corpora, rules };
  } catch (err) {
    return { error: err.message };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The report: one row per rule that fired, one column per collection, then totals. */
export function formatFalsePositives(result) {
  if (result.skipped) return `false positives: not measured: ${result.skipped}`;
  if (result.error) return `false positives: not measured: ${result.error}`;
  const { corpora, rules } = result;
  const skills = corpora.reduce((n, c) => n + c.skills, 0);
  const failing = corpora.reduce((n, c) => n + c.failing, 0);
  const ids = Object.keys(rules).sort();
  const head = ['rule', ...corpora.map((c) => c.name.replace(/\+/g, '/')), 'total'];
  const rows = ids.map((id) => [
    `${id} ${rules[id].rule} (${rules[id].severity})`,
    ...corpora.map((c) => String(c.counts[id] ?? 0)),
    String(corpora.reduce((n, c) => n + (c.counts[id] ?? 0), 0)),
  ]);
  const totals = [
    'all findings',
    ...corpora.map((c) => sum(c.counts)),
    String(corpora.reduce((n, c) => n + +sum(c.counts), 0)),
  ];
  const skillRow = [
    'skills (failing lint)',
    ...corpora.map((c) => `${c.skills} (${c.failing})`),
    `${skills} (${failing})`,
  ];
  const table = [head, ...rows, totals, skillRow];
  const widths = head.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const line = (r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [
    `false positives: skills lint on ${skills} real skills in ${corpora.length} public collections, every rule at its default (findings per rule)`,
    ...table.map(line),
  ].join('\n');
}

function sum(counts) {
  return String(Object.values(counts).reduce((a, b) => a + b, 0));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = lintRealCorpora();
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(`${formatFalsePositives(result)}\n`);
  if (result.error) process.exitCode = 1;
}
