// skills serve over MCP (stdio, the SDK's own client): skills/list of 10,000 generated skills (every page, every
// file digested) against the same work in one process with no protocol (frontmatter and sha256 of every file), and
// resources/read round trips against reading and digesting the same files in process.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCorpus } from '../generate.mjs';
import { benchTempDir, comparePair, log, nodeCommand, ratioAim, runOnce, summarize } from '../lib.mjs';

const WORK = fileURLToPath(new URL('../serve-work.mjs', import.meta.url));
const COUNT = 10_000;
const READS = 1_000;
let corpus;

async function skills() {
  if (!corpus) {
    corpus = join(benchTempDir(), 'serve', 'skills');
    mkdirSync(corpus, { recursive: true });
    log(`writing ${COUNT} skills to ${corpus} …`);
    await writeCorpus(corpus, { count: COUNT, seed: 7 });
  }
  return corpus;
}

/** Run a mode that prints a number; the number (checked to be one). */
function printed(mode, dir, ...args) {
  const r = runOnce(nodeCommand([WORK, mode, dir, ...args.map(String)]));
  const v = Number(r.stdout.trim());
  if (r.status !== 0 || !Number.isFinite(v)) throw new Error(`${mode}: exit ${r.status}: ${r.stderr.slice(0, 500)}`);
  return v;
}

export const rows = [
  {
    name: `skills serve: skills/list of ${COUNT.toLocaleString('en-US')} skills over stdio, every page`,
    aim: ratioAim(3),
    async run() {
      const dir = await skills();
      // Both sides must see every skill, or the row times something else.
      for (const mode of ['list-mcp', 'list-local'])
        if (printed(mode, dir) !== COUNT) throw new Error(`${mode} does not find the ${COUNT} skills`);
      const result = await comparePair({
        measured: nodeCommand([WORK, 'list-mcp', dir], { label: 'skills serve + skills/list (all pages)' }),
        baseline: nodeCommand([WORK, 'list-local', dir], { label: 'frontmatter + sha256 of every file, in process' }),
        runs: 3,
        warmups: 1,
      });
      result.notes = [
        `${COUNT} generated skills (half SKILL.md, half manifest.json), seed 7; both sides start a node process, the measured one also the server, and page 100 skills at a time`,
      ];
      return result;
    },
  },
  {
    name: `skills serve: ${READS.toLocaleString('en-US')} resources/read round trips over stdio`,
    aim: ratioAim(50),
    async run() {
      const dir = await skills();
      const mcp = [];
      const local = [];
      for (let i = 0; i < 4; i++) {
        const a = printed('read-mcp', dir, READS);
        const b = printed('read-local', dir, READS);
        if (i > 0) {
          mcp.push(a);
          local.push(b);
        }
      }
      const m = summarize(mcp);
      const base = summarize(local);
      return {
        measured: { label: `${READS} resources/read of SKILL.md (after connecting)`, ...m },
        baseline: { label: `${READS} reads + sha256 of the same files, in process`, ...base },
        ratio: m.median / base.median,
        notes: ['timed inside the client: the protocol round trip (JSON-RPC over a pipe) against a plain read'],
      };
    },
  },
];
