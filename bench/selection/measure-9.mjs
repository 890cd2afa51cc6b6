// One measurement of bench/selection/real-queries-9.json on a built CLI: top-1 (the first skill selected is
// expected), top-3 (an expected skill is among the 3 selected), MRR (1/rank of the first expected skill selected,
// 0 when none is) over the requests some skill fits, and the share of no-fit requests that select nothing.
// Aggregates only: the set was blind when this measured it (open since the tenth), and its misses are not printed.
// Usage: node bench/selection/measure-9.mjs <bin/skills.js of the CLI to measure> <folder>... (the four
// collections extracted, as for draw-9.mjs).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [cli, ...folders] = process.argv.slice(2);
const set = JSON.parse(readFileSync(join(import.meta.dirname, 'real-queries-9.json'), 'utf8'));
const fit = { n: 0, top1: 0, top3: 0, rr: 0, empty: 0 };
const none = { n: 0, empty: 0 };
for (const { query, expected } of set) {
  const out = execFileSync(
    process.execPath,
    [
      cli,
      'render-prompt',
      '-q',
      '--query',
      query,
      ...folders,
      '--no-registry',
      '--max-skills',
      '3',
      '--format',
      'json',
    ],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const selected = JSON.parse(out).selected.map((s) => s.name);
  if (expected.length === 0) {
    none.n++;
    if (selected.length === 0) none.empty++;
    continue;
  }
  const names = expected.map((id) => id.slice(id.indexOf('/') + 1)); // selected names skills, not collections
  const rank = selected.findIndex((name) => names.includes(name)) + 1;
  fit.n++;
  if (rank === 1) fit.top1++;
  if (rank >= 1 && rank <= 3) fit.top3++;
  if (rank >= 1) fit.rr += 1 / rank;
  if (selected.length === 0) fit.empty++;
}
const pct = (a, b) => `${a}/${b} (${((100 * a) / b).toFixed(1)}%)`;
console.log(`fit requests: ${fit.n}`);
console.log(`top-1: ${pct(fit.top1, fit.n)}`);
console.log(`top-3: ${pct(fit.top3, fit.n)}`);
console.log(`MRR: ${(fit.rr / fit.n).toFixed(3)}`);
console.log(`fit requests selecting nothing: ${pct(fit.empty, fit.n)}`);
console.log(`no-fit requests selecting nothing: ${pct(none.empty, none.n)}`);
