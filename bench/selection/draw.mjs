// The draw behind a blind selection set (real-queries-N.json), written blind to the selection code: every selectable
// skill of the four collections once, in a seeded shuffle (mulberry32 of bench/lib.mjs), then further shuffles of the
// same list until --draws draws (164); one request was written for each draw, in this order. The eleventh set is seed
// 35 (118 skills), the tenth seed 32; the ninth was seed 31, drawn when `skills list` showed one skill-creator of the
// two (117 skills, not 118 as now), so seed 31 no longer gives its draw. The sets over other collections
// (other-queries-N.json) take the seed, --draws and folders (in that order) that other-collections.json gives for them:
// the first seed 33, the second seed 34, the third seed 36, each 150.
// Usage: node bench/selection/draw.mjs --seed N [--draws 164] <folder>... (the collections extracted, one folder
// each, named as in the ids: anthropics+skills, obra+superpowers, openai+skills, trailofbits+skills). Prints one id a
// line.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { mulberry32 } from '../lib.mjs';

const { values, positionals } = parseArgs({
  options: { seed: { type: 'string' }, draws: { type: 'string', default: '164' } },
  allowPositionals: true,
});
const SEED = Number(values.seed);
const DRAWS = Number(values.draws);
if (!Number.isSafeInteger(SEED) || !Number.isSafeInteger(DRAWS) || DRAWS < 1 || positionals.length === 0) {
  console.error('usage: node bench/selection/draw.mjs --seed N [--draws 164] <folder>...');
  process.exit(2);
}

function shuffle(list, random) {
  const a = list.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

const folders = positionals.map((f) => resolve(f));
const cli = join(import.meta.dirname, '..', '..', 'bin', 'skills.js');
const { skills } = JSON.parse(
  execFileSync(process.execPath, [cli, 'list', ...folders, '--json'], { encoding: 'utf8' }),
);
const ids = [];
for (const skill of skills) {
  const folder = folders.find((f) => !relative(f, skill.path).startsWith('..' + sep));
  const text = readFileSync(join(skill.path, 'SKILL.md'), 'utf8');
  const front = text.startsWith('---') ? text.split(/^---\s*$/m)[1] : '';
  if (/^disable-model-invocation:\s*true\s*$/m.test(front)) continue; // never selected
  if (skill.id === 'template-skill') continue; // anthropics' empty template: no problem it solves
  ids.push(`${basename(folder)}/${skill.id}`);
}
ids.sort();
const random = mulberry32(SEED);
const draws = [];
while (draws.length < DRAWS) draws.push(...shuffle(ids, random).slice(0, DRAWS - draws.length));
process.stdout.write(draws.join('\n') + '\n');
