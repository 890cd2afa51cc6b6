// The benchmark rows. Usage: node bench/run.mjs [--only <substring>]... [--json]
// `npm run bench` builds first. A missed aim is reported, not failed: exit 0. A benchmark that cannot run
// honestly (a command fails, the generated skills do not validate) exits 1.
// After the table: selection accuracy (bench/selection.mjs) and, when SKILLS_REAL_CORPORA names a folder of real
// skill collections, selection on them (bench/selection-real.mjs), when SKILLS_OTHER_CORPORA names the collections
// it was never tuned on, selection on those (bench/selection-other.mjs), and lint's findings per rule on the real
// collections (bench/false-positives.mjs).
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeBigSkill, writeCorpus, writeOneSkill, writeRegistry } from './generate.mjs';
import {
  benchTempDir,
  caUnsetNote,
  comparePair,
  firstLines,
  formatTable,
  log,
  machineInfo,
  minRatioAim,
  noAim,
  nodeCommand,
  ratioAim,
  removeTempDir,
  runOnce,
  timeAim,
} from './lib.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin', 'skills.js');
const READ_TREE = join(ROOT, 'bench', 'read-tree.mjs');
const SEED = 42;
const CORPUS_SIZE = 10_000;
const REGISTRY = { skills: 10_000, versions: 10, depth: 10 };
const RENDER_QUERY = 'convert this pdf invoice';

const node = (args, label) => nodeCommand(args, { cwd: ROOT, label });
const bareNode = node(['-e', '0'], 'node -e 0');

/** The result, with a note of what the same pair takes with NODE_EXTRA_CA_CERTS unset where it is set (caUnsetNote). */
async function withCaNote(result, pair) {
  const note = await caUnsetNote(pair);
  if (note) (result.notes ??= []).push(note);
  return result;
}

// Each row: a name (matched by --only), an aim, and run(fixtures) → comparePair's result (+ optional notes).
const ROWS = [
  {
    name: 'cold start: skills --version',
    aim: ratioAim(1.1),
    run: () =>
      comparePair({ measured: node([CLI, '--version'], 'skills --version'), baseline: bareNode, runs: 20, warmups: 3 }),
  },
  {
    name: 'cold start: skills validate <one skill>',
    aim: ratioAim(1.3),
    run: (fx) =>
      comparePair({
        measured: node([CLI, 'validate', fx.oneSkill()], 'skills validate <one>'),
        baseline: bareNode,
        runs: 20,
        warmups: 3,
      }),
  },
  {
    // What the Node 20 code cache (bin/skills.js) saves: the same run with the cache turned off, over the cached run.
    // At 1.0x or more the cache pays for itself. (On Node >= 22.1, Node's own compile cache is used instead.)
    name: 'code cache: skills validate <one skill>, cache off over on',
    aim: minRatioAim(1.0),
    run: (fx) =>
      comparePair({
        measured: nodeCommand([CLI, 'validate', fx.oneSkill()], {
          cwd: ROOT,
          label: 'SKILLS_COMPILE_CACHE=0 skills validate <one>',
          env: { SKILLS_COMPILE_CACHE: '0' },
        }),
        baseline: node([CLI, 'validate', fx.oneSkill()], 'skills validate <one>'),
        runs: 20,
        warmups: 3,
      }),
  },
  {
    name: `validate ${CORPUS_SIZE.toLocaleString('en-US')} small skills (one process)`,
    aim: timeAim(1500),
    async run(fx) {
      const corpus = await fx.corpus();
      const result = await comparePair({
        measured: node([CLI, 'validate', corpus.root, '--format', 'json'], 'skills validate <dir> --format json'),
        baseline: node([READ_TREE, corpus.root], 'read the files alone'),
        runs: 3,
        warmups: 1,
      });
      result.notes = [
        `${corpus.skills} skills (${corpus.skillMd} SKILL.md, ${corpus.manifest} manifest.json), ${corpus.files} files, seed ${SEED}`,
      ];
      if (corpus.warnings) result.notes.push(`the generated skills have ${corpus.warnings} warnings (expected none)`);
      return result;
    },
  },
  {
    name: `lint ${CORPUS_SIZE.toLocaleString('en-US')} small skills (one process)`,
    aim: timeAim(3000),
    async run(fx) {
      const corpus = await fx.corpus();
      // lint exits 1 when a rule finds an error; the corpus is made valid, so any exit but 0 fails the row.
      const result = await comparePair({
        measured: node([CLI, 'lint', corpus.root, '--format', 'json'], 'skills lint <dir> --format json'),
        baseline: node([READ_TREE, corpus.root], 'read the files alone'),
        runs: 3,
        warmups: 1,
      });
      result.notes = [`the same ${corpus.skills} skills as the validate row, every lint rule at its default`];
      return result;
    },
  },
  {
    name: `resolve against ${REGISTRY.skills.toLocaleString('en-US')} skills × ${REGISTRY.versions} versions, chains ${REGISTRY.depth} deep`,
    aim: timeAim(500),
    async run(fx) {
      const reg = fx.registry();
      const pair = {
        measured: node([CLI, 'resolve', reg.rootSpec, '--registry', reg.dir], `skills resolve ${reg.rootSpec}`),
        baseline: bareNode,
        runs: 5,
        warmups: 1,
      };
      const result = await comparePair(pair);
      result.notes = [
        `${reg.resolved} skills resolved from an index.json of ${reg.skills} skills (${reg.megabytes} MB) and their releases files (${reg.releases} versions in all, ${reg.releasesMegabytes} MB), seed ${SEED}`,
      ];
      return withCaNote(result, pair);
    },
  },
  {
    name: 'list of that index',
    aim: timeAim(500),
    async run(fx) {
      const reg = fx.registry();
      const pair = {
        // From the registry folder, which holds no skill folders of the project scope.
        measured: nodeCommand([CLI, 'list', '--registry', reg.dir, '--json'], {
          cwd: reg.dir,
          label: 'skills list --registry <dir> --json',
        }),
        baseline: bareNode,
        runs: 5,
        warmups: 1,
      };
      const result = await comparePair(pair);
      result.notes = [
        `the index.json of the resolve row (${reg.skills} skills, ${reg.megabytes} MB); no releases file is read`,
      ];
      return withCaNote(result, pair);
    },
  },
  {
    name: `render-prompt --query over ${CORPUS_SIZE.toLocaleString('en-US')} skills in folders`,
    aim: timeAim(1000),
    async run(fx) {
      const corpus = await fx.corpus();
      const pair = {
        measured: node(
          [CLI, 'render-prompt', '--query', RENDER_QUERY, corpus.root],
          'skills render-prompt --query <q> <dir>',
        ),
        baseline: bareNode,
        runs: 5,
        warmups: 1,
      };
      const result = await comparePair(pair);
      result.notes = [
        `the corpus of the validate row, metadata first; the selected skills loaded in full; the prompt's o200k_base size from the token cache that the warm-up run filled; query ${JSON.stringify(RENDER_QUERY)}`,
      ];
      return withCaNote(result, pair);
    },
  },
  {
    name: `render-prompt --query from the registry index (${REGISTRY.skills.toLocaleString('en-US')} skills)`,
    aim: timeAim(300),
    async run(fx) {
      const reg = fx.registry();
      const pair = {
        // From the registry folder, which holds no skill folders of the project scope.
        measured: nodeCommand([CLI, 'render-prompt', '--query', RENDER_QUERY, '--registry', reg.dir], {
          cwd: reg.dir,
          label: 'skills render-prompt --query <q> --registry <dir>',
        }),
        baseline: bareNode,
        runs: 5,
        warmups: 1,
      };
      const result = await comparePair(pair);
      result.notes = [
        `the index.json of the resolve row (latest summaries with triggers); no releases file read; the selected skills' stored copies loaded; the prompt's size from the token cache`,
      ];
      return withCaNote(result, pair);
    },
  },
  {
    name: 'pack a 1,000-file skill',
    aim: ratioAim(2),
    run: (fx) => {
      const big = fx.bigSkill();
      const result = comparePair({
        measured: node([CLI, 'pack', big.dir, '--out', big.out], 'skills pack <dir>'),
        baseline: {
          file: 'tar',
          args: ['czf', join(big.out, 'baseline.tgz'), '-C', big.parent, big.name],
          cwd: big.parent,
          label: 'tar czf',
        },
        runs: 5,
        warmups: 1,
      });
      return result.then((r) => ({
        ...r,
        notes: [
          `${big.files} files, ${(big.bytes / 1e6).toFixed(1)} MB of seeded prose, seed ${SEED}; both gzip at level 6`,
        ],
      }));
    },
  },
  // Issue 18 aims at the 10,000-file archive. At 1,000 files tar takes ~40 ms, about what starting Node takes, so
  // that row shows the fixed cost of an install and has no aim of its own.
  installTgzRow(1000, noAim('fixed costs: tar xzf here takes about as long as node -e 0')),
  installTgzRow(10_000, ratioAim(2)),
];

/**
 * install <tgz> of the big skill of `files` files against `tar xzf` of the same archive, each from nothing: each run
 * gets a new folder of the project, made by the timed command (`mktemp -d`), and unpacks there (install into a project
 * of its own: `.agents/skills/.unpack-…`, moved into place by a rename, and its lock; tar into the folder itself).
 * Nothing is removed until the bench ends (with its temp folder). An ext4 without a journal (this machine's) skips
 * the inodes freed in the last ~30 s each time it creates a file (recently_deleted), scanning them from the start of
 * the block group, so a run that follows the removal of 10,000 files pays seconds of system time for that scan
 * alone, and which side pays more depends on where the kernel put each side's folders: with each side removing its
 * own last output before it unpacked, the same code measured 2.37x one run and 0.40x the next. The CPU time (user +
 * system) is printed beside the wall time.
 */
function installTgzRow(files, aim) {
  return {
    name: `install a ${files.toLocaleString('en-US')}-file skill from its .tgz`,
    aim,
    run: (fx) => {
      const big = fx.bigSkill(files);
      // Each run starts from nothing, in a folder made new for it: no agent folder and no lock for install (a project
      // install, as users run it: no registry asked for, so the skill is placed into .agents/skills), an empty
      // folder for tar.
      const sh = (script, label) => ({ file: '/bin/sh', args: ['-c', script], cwd: big.project, label });
      const result = comparePair({
        measured: sh(
          `d=$(mktemp -d install-XXXXXX) && cd "$d" && "${process.execPath}" "${CLI}" install "${big.tgz}" -q`,
          'skills install <tgz>',
        ),
        baseline: sh(`d=$(mktemp -d tar-XXXXXX) && tar xzf "${big.tgz}" -C "$d"`, 'tar xzf'),
        runs: 5,
        warmups: 1,
      });
      return result.then((r) => ({
        ...r,
        notes: [
          `${big.files} files, ${(big.bytes / 1e6).toFixed(1)} MB, packed by skills pack, each run in a new folder, nothing removed until the bench ends: installed into a project with no agent folder (unpack into a new folder in .agents/skills, check every entry, validate, hash, move into place, lock) vs. unpacking alone into a new folder`,
        ],
      }));
    },
  };
}

// Fixtures are made on first use, so that `--only cold` does not write 10,000 skills.
function fixtures() {
  const bigs = new Map();
  let one;
  let corpus;
  let registry;
  return {
    oneSkill: () => (one ??= writeOneSkill(join(benchTempDir(), 'one'), { seed: SEED })),
    bigSkill: (files = 1000) => {
      if (!bigs.has(files)) bigs.set(files, makeBigSkill(files));
      return bigs.get(files);
    },
    corpus: () => (corpus ??= makeCorpus()),
    registry: () => (registry ??= makeRegistry()),
  };
}

/** A big skill (1,000 files unless told), packed once untimed (a pack that fails would time the error path). */
function makeBigSkill(files = 1000) {
  const tag = files === 1000 ? '' : `-${files}`;
  const parent = join(benchTempDir(), `big${tag}`);
  const skill = writeBigSkill(parent, { seed: SEED, files });
  const out = join(benchTempDir(), `big-out${tag}`);
  const project = join(benchTempDir(), `big-project${tag}`);
  mkdirSync(project, { recursive: true });
  const r = runOnce(node([CLI, 'pack', skill.dir, '--out', out, '--json']));
  if (r.status !== 0) {
    log(`skills pack fails on the generated skill (exit code ${r.status}):\n${firstLines(r.stderr || r.stdout, 10)}`);
    process.exit(1);
  }
  return { ...skill, parent, name: 'bench-big', out, project, tgz: JSON.parse(r.stdout).file };
}

function makeRegistry() {
  const dir = join(benchTempDir(), 'registry');
  log(`writing a registry of ${REGISTRY.skills} skills × ${REGISTRY.versions} versions to ${dir} …`);
  // Stored copies of the latest versions: render-prompt loads those of the skills it selects.
  const reg = writeRegistry(dir, { ...REGISTRY, seed: SEED, copies: true });
  // A spec that does not resolve would time the error path: check once, untimed.
  const r = runOnce(node([CLI, 'resolve', reg.rootSpec, '--registry', dir, '--json']));
  let resolved;
  try {
    resolved = JSON.parse(r.stdout).resolved?.length;
  } catch {
    resolved = undefined;
  }
  if (r.status !== 0 || !resolved) {
    log(
      `skills resolve ${reg.rootSpec} fails on the generated registry (exit code ${r.status}):\n${firstLines(r.stderr || r.stdout, 10)}`,
    );
    process.exit(1);
  }
  const megabytes = (statSync(join(dir, 'index.json')).size / 1e6).toFixed(1);
  const releasesMegabytes = (
    readdirSync(join(dir, 'releases')).reduce((n, f) => n + statSync(join(dir, 'releases', f)).size, 0) / 1e6
  ).toFixed(1);
  return { ...reg, resolved, megabytes, releasesMegabytes };
}

async function makeCorpus() {
  const root = join(benchTempDir(), 'corpus');
  log(`writing ${CORPUS_SIZE} skills to ${root} …`);
  const stats = await writeCorpus(root, { count: CORPUS_SIZE, seed: SEED });
  // A generator that writes invalid skills would time the error path: check once, untimed.
  const r = runOnce(node([CLI, 'validate', root, '--format', 'json']));
  let report;
  try {
    report = JSON.parse(r.stdout);
  } catch {
    report = undefined;
  }
  const found = report?.skills?.length;
  if (r.status !== 0 || found !== stats.skills) {
    log(
      `the generated skills do not validate (exit code ${r.status}, ${found ?? '?'} of ${stats.skills} skills found):`,
    );
    const errors = (report?.skills ?? []).flatMap((s) =>
      s.diagnostics
        .filter((d) => d.severity === 'error')
        .map((d) => `  ${relative(root, d.file)}${d.line ? `:${d.line}` : ''}  ${d.ruleId} ${d.message}`),
    );
    log(errors.length ? errors.slice(0, 10).join('\n') : firstLines(r.stderr || r.stdout, 10));
    process.exit(1);
  }
  return { ...stats, warnings: report.warningCount ?? 0 };
}

function parseCli() {
  try {
    return parseArgs({
      options: {
        only: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    log(`${err.message}\nusage: node bench/run.mjs [--only <substring>]... [--json]`);
    process.exit(2);
  }
}

/**
 * The rows of bench/rows/*.mjs, after the rows above: each file exports `rows`, an array of the same shape, whose
 * run(fx) may also return `{ missing: reason }` when a peer it compares against cannot be had.
 */
async function moreRows() {
  const dir = join(ROOT, 'bench', 'rows');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.mjs'))
    .sort();
  const lists = await Promise.all(files.map(async (f) => (await import(pathToFileURL(join(dir, f)).href)).rows));
  return lists.flat();
}

async function main() {
  const opts = parseCli();
  ROWS.push(...(await moreRows()));
  if (opts.help) {
    log(
      `usage: node bench/run.mjs [--only <substring>]... [--json]\nrows:\n${ROWS.map((r) => `  ${r.name}`).join('\n')}`,
    );
    return;
  }
  const only = (opts.only ?? []).map((s) => s.toLowerCase());
  const rows = only.length ? ROWS.filter((r) => only.some((s) => r.name.toLowerCase().includes(s))) : ROWS;
  if (rows.length === 0) {
    log(`no row matches --only ${opts.only.join(', ')}; rows:\n${ROWS.map((r) => `  ${r.name}`).join('\n')}`);
    process.exitCode = 2;
    return;
  }
  const machine = machineInfo();
  const fx = fixtures();
  const results = [];
  for (const row of rows) {
    log(`running: ${row.name}`);
    const r = await row.run(fx);
    if (r.missing) log(`  not measured: ${r.missing}`);
    results.push({
      name: row.name,
      ...r,
      aim: row.aim.text,
      verdict: r.missing ? 'NOT MEASURED' : row.aim.info ? '-' : row.aim.met(r) ? 'ok' : 'MISSED',
    });
  }
  removeTempDir();
  // Not a timed row: how many queries of the selection set put the expected skill first (bench/selection.mjs).
  const sel = only.length ? undefined : await import('./selection.mjs');
  const selection = await sel?.selectionAccuracy();
  // Nor this: top-1, top-3, MRR and no-fit on real requests over the real collections (bench/selection-real.mjs).
  const real = only.length ? undefined : await import('./selection-real.mjs');
  const realSelection = await real?.realSelection();
  // And on collections it was never tuned on, named by $SKILLS_OTHER_CORPORA (bench/selection-other.mjs).
  const other = only.length ? undefined : await import('./selection-other.mjs');
  const otherSelection = await other?.otherSelection();
  // Not a timed row either: lint's findings per rule on the real skill collections named by $SKILLS_REAL_CORPORA
  // (bench/false-positives.mjs); without it, one line says it was skipped.
  const fp = only.length ? undefined : await import('./false-positives.mjs');
  const falsePositives = fp?.lintRealCorpora();
  if (opts.json)
    process.stdout.write(
      `${JSON.stringify({ machine, seed: SEED, rows: results.map(toJson), ...(selection ? { selection } : {}), ...(realSelection ? { realSelection: { ...realSelection, rows: undefined, secondRows: undefined } } : {}), ...(otherSelection ? { otherSelection } : {}), ...(falsePositives ? { falsePositives } : {}) }, null, 2)}\n`,
    );
  else
    process.stdout.write(
      `${formatTable(machine, results)}\n${selection ? `${sel.formatSelection(selection)}\n` : ''}${realSelection ? `${real.formatRealSelection(realSelection)}\n` : ''}${otherSelection ? `${other.formatOtherSelection(otherSelection)}\n` : ''}${falsePositives ? `\n${fp.formatFalsePositives(falsePositives)}\n` : ''}`,
    );
}

const ms = (x) => Math.round(x * 100) / 100;
const side = (s) => ({
  label: s.label,
  medianMs: ms(s.median),
  minMs: ms(s.min),
  samplesMs: s.samples.map(ms),
  ...(s.cpu ? { cpuMedianMs: ms(s.cpu.median), cpuMinMs: ms(s.cpu.min), cpuSamplesMs: s.cpu.samples.map(ms) } : {}),
});

function toJson(r) {
  if (r.missing) return { name: r.name, missing: r.missing, aim: r.aim, verdict: r.verdict, notes: r.notes ?? [] };
  return {
    name: r.name,
    measured: side(r.measured),
    baseline: side(r.baseline),
    ratio: Math.round(r.ratio * 1000) / 1000,
    ...(r.cpuRatio === undefined ? {} : { cpuRatio: Math.round(r.cpuRatio * 1000) / 1000 }),
    aim: r.aim,
    verdict: r.verdict,
    notes: r.notes ?? [],
  };
}

main().catch((err) => {
  log(err?.stack ?? String(err));
  process.exitCode = 1;
});
