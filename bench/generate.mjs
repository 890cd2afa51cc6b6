// Synthetic skills for the benchmarks, of both layouts. Everything comes from the PRNG passed in, so a seed
// always gives the same tree; every skill written here is meant to validate without errors.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32, yieldToEvents } from './lib.mjs';

const VERBS = ['convert', 'summarize', 'extract', 'format', 'check', 'render', 'merge', 'split', 'translate', 'index'];
const NOUNS = [
  'pdf',
  'invoice',
  'changelog',
  'csv',
  'diagram',
  'commit',
  'ticket',
  'schema',
  'report',
  'image',
  'mail',
  'log',
];
const WHEN = ['asks to', 'wants to', 'needs to', 'mentions that they must'];
const OWNERS = ['built-in', 'acme', 'data-team', 'ops'];
const PATTERN_SAFE = ['\\b{verb}\\s+\\w+', '{noun}s?\\b', '^{verb}\\b'];

const fill = (s, w) => s.replaceAll('{verb}', w.verb).replaceAll('{noun}', w.noun);
const version = (rand) => `${rand.int(4)}.${rand.int(20)}.${rand.int(10)}`;
const title = (s) => s.replace(/(^|-)(\w)/g, (_, sep, c) => (sep ? ' ' : '') + c.toUpperCase());
// JSON strings are valid YAML double-quoted scalars: no hand-escaping of colons, quotes or backslashes.
const yamlString = (s) => JSON.stringify(s);

/** The verb and nouns a skill is about; pass them to the writers to name the folder after them too. */
export function drawWords(rand) {
  return { verb: rand.pick(VERBS), noun: rand.pick(NOUNS), other: rand.pick(NOUNS) };
}

function describe(w, rand) {
  return `${title(w.verb)} ${w.noun} files into ${w.other} form and check the result. Use when the user ${rand.pick(WHEN)} ${w.verb} the ${w.noun}.`;
}

function body(w, rand) {
  const steps = 2 + rand.int(4);
  const lines = [
    `# ${title(`${w.verb}-${w.noun}`)}`,
    '',
    `Turns a ${w.noun} into ${w.other} form.`,
    '',
    '## Steps',
    '',
  ];
  for (let i = 1; i <= steps; i++)
    lines.push(`${i}. ${title(rand.pick(VERBS))} the ${rand.pick(NOUNS)} (step ${i} of ${steps}).`);
  lines.push('', '## Notes', '', `Keep the original ${w.noun}; write the ${w.other} next to it.`, '');
  return lines.join('\n');
}

function write(file, text, mode) {
  writeFileSync(file, text);
  if (mode) chmodSync(file, mode);
}

function writeScript(dir, name, w) {
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  write(join(dir, 'scripts', name), `#!/bin/sh\n# ${w.verb} a ${w.noun}\nset -eu\necho "${w.verb} $1"\n`, 0o755);
}

/**
 * Write one SKILL.md skill named `name` into `parent/name`; extras (metadata, triggers, scripts…) by chance,
 * or always when `options.script` / `options.reference` say so. `options.words` from drawWords, else drawn.
 */
export function writeSkillMdSkill(parent, name, rand, options = {}) {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  const w = options.words ?? drawWords(rand);
  const fm = [`name: ${name}`, `description: ${yamlString(describe(w, rand))}`];
  if (rand.chance(0.3)) fm.push(`version: ${yamlString(version(rand))}`);
  if (rand.chance(0.15)) fm.push('license: MIT');
  if (rand.chance(0.4))
    fm.push('metadata:', `  author: ${yamlString(rand.pick(OWNERS))}`, `  version: ${yamlString(version(rand))}`);
  if (rand.chance(0.25)) {
    fm.push('triggers:', `  keywords: [${w.noun}, ${w.other}]`, `  verbs: [${w.verb}]`);
    if (rand.chance(0.5)) fm.push(`  patterns: [${yamlString(fill(rand.pick(PATTERN_SAFE), w))}]`);
  }
  const files = ['SKILL.md'];
  if (rand.chance(0.3) || options.script) {
    writeScript(dir, 'x.sh', w);
    files.push('scripts/x.sh');
    if (rand.chance(0.5)) fm.push('scripts:', '  - scripts/x.sh');
  }
  if (rand.chance(0.3) || options.reference) {
    mkdirSync(join(dir, 'references'));
    write(
      join(dir, 'references', 'r.md'),
      `# ${title(w.noun)} reference\n\nFields of a ${w.noun}: id, date, ${w.other}.\n`,
    );
    files.push('references/r.md');
  }
  write(join(dir, 'SKILL.md'), `---\n${fm.join('\n')}\n---\n\n${body(w, rand)}`);
  return { dir, layout: 'skill-md', files };
}

/** Write one manifest.json skill with id `id` into `parent/id`; scripts and envVars (+ .env.example) by chance. */
export function writeManifestSkill(parent, id, rand, options = {}) {
  const dir = join(parent, id);
  mkdirSync(join(dir, 'context'), { recursive: true });
  const w = options.words ?? drawWords(rand);
  const manifest = {
    id,
    name: title(id),
    version: version(rand),
    description: describe(w, rand),
    owner: rand.pick(OWNERS),
    context: ['context/instructions.md'],
  };
  const files = ['manifest.json', 'context/instructions.md'];
  write(join(dir, 'context', 'instructions.md'), body(w, rand));
  if (rand.chance(0.4)) {
    writeScript(dir, 'run.sh', w);
    manifest.scripts = ['scripts/run.sh'];
    files.push('scripts/run.sh');
  }
  if (rand.chance(0.25)) {
    manifest.envVars = [`${w.noun.toUpperCase()}_API_KEY`];
    if (rand.chance(0.5)) manifest.envVars.push(`${w.other.toUpperCase()}_TOKEN`);
    write(join(dir, '.env.example'), manifest.envVars.map((v) => `${v}=`).join('\n') + '\n');
    files.push('.env.example');
  }
  write(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, layout: 'manifest', files };
}

/**
 * Write `count` skills side by side into `root`, alternating SKILL.md and manifest.json, from `seed`.
 * Yields to the event loop now and then so that Ctrl-C can clean up.
 */
export async function writeCorpus(root, { count, seed = 42 }) {
  const rand = mulberry32(seed);
  mkdirSync(root, { recursive: true });
  const stats = { root, skills: 0, skillMd: 0, manifest: 0, files: 0 };
  for (let i = 0; i < count; i++) {
    const words = drawWords(rand);
    const name = `${words.verb}-${words.noun}-${String(i).padStart(5, '0')}`;
    const write = i % 2 === 0 ? writeSkillMdSkill : writeManifestSkill;
    const skill = write(root, name, rand, { words });
    stats.skills++;
    stats[skill.layout === 'skill-md' ? 'skillMd' : 'manifest']++;
    stats.files += skill.files.length;
    if (i % 250 === 249) await yieldToEvents();
  }
  return stats;
}

/** One small SKILL.md skill (with a script and a reference) for the cold-start rows; returns its folder. */
export function writeOneSkill(parent, { seed = 42, name = 'bench-one' } = {}) {
  return writeSkillMdSkill(parent, name, mulberry32(seed), { script: true, reference: true }).dir;
}

/**
 * A registry of `skills` skills, as a version 1 index.json document (releases inside the entries; writeRegistry
 * splits it into the current format) with `versions`
 * versions each, from `seed`. The skills form `depth` layers; every version of a skill in one layer depends on two
 * or three skills of the next, so dependency chains run `depth` deep. The newest minor of each major (x.4.0)
 * asks for ranges the others do not, so the newest choice often conflicts and a resolver has to step back; every
 * 1.0.0 asks only for ^1, so a resolution always exists. `rootSpec` is a spec that resolves through all layers.
 */
export function generateRegistryIndex({ skills = 10_000, versions = 10, depth = 10, seed = 42 } = {}) {
  const rand = mulberry32(seed);
  const perLayer = Math.ceil(skills / depth);
  const majors = Math.max(1, Math.ceil(versions / 5));
  // Newest first: 2.4.0 … 2.0.0, 1.4.0 … 1.0.0 for ten versions.
  const list = [];
  for (let major = majors; major >= 1 && list.length < versions; major--) {
    for (let minor = 4; minor >= 0 && list.length < versions; minor--) list.push(`${major}.${minor}.0`);
  }
  const ids = [];
  for (let i = 0; i < skills; i++) {
    const w = drawWords(rand);
    ids.push(`${w.verb}-${w.noun}-${String(i).padStart(5, '0')}`);
  }
  const day = (n) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString();
  const entries = ids.map((id, i) => {
    const layer = Math.floor(i / perLayer);
    const next = ids.slice((layer + 1) * perLayer, (layer + 2) * perLayer);
    const releases = {};
    list.forEach((version, k) => {
      const w = drawWords(rand);
      const dependencies = [];
      if (next.length > 0) {
        const count = 2 + rand.int(2);
        for (let d = 0; d < count; d++) {
          const target = rand.pick(next);
          const range =
            version === '1.0.0'
              ? '^1'
              : version.endsWith('.4.0')
                ? rand.chance(0.5)
                  ? `^${majors}`
                  : '>=1.3.0 <2'
                : rand.chance(0.5)
                  ? '^1'
                  : `^${majors} || ^1`;
          if (!dependencies.some((s) => s.startsWith(`${target}@`))) dependencies.push(`${target}@${range}`);
        }
      }
      const owner = i % 7 === 0 ? rand.pick(OWNERS.slice(1)) : 'built-in';
      const release = {
        integrity: `sha512-${Buffer.from(Array.from({ length: 64 }, () => rand.int(256))).toString('base64')}`,
        layout: i % 2 === 0 ? 'skill-md' : 'manifest',
        name: i % 2 === 0 ? id : title(id),
        description: describe(w, rand),
        dependencies,
        path: `${owner === 'built-in' ? 'built-in' : 'custom'}/${id}@${version}`,
        registeredAt: day(list.length - k),
      };
      if (rand.chance(0.25)) release.triggers = { keywords: [w.noun, w.other], verbs: [w.verb] };
      if (rand.chance(0.2)) release.nodeVersion = '>=18.0.0';
      releases[version] = release;
    });
    return {
      id,
      versions: [...list],
      latestVersion: list[0],
      owner: i % 7 === 0 ? 'acme' : 'built-in',
      usedBy: i % 5 === 0 ? [`agent-${i % 13}`] : [],
      registeredAt: day(0),
      updatedAt: day(list.length),
      releases,
    };
  });
  return { index: { version: 1, skills: entries }, rootSpec: `${ids[0]}@^${majors}` };
}

/**
 * Write generateRegistryIndex's registry to `dir` in the registry's format (version 2): `index.json` with seed
 * 000's fields and the latest version's summary (triggers included, as render-prompt reads them), and
 * `releases/<id>.json` with every version of each skill. Stored copies only with `copies: true`, and then of the
 * latest version alone (what render-prompt loads for the skills it selects; resolve and list need none).
 * Deterministic: the same options give the same bytes.
 */
export function writeRegistry(dir, options = {}) {
  mkdirSync(join(dir, 'releases'), { recursive: true });
  const { index, rootSpec } = generateRegistryIndex(options);
  index.skills.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const skills = index.skills.map(({ releases, ...entry }) => {
    writeFileSync(
      join(dir, 'releases', `${entry.id}.json`),
      `${JSON.stringify({ id: entry.id, releases }, null, 2)}\n`,
    );
    const r = releases[entry.latestVersion];
    if (options.copies) writeStoredCopy(join(dir, r.path), entry.id, entry.latestVersion, r);
    return {
      ...entry,
      latest: {
        layout: r.layout,
        name: r.name,
        description: r.description,
        path: r.path,
        ...(r.triggers ? { triggers: r.triggers } : {}),
      },
    };
  });
  writeFileSync(join(dir, 'index.json'), `${JSON.stringify({ version: 2, skills }, null, 2)}\n`);
  return { dir, rootSpec, skills: skills.length, releases: skills.reduce((n, s) => n + s.versions.length, 0) };
}

/** A small stored copy of one release: its skill file and a short body (render-prompt's full tier reads it). */
function writeStoredCopy(root, id, version, r) {
  mkdirSync(root, { recursive: true });
  const body = `# ${title(id)}\n\n${r.description}\n\n## Steps\n\n1. Read the input.\n2. Write the result next to it.\n`;
  if (r.layout === 'skill-md') {
    writeFileSync(
      join(root, 'SKILL.md'),
      `---\nname: ${id}\ndescription: ${yamlString(r.description)}\nversion: ${yamlString(version)}\n---\n\n${body}`,
    );
  } else {
    mkdirSync(join(root, 'context'), { recursive: true });
    writeFileSync(join(root, 'context', 'instructions.md'), body);
    const manifest = {
      id,
      name: r.name,
      version,
      description: r.description,
      owner: 'built-in',
      context: ['context/instructions.md'],
    };
    writeFileSync(join(root, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  }
}

/**
 * One SKILL.md skill of `files` files (SKILL.md, a script, and reference pages of 1–6 KB of seeded prose) in
 * `parent/name`, for the pack and install rows; returns its folder and the bytes written.
 */
export function writeBigSkill(parent, { seed = 42, name = 'bench-big', files = 1000 } = {}) {
  const rand = mulberry32(seed);
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  const w = drawWords(rand);
  write(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${yamlString(describe(w, rand))}\nmetadata:\n  version: "1.0.0"\n---\n\n${body(w, rand)}`,
  );
  writeScript(dir, 'run.sh', w);
  let bytes = 0;
  const vocabulary = [
    ...VERBS,
    ...NOUNS,
    ...WHEN.join(' ').split(' '),
    'the',
    'a',
    'of',
    'and',
    'with',
    'when',
    'file',
    'field',
    'value',
    'step',
  ];
  for (let i = 0; i < files - 2; i++) {
    const folder = join(dir, 'references', `part-${String(Math.floor(i / 50)).padStart(2, '0')}`);
    if (i % 50 === 0) mkdirSync(folder, { recursive: true });
    const words = [];
    const target = 1000 + rand.int(5000);
    for (let n = 0; n < target; n += words.at(-1).length + 1) words.push(rand.pick(vocabulary));
    const text = `# Page ${i}\n\n${words.join(' ')}\n`;
    write(join(folder, `page-${String(i).padStart(4, '0')}.md`), text);
    bytes += text.length;
  }
  return { dir, files, bytes };
}
