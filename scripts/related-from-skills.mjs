// Writes src/prompt/related-learned.ts: for each word skills use, the few words skills use in the same contexts, as
// stem → related stems, a second and weaker source of related words for selection beside the curated synonym table
// (synonyms.ts). Selection downloads and runs no model: this table is data, derived here once, offline, and
// committed. Neither the build nor the tests run this script (the tests import its pure parts).
//
// The source: the SKILL.md files of the agent-skills mirror (github.com/gabrielmoreira/agent-skills-mirror, its
// mirrors/repos folder, ~15,700 skills of ~570 repositories), read only. Never the evaluation requests
// (bench/selection): the vocabulary and every association come from skill text alone.
//
// The method, distributional and second-order (words used in the same contexts, "deck" and "slides"):
//   1. Deduplicate: many repositories copy the same skills, and a copy would count its words again. A skill is
//      skipped when its normalised description or its body's hash was seen before.
//   2. Units of text: the description, each heading, each paragraph, list item or table row of the body (the body's
//      first BODY_BYTES characters, code blocks skipped). Each is tokenised and stemmed with selection's own
//      text-match.ts (bundled here with esbuild): plain words of letters only, stop words and generic words out.
//   3. Vocabulary: the stems that MIN_SKILLS or more distinct skills use.
//   4. Co-occurrence: two vocabulary stems WINDOW words apart or closer inside one unit. Weights: positive PMI with
//      context distribution smoothing (the context's count to the power 0.75; Levy, Goldberg and Dagan 2015).
//   5. A truncated SVD of the PPMI matrix to DIMS dimensions (randomised: Halko, Martinsson and Tropp 2011; a few
//      lines with typed arrays), each word U·Σ^0.5, and cosine between them.
//   6. Each stem keeps its K nearest stems at THRESHOLD or over, best first (with --mutual, only a neighbour that
//      has the stem among its own K nearest).
//
// Re-run (a minute or two, ~2 GB of memory):
//
//   node --max-old-space-size=4000 scripts/related-from-skills.mjs \
//     --mirror /tmp/ext2/gabrielmoreira+agent-skills-mirror/mirrors/repos \
//     [--threshold 0.6] [--k 3] [--mutual 1] [--out src/prompt/related-learned.ts] [--dump vectors.json]
//
// (--rows vectors.json reads the vectors a --dump wrote, for another threshold or k without steps 4 and 5.)
//
// then `npx prettier --write src/prompt/related-learned.ts`. Change the stemmer and this table must be written again.
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { args, cosine, encodeTable, findSkillFiles, isPlainWord, loadTextMatch } from './related-from-embeddings.mjs';

// Shared with the embeddings' generator: cosine, the table's encoding ('key:a,b;key2:c'), plain words (three to
// twenty lower-case letters), finding SKILL.md files, selection's text-match.ts bundled for Node, the arguments.
export { cosine, encodeTable, isPlainWord };

export const DEFAULTS = {
  threshold: 0.6,
  k: 3,
  mutual: false,
  minSkills: 5,
  window: 5,
  dims: 200,
  bodyBytes: 4096,
  alpha: 0.75,
  seed: 1,
};

/** Frontmatter and body of a SKILL.md: { name, description, body } ('' where absent). */
export function splitSkill(md) {
  const fm = /^---\r?\n([\s\S]*?)\r?\n---[^\n]*\n?/.exec(md);
  const out = { name: '', description: '', body: fm ? md.slice(fm[0].length) : md };
  if (fm) {
    // Plain, quoted and folded values alike: the key's line and the indented lines after it.
    const m = /^(name|description):(.*(?:\r?\n[ \t]+.*)*)/gm;
    for (let x = m.exec(fm[1]); x; x = m.exec(fm[1]))
      out[x[1]] = x[2]
        .replace(/^\s*[>|][-+]?\s*/, '')
        .replace(/^\s*["']|["']\s*$/g, '')
        .replace(/\s+/g, ' ')
        .trim();
  }
  return out;
}

/**
 * Whether a skill is a copy of one seen before: its normalised description (lower case, words only) or its body's
 * hash is in `seen`; notes both. A skill with neither (no description, empty body) counts as a copy.
 */
export function isDuplicate(skill, seen) {
  const desc = skill.description
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  const body = skill.body.replace(/\s+/g, ' ').trim();
  const keys = [];
  if (desc) keys.push(`d:${desc}`);
  if (body) keys.push(`b:${createHash('sha1').update(body).digest('hex')}`);
  const dup = keys.length === 0 || keys.some((key) => seen.has(key));
  for (const key of keys) seen.add(key);
  return dup;
}

/**
 * The units of a skill's text: its description, then the body's first `bodyBytes` characters cut into headings,
 * paragraphs, list items and table rows; fenced code blocks, HTML comments and indented code skipped.
 */
export function units(skill, bodyBytes) {
  const out = [];
  if (skill.description) out.push(skill.description);
  let fence = false;
  let para = [];
  const flush = () => {
    if (para.length) out.push(para.join(' '));
    para = [];
  };
  const body = skill.body.slice(0, bodyBytes).replace(/<!--[\s\S]*?-->/g, '');
  for (const line of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fence = !fence;
      flush();
      continue;
    }
    if (fence || /^( {4}|\t)/.test(line)) continue;
    const t = line.trim();
    if (!t) flush();
    else if (/^(#{1,6}\s|[-*+]\s|\d+[.)]\s|\|)/.test(t)) {
      flush();
      para.push(t.replace(/^(#+|[-*+]|\d+[.)])\s*/, ''));
      flush();
    } else para.push(t);
  }
  flush();
  return out;
}

/**
 * Symmetric co-occurrence counts of vocabulary ids `window` tokens apart or closer in each sequence (a unit's
 * ids, -1 for a word outside the vocabulary, which still takes its place), into `counts` (per id, a Map of the
 * other id → count; one Map per row, since one Map holds at most 2^24 entries).
 */
export function cooccur(seqs, n, window, counts = Array.from({ length: n }, () => new Map())) {
  const add = (a, b) => counts[a].set(b, (counts[a].get(b) ?? 0) + 1);
  for (const seq of seqs)
    for (let i = 0; i < seq.length; i++) {
      const a = seq[i];
      if (a < 0) continue;
      for (let j = i + 1; j <= i + window && j < seq.length; j++) {
        const b = seq[j];
        if (b < 0 || b === a) continue;
        add(a, b);
        add(b, a);
      }
    }
  return counts;
}

/**
 * Positive PMI of the counts (per row w, a Map of c → count), with the context's count smoothed to the power
 * `alpha`: max(0, log(#(w,c)·Σ#(c)^α / (#(w)·#(c)^α))). Returns a sparse matrix by rows: { n, rowStart, col, val }.
 */
export function ppmi(counts, alpha) {
  const n = counts.length;
  const rowSum = new Float64Array(n);
  const colSum = new Float64Array(n);
  counts.forEach((row, w) => {
    for (const [c, x] of row) {
      rowSum[w] += x;
      colSum[c] += x;
    }
  });
  let colTotal = 0;
  const colPow = new Float64Array(n);
  for (let c = 0; c < n; c++) colTotal += colPow[c] = colSum[c] ** alpha;
  const rowStart = new Int32Array(n + 1);
  const cols = [];
  const vals = [];
  counts.forEach((row, w) => {
    for (const c of [...row.keys()].sort((x, y) => x - y)) {
      const pmi = Math.log((row.get(c) * colTotal) / (rowSum[w] * colPow[c]));
      if (pmi > 0) {
        cols.push(c);
        vals.push(pmi);
      }
    }
    rowStart[w + 1] = cols.length;
  });
  return { n, rowStart, col: Int32Array.from(cols), val: Float64Array.from(vals) };
}

/** A small seeded generator (mulberry32) of numbers in [0, 1). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sparse A (n×n) times dense columns X (array of Float64Array(n)); transposed: Aᵀ X. */
function mul(A, X, transposed) {
  const { n, rowStart, col, val } = A;
  return X.map((x) => {
    const y = new Float64Array(n);
    for (let r = 0; r < n; r++)
      for (let p = rowStart[r]; p < rowStart[r + 1]; p++)
        if (transposed) y[col[p]] += val[p] * x[r];
        else y[r] += val[p] * x[col[p]];
    return y;
  });
}

/** Orthonormal columns spanning X's (modified Gram-Schmidt, twice for accuracy); in place. */
function orthonormalize(X) {
  for (let pass = 0; pass < 2; pass++)
    for (let j = 0; j < X.length; j++) {
      const x = X[j];
      for (let i = 0; i < j; i++) {
        const q = X[i];
        let d = 0;
        for (let r = 0; r < x.length; r++) d += q[r] * x[r];
        for (let r = 0; r < x.length; r++) x[r] -= d * q[r];
      }
      let norm = 0;
      for (let r = 0; r < x.length; r++) norm += x[r] * x[r];
      norm = Math.sqrt(norm) || 1;
      for (let r = 0; r < x.length; r++) x[r] /= norm;
    }
  return X;
}

/** Eigenvalues and eigenvectors (columns of V, V[i*m+j]) of a symmetric m×m matrix S (cyclic Jacobi); S is spoilt. */
export function symmetricEigen(S, m) {
  const V = new Float64Array(m * m);
  for (let i = 0; i < m; i++) V[i * m + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < m; p++) for (let q = p + 1; q < m; q++) off += S[p * m + q] ** 2;
    if (off < 1e-20) break;
    for (let p = 0; p < m; p++)
      for (let q = p + 1; q < m; q++) {
        const apq = S[p * m + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (S[q * m + q] - S[p * m + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < m; k++) {
          const akp = S[k * m + p];
          const akq = S[k * m + q];
          S[k * m + p] = c * akp - s * akq;
          S[k * m + q] = s * akp + c * akq;
        }
        for (let k = 0; k < m; k++) {
          const apk = S[p * m + k];
          const aqk = S[q * m + k];
          S[p * m + k] = c * apk - s * aqk;
          S[q * m + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < m; k++) {
          const vkp = V[k * m + p];
          const vkq = V[k * m + q];
          V[k * m + p] = c * vkp - s * vkq;
          V[k * m + q] = s * vkp + c * vkq;
        }
      }
  }
  const values = Array.from({ length: m }, (_, i) => S[i * m + i]);
  return { values, V };
}

/**
 * Word vectors from a truncated SVD of sparse A: the first `dims` left singular vectors, each scaled by the square
 * root of its singular value (randomised range finder with `power` power iterations). Returns rows, Float32Array(dims).
 */
export function svdVectors(A, dims, { power = 2, seed = 1 } = {}) {
  const { n } = A;
  const l = Math.min(n, dims + 10);
  const rnd = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() || 1e-12)) * Math.cos(2 * Math.PI * rnd());
  let Y = orthonormalize(
    mul(
      A,
      Array.from({ length: l }, () => Float64Array.from({ length: n }, gauss)),
      false,
    ),
  );
  for (let i = 0; i < power; i++) Y = orthonormalize(mul(A, orthonormalize(mul(A, Y, true)), false));
  // B = Qᵀ A, as its rows' transposes (Aᵀ q); then B Bᵀ (l×l) = its eigenvectors W: U = Q W, σ = √λ.
  const Bt = mul(A, Y, true);
  const S = new Float64Array(l * l);
  for (let i = 0; i < l; i++)
    for (let j = i; j < l; j++) {
      let d = 0;
      for (let r = 0; r < n; r++) d += Bt[i][r] * Bt[j][r];
      S[i * l + j] = S[j * l + i] = d;
    }
  const { values, V } = symmetricEigen(S, l);
  const order = values
    .map((v, i) => [v, i])
    .sort((a, b) => b[0] - a[0])
    .slice(0, Math.min(dims, l));
  const rows = Array.from({ length: n }, () => new Float32Array(order.length));
  order.forEach(([lambda, e], d) => {
    const scale = Math.sqrt(Math.sqrt(Math.max(lambda, 0)));
    for (let i = 0; i < l; i++) {
      const w = V[i * l + e] * scale;
      if (w === 0) continue;
      const y = Y[i];
      for (let r = 0; r < n; r++) rows[r][d] += y[r] * w;
    }
  });
  return rows;
}

/**
 * The table: for each of `names` (stems) its `k` nearest others by cosine of `rows`, at `threshold` or over, best
 * first; with `mutual`, only those that also have the stem among their own k nearest. Map stem → stems, keys sorted.
 */
export function nearest(names, rows, { threshold, k, mutual }) {
  const n = names.length;
  const unit = rows.map((v) => {
    let norm = 0;
    for (let d = 0; d < v.length; d++) norm += v[d] * v[d];
    norm = Math.sqrt(norm) || 1;
    return Float32Array.from(v, (x) => x / norm);
  });
  const best = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    const a = unit[i];
    const found = best[i];
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const b = unit[j];
      let dot = 0;
      for (let d = 0; d < a.length; d++) dot += a[d] * b[d];
      if (dot < threshold || (found.length === k && dot <= found[k - 1][1])) continue;
      found.push([j, dot]);
      found.sort((x, y) => y[1] - x[1]);
      if (found.length > k) found.pop();
    }
  }
  const out = new Map();
  const order = names.map((s, i) => [s, i]).sort((x, y) => (x[0] < y[0] ? -1 : 1));
  for (const [s, i] of order) {
    const list = best[i].filter(([j]) => !mutual || best[j].some(([x]) => x === i)).map(([j]) => names[j]);
    if (list.length) out.set(s, list);
  }
  return out;
}

async function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const a = args(process.argv.slice(2));
  const num = (key, def) => (a[key] === undefined ? def : Number(a[key]));
  const o = {
    threshold: num('threshold', DEFAULTS.threshold),
    k: num('k', DEFAULTS.k),
    mutual: a.mutual === undefined ? DEFAULTS.mutual : a.mutual === '1',
    minSkills: num('min-skills', DEFAULTS.minSkills),
    window: num('window', DEFAULTS.window),
    dims: num('dims', DEFAULTS.dims),
    bodyBytes: num('body-bytes', DEFAULTS.bodyBytes),
    alpha: num('alpha', DEFAULTS.alpha),
    seed: num('seed', DEFAULTS.seed),
  };
  const out = a.out ?? join(root, 'src', 'prompt', 'related-learned.ts');
  if (!a.mirror) {
    console.error('usage: see the comment at the top of scripts/related-from-skills.mjs');
    process.exit(2);
  }
  const tm = await loadTextMatch(root);
  const stems = (text) =>
    tm
      .words(tm.normalizeForMatch(text))
      .filter((w) => !tm.isStopWord(w))
      .map((w) => (isPlainWord(w) && !tm.isWeakWord(w) ? tm.stem(w) : ''));

  // Every distinct skill's units, as stems ('' for a word that is no plain word: it keeps its place).
  const files = findSkillFiles(a.mirror).sort();
  const seen = new Set();
  const skills = [];
  for (const f of files) {
    let md;
    try {
      md = readFileSync(f, 'utf8');
    } catch {
      continue; // a mirror holds broken links
    }
    const skill = splitSkill(md);
    if (!isDuplicate(skill, seen)) skills.push(units(skill, o.bodyBytes).map(stems));
  }
  const df = new Map();
  for (const us of skills) for (const s of new Set(us.flat())) if (s) df.set(s, (df.get(s) ?? 0) + 1);
  const names = [...df].filter(([, d]) => d >= o.minSkills).map(([s]) => s);
  names.sort();
  const id = new Map(names.map((s, i) => [s, i]));
  const n = names.length;
  console.error(`${files.length} SKILL.md files, ${skills.length} distinct skills, ${n} stems in ${o.minSkills}+`);

  let rows;
  if (a.rows) rows = JSON.parse(readFileSync(a.rows, 'utf8')).rows;
  else {
    const counts = Array.from({ length: n }, () => new Map());
    for (const us of skills)
      cooccur(
        us.map((u) => u.map((s) => id.get(s) ?? -1)),
        n,
        o.window,
        counts,
      );
    const A = ppmi(counts, o.alpha);
    console.error(`${counts.reduce((t, r) => t + r.size, 0)} co-occurring pairs, ${A.val.length} with positive PMI`);
    rows = svdVectors(A, o.dims, { seed: o.seed });
    console.error('vectors done');
  }
  const table = nearest(names, rows, o);
  const encoded = encodeTable(table);
  console.error(
    `threshold ${o.threshold}, k ${o.k}${o.mutual ? ', mutual' : ''}: ${table.size} stems, ` +
      `${[...table.values()].reduce((s, l) => s + l.length, 0)} related stems, ${encoded.length} characters`,
  );
  writeFileSync(
    out,
    [
      `// Generated by scripts/related-from-skills.mjs: do not edit. Words used in the same contexts in the SKILL.md`,
      `// files of the agent-skills mirror (${skills.length} distinct skills): PPMI of stems ${o.window} words apart`,
      `// or closer, SVD to ${o.dims} dimensions, cosine ≥ ${o.threshold}, k ${o.k}${o.mutual ? ', mutual' : ''}; stems in ${o.minSkills}+ skills.`,
      "// Stem → its related stems, best first, as 'stem:a,b;stem:c': read by related-terms.ts on the first query.",
      `export const LEARNED_RELATED =\n  '${encoded}';\n`,
    ].join('\n'),
  );
  if (a.dump)
    writeFileSync(a.dump, JSON.stringify({ names, rows: rows.map((r) => Array.from(r, (x) => +x.toFixed(4))) }));
  console.error(`wrote ${out} (${statSync(out).size} bytes)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
