// lint side by side: with skill-check (bench/peers.mjs) on the real skill collections ($SKILLS_REAL_CORPORA), with
// our own validate at 100,000 skills (time and the most memory the process held), and with a bare read of skills
// whose bodies are 1 MB each.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realCollections } from '../false-positives.mjs';
import { writeCorpus } from '../generate.mjs';
import { benchTempDir, comparePair, log, mulberry32, nodeCommand, ratioAim, runOnce } from '../lib.mjs';
import { peer } from '../peers.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'bin', 'skills.js');
const READ_TREE = join(ROOT, 'bench', 'read-tree.mjs');
const RSS_HOOK = join(ROOT, 'bench', 'max-rss.cjs');
const BIG = 100_000;
const MIB = 1024 * 1024;

/** A command through sh that accepts exit 1 (findings) but not 2 (a failure). */
const findings = (args, label, env) => ({
  file: '/bin/sh',
  args: ['-c', `${args.map((a) => `'${a}'`).join(' ')} >/dev/null; test $? -le 1`],
  cwd: ROOT,
  label,
  env,
});
// One search finds 20,000 skills unless told otherwise (src/skill/discover.ts).
const UNBOUNDED = { SKILLS_MAX_SKILLS: '1000000', SKILLS_MAX_FOLDERS: '1000000', SKILLS_MAX_SEARCH_SECONDS: '3600' };

/** The most memory (resident set, MiB) one run of `node args…` held, read by the process itself at exit. */
function maxRssMiB(args, env = {}) {
  const out = join(benchTempDir(), `rss-${process.pid}.txt`);
  const r = runOnce({
    file: process.execPath,
    args: ['-r', RSS_HOOK, ...args],
    cwd: ROOT,
    env: { ...env, SKILLS_BENCH_RSS: out },
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`node ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  const kib = Number(readFileSync(out, 'utf8'));
  rmSync(out, { force: true });
  return kib / 1024;
}

let real;
/** The real collections, copied out once for every row, settled so that the result cache may keep them. */
async function realDirs() {
  if (real) return real;
  const c = realCollections();
  if (c.skipped) return (real = { missing: c.skipped });
  process.on('exit', c.cleanup);
  await settle();
  return (real = { dirs: c.collections.map((x) => x.dir), base: join(c.collections[0].dir, '..') });
}

let big;
async function bigCorpus() {
  if (big) return big;
  const root = join(benchTempDir(), 'lint-100k');
  log(`writing ${BIG} skills to ${root} …`);
  const stats = await writeCorpus(root, { count: BIG, seed: 7 });
  await settle();
  return (big = stats);
}

/** 20 SKILL.md skills with 1 MB bodies of prose, headings, lists and code, each with a script and a reference. */
export function hugeBodies(root = join(benchTempDir(), 'lint-1mb')) {
  const rand = mulberry32(5);
  const words =
    'the skill reads a file and writes the result into a table then checks every row against the schema before it'.split(
      ' ',
    );
  for (let i = 0; i < 20; i++) {
    const dir = join(root, `big-body-${i}`);
    mkdirSync(join(dir, 'scripts'), { recursive: true });
    mkdirSync(join(dir, 'references'), { recursive: true });
    writeFileSync(join(dir, 'scripts', 'run.sh'), '#!/bin/sh\nset -eu\necho run\n', { mode: 0o755 });
    writeFileSync(join(dir, 'references', 'guide.md'), '# Guide\n\nRead this when the table is wrong.\n');
    const parts = [
      `---\nname: big-body-${i}\ndescription: Check very long tables of data against a schema. Use when the user asks to check a table.\n---\n\n# Big body ${i}\n\nRun \`scripts/run.sh\` and read [the guide](references/guide.md).\n\n`,
    ];
    let size = parts[0].length;
    for (let s = 0; size < MIB; s++) {
      let para = `## Section ${s}\n\n`;
      for (let l = 0; l < 8; l++) {
        const line = Array.from({ length: 12 }, () => words[rand.int(words.length)]).join(' ');
        para += l % 4 === 3 ? `- ${line}\n` : `${line}.\n`;
      }
      if (s % 5 === 0) para += '\n```sh\nscripts/run.sh --table data.csv\n```\n';
      para += '\n';
      parts.push(para);
      size += para.length;
    }
    writeFileSync(join(dir, 'SKILL.md'), parts.join(''));
  }
  return root;
}

/** Long enough for lint's result cache to keep what it reads of files written just now (src/fs/user-cache.ts). */
const SETTLE_MS = 2200;
const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));
const WARM_NOTE = "warm: lint's result cache was filled by the warm-up run, as by the last commit's pre-commit hook";
const COLD_NOTE = 'cold: --no-cache, every skill linted afresh (the token cache is still warm)';

/** lint of the real collections against skill-check's check: warm (the result cache filled), or cold. */
const realRow = (cold) => ({
  name: `lint the real skills${cold ? ', cold (--no-cache)' : ''}: skills over skill-check`,
  aim: ratioAim(1.0),
  async run() {
    const sc = peer('skill-check');
    if (sc.missing) return { missing: sc.missing };
    const r = await realDirs();
    if (r.missing) return { missing: r.missing };
    const result = await comparePair({
      measured: findings(
        [process.execPath, CLI, 'lint', ...r.dirs, '--format', 'json', ...(cold ? ['--no-cache'] : [])],
        `skills lint --format json${cold ? ' --no-cache' : ''}`,
      ),
      baseline: findings(
        [sc.file, ...sc.args, 'check', r.base, '--format', 'json', '--no-security-scan'],
        `${sc.label} check --format json --no-security-scan`,
      ),
      runs: 5,
      warmups: 1,
    });
    result.notes = [
      `the ${r.dirs.length} collections of $SKILLS_REAL_CORPORA, every rule of each tool at its default`,
      cold ? COLD_NOTE : WARM_NOTE,
    ];
    return result;
  },
});

/** lint of 20 skills with 1 MB bodies against reading their files: warm (the result cache filled), or cold. */
const hugeRow = (cold) => ({
  name: `lint 20 skills with 1 MB bodies${cold ? ', cold (--no-cache)' : ''}: over reading the files`,
  aim: ratioAim(2.0),
  async run() {
    const root = await hugeOnce();
    const result = await comparePair({
      measured: findings(
        [process.execPath, CLI, 'lint', root, '--format', 'json', ...(cold ? ['--no-cache'] : [])],
        `skills lint --format json${cold ? ' --no-cache' : ''}`,
      ),
      baseline: nodeCommand([READ_TREE, root], { label: 'read the files alone' }),
      runs: 5,
      warmups: 1,
    });
    result.notes = [
      'the token cache is warm after the first run, as after any earlier lint or render-prompt',
      cold ? COLD_NOTE : WARM_NOTE,
    ];
    return result;
  },
});

let huge;
/** The 1 MB skills, written once for both rows, settled so that the result cache may keep them. */
async function hugeOnce() {
  if (huge) return huge;
  const root = hugeBodies();
  await settle();
  return (huge = root);
}

export const rows = [
  realRow(false),
  realRow(true),
  {
    name: `lint ${BIG.toLocaleString('en-US')} small skills: over validate of the same (and its most memory)`,
    aim: {
      kind: 'ratio',
      max: 1.5,
      text: '≤ 1.5x, < 400 MiB',
      met: (r) => r.ratio <= 1.5 && r.rssMiB < 400,
    },
    async run() {
      const c = await bigCorpus();
      const result = await comparePair({
        measured: findings(
          [process.execPath, CLI, 'lint', c.root, '--format', 'json'],
          'skills lint --format json',
          UNBOUNDED,
        ),
        baseline: findings(
          [process.execPath, CLI, 'validate', c.root, '--format', 'json'],
          'skills validate --format json',
          UNBOUNDED,
        ),
        runs: 3,
        warmups: 1,
      });
      result.rssMiB = maxRssMiB([CLI, 'lint', c.root, '--format', 'json'], UNBOUNDED);
      const validateRss = maxRssMiB([CLI, 'validate', c.root, '--format', 'json'], UNBOUNDED);
      result.notes = [
        `${c.skills} generated skills, ${c.files} files; most memory: lint ${result.rssMiB.toFixed(0)} MiB, validate ${validateRss.toFixed(0)} MiB`,
        `${WARM_NOTE}; the most memory is of a warm run too`,
      ];
      return result;
    },
  },
  hugeRow(false),
  hugeRow(true),
];
