// Side by side with openskills (bench/peers.mjs): 10,000 skill folders in a project's .claude/skills, listed and
// written as a catalog into AGENTS.md. Both tools run in the same project with the same empty HOME, so each reads
// the same 10,000 folders where it looks for skills (openskills: ./.agent/skills, ~/.agent/skills, ./.claude/skills,
// ~/.claude/skills; skills: ./.agents/skills, ./.claude/skills, ./.agent/skills, ./skills and the same below HOME).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawWords, writeSkillMdSkill } from '../generate.mjs';
import {
  benchTempDir,
  comparePair,
  firstLines,
  log,
  mulberry32,
  nodeCommand,
  ratioAim,
  runOnce,
  yieldToEvents,
} from '../lib.mjs';
import { peer } from '../peers.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'bin', 'skills.js');
const SEED = 42;
const COUNT = 10_000;
const N = COUNT.toLocaleString('en-US');

let fixture;
/** The project (10,000 SKILL.md folders in .claude/skills, written once) and an empty HOME; checked untimed. */
async function folders(os) {
  if (fixture) return fixture;
  const base = join(benchTempDir(), 'folders');
  const project = join(base, 'project');
  const home = join(base, 'home');
  const dir = join(project, '.claude', 'skills');
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  log(`writing ${COUNT} skill folders to ${dir} …`);
  // SKILL.md only: openskills reads nothing else. The same generator and seed as the validate row's SKILL.md half.
  const rand = mulberry32(SEED);
  for (let i = 0; i < COUNT; i++) {
    const words = drawWords(rand);
    writeSkillMdSkill(dir, `${words.verb}-${words.noun}-${String(i).padStart(5, '0')}`, rand, { words });
    if (i % 250 === 249) await yieldToEvents();
  }
  // Our code cache lives below HOME (XDG_CACHE_HOME unset): the warm-up run fills it, as ~/.cache does for the others.
  const env = { HOME: home, XDG_CACHE_HOME: '', SKILLS_REGISTRY: '' };
  const ours = (args, label) => nodeCommand([CLI, ...args], { cwd: project, env, label });
  const theirs = (args, label) => ({ file: os.file, args: [...os.args, ...args], cwd: project, env, label });
  // A benchmark where one side finds fewer skills (or fails) would time something else: check both once.
  const listed = runOnce(ours(['list', '--json']));
  const found = listed.status === 0 ? JSON.parse(listed.stdout).skills.length : undefined;
  const peerListed = runOnce(theirs(['list']));
  if (found !== COUNT || !peerListed.stdout.includes(`(${COUNT} total)`))
    throw new Error(
      `the ${COUNT} skill folders are not all found: skills list finds ${found ?? `none (exit ${listed.status}: ${firstLines(listed.stderr, 5)})`}; openskills says ${firstLines(peerListed.stdout.split('\n').at(-2) ?? '', 1) || firstLines(peerListed.stderr, 5)}`,
    );
  return (fixture = { project, ours, theirs });
}

/** `sh -c 'rm -f AGENTS.md && …'`: each run writes the file afresh, as the first sync of a project does. */
const afresh = (cmd, label) => ({
  file: '/bin/sh',
  args: ['-c', `rm -f AGENTS.md && ${[cmd.file, ...cmd.args].map((a) => `'${a}'`).join(' ')} >/dev/null`],
  cwd: cmd.cwd,
  env: cmd.env,
  label,
});

/** A row timing one of our commands against one of openskills, both in the project of `folders`. */
const againstOpenskills = (name, measured, baseline, note) => ({
  name,
  aim: ratioAim(1.0),
  async run() {
    const os = peer('openskills');
    if (os.missing) return { missing: os.missing };
    const f = await folders(os);
    const result = await comparePair({ measured: measured(f), baseline: baseline(f, os), runs: 5, warmups: 1 });
    result.notes = [note];
    return result;
  },
});

const sync = (f, os) => afresh(f.theirs(['sync', '-y']), `${os.label} sync -y`);

export const rows = [
  againstOpenskills(
    `list of ${N} skill folders: skills list over openskills list`,
    (f) => f.ours(['list'], 'skills list'),
    (f, os) => f.theirs(['list'], `${os.label} list`),
    `${N} SKILL.md folders in ./.claude/skills, HOME empty, output to a pipe. skills list shows each skill as validate judges it (the ✖ of an invalid one): loaded and validated in full on a first run, then from its cache (~/.cache/skills/list-<hash>.json, checked against the identity of every path each row was made from; the warm-up run fills it), and prints one table row each (id, version, layout, owner, scope, used by, description cut to 100 columns); openskills list reads each SKILL.md and takes its description: line with a regular expression, two lines per skill`,
  ),
  againstOpenskills(
    `catalog of ${N} skill folders: render-prompt (metadata tier, stdout) over openskills sync`,
    (f) => f.ours(['render-prompt', '--tier', 'catalog'], 'skills render-prompt --tier catalog'),
    sync,
    `the folders of the list row. skills reads each skill's frontmatter (YAML; after the warm-up run from its cache, ~/.cache/skills/catalog-<hash>.json, one stat per SKILL.md) and prints the catalog (name, description, location) with its token count to a pipe; openskills sync -y reads each SKILL.md's description: line by a regular expression and writes the <available_skills> block into a new AGENTS.md`,
  ),
  againstOpenskills(
    `catalog of ${N} skill folders into AGENTS.md: render-prompt --write over openskills sync`,
    (f) => afresh(f.ours(['render-prompt', '--write', 'AGENTS.md']), 'skills render-prompt --write AGENTS.md'),
    sync,
    `the same job on both sides: the catalog written into a new AGENTS.md (ours: a managed block, locations relative to the file, every location checked to lie inside its folder, the token count)`,
  ),
];
