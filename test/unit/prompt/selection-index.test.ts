// The registry's selection index (src/prompt/selection-index.ts, selection-prefilter.ts): selection that reads only
// the skills the index says a query may reach ranks, explains and selects exactly as selection that reads them all;
// an index written from another index.json, or damaged, is never used.
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { IndexEntry } from '../../../src/formats/index-file.js';
import { buildCatalog, type Catalog } from '../../../src/prompt/catalog.js';
import { candidateOf, selectSkills } from '../../../src/prompt/select.js';
import { parseQuery } from '../../../src/prompt/select-query.js';
import {
  SELECTION_INDEX_FILE,
  followRegistryIndex,
  indexIdentity,
  readSelectionIndex,
  selectionIndexText,
  type Row,
} from '../../../src/prompt/selection-index.js';
import { SELECTION_INDEX_VERSION, stem } from '../../../src/prompt/text-match.js';
import { followIndex, unfollowIndex } from '../../../src/registry/followers.js';
import { readIndex } from '../../../src/registry/index-io.js';
import { registerSkill, registerSkills } from '../../../src/registry/register.js';
import { removeSkill } from '../../../src/registry/remove.js';
import { readFolder } from '../../../src/skill/light.js';
import { loadSkill } from '../../../src/skill/load.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';
// @ts-expect-error: a bench script in plain JavaScript, without types
import { writeRegistry } from '../../../bench/generate.mjs';
// @ts-expect-error: a bench script in plain JavaScript, without types
import { realCollections } from '../../../bench/false-positives.mjs';

const { fresh, cleanup } = tempFolders('skills-selection-index-');
afterAll(cleanup);

const ROOT = resolve(__dirname, '../../..');
const FIXTURE_SKILLS = join(ROOT, 'test/fixtures/selection/skills');

type Latest = IndexEntry['latest'];
/** An index.json entry of one version, with the latest summary given. */
function entry(id: string, latest: Partial<Latest> & { description: string }): IndexEntry {
  return {
    id,
    versions: ['1.0.0'],
    latestVersion: '1.0.0',
    owner: 'custom',
    usedBy: [],
    registeredAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
    latest: { layout: 'skill-md', name: id, path: `custom/${id}@1.0.0`, ...latest },
  };
}

/** Skills that reach a query other than by a word of their descriptions: what the prefilter must never rule out. */
const CRAFTED: IndexEntry[] = [
  entry('test-driven-development', { description: 'Red, green, refactor: a failing check first.' }),
  entry('how-to-guide', { description: 'Guides.', triggers: { keywords: ['how to'] } }),
  entry('asking-skill', { description: 'Answers.', triggers: { verbs: ['asking'] } }),
  entry('invoice-numbers', {
    description: 'Books numbered documents.',
    triggers: { patterns: ['invoice\\s+\\d+', '(?<=x)y'] },
  }),
  entry('resume-builder', { description: 'Résumé builder: naïve CV layouts.', triggers: { keywords: ['résumé'] } }),
  entry('japanese-files', {
    description: 'PDFファイルを変換します。',
    triggers: { keywords: ['ファイル変換', "a'1", 'pdf'] },
  }),
  entry('cpp-helper', { description: 'Helps with templates.', triggers: { keywords: ['c++'] } }),
  entry('slide-deck', { description: 'Make a slide deck from notes.', briefDescription: 'Decks.' }),
  entry('hidden-helper', { description: 'Converts invoices quietly.', hidden: true }),
  // Shadowed by the folder skill of the same name: its row is not a candidate.
  entry('web-scraping', { description: 'A registry copy that the folder skill hides.' }),
  entry('it', { description: 'Stop words only, as a name.' }),
];

/** Index entries for the skills of folders (read as the catalog reads them), each id once. */
function entriesOf(dirs: string[], taken: Set<string>): IndexEntry[] {
  const out: IndexEntry[] = [];
  for (const dir of dirs) {
    for (const e of readFolder({ dir, scope: 'project' }, [])) {
      if (taken.has(e.name) || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(e.name)) continue;
      taken.add(e.name);
      out.push(
        entry(e.name, {
          layout: e.layout,
          name: e.title,
          description: e.description,
          ...(e.briefDescription ? { briefDescription: e.briefDescription } : {}),
          ...(e.triggers ? { triggers: e.triggers } : {}),
        }),
      );
    }
  }
  return out;
}

/** A registry of generated skills, the crafted ones, the selection fixture's, and the real collections when given. */
function makeRegistry(realDirs: string[]): string {
  const dir = fresh('registry');
  writeRegistry(dir, { skills: 400, versions: 1, depth: 1, seed: 7 });
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { version: 2; skills: IndexEntry[] };
  const taken = new Set(index.skills.map((e) => e.id));
  for (const e of CRAFTED) taken.add(e.id);
  index.skills.push(...CRAFTED, ...entriesOf([FIXTURE_SKILLS, ...realDirs], taken));
  index.skills.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  writeFileSync(join(dir, 'index.json'), JSON.stringify(index));
  return dir;
}

function queries(): string[] {
  const out = new Set<string>([
    'TDD for the parser',
    'how to write a guide',
    'I keep asking about answers',
    'file invoice 42 please',
    'build my résumé',
    'ファイル変換をお願い',
    "a'1 and 変換",
    'c++ templates',
    'a presentation about sales',
    'write a haiku about autumn',
    'the',
    'it',
    'convert this pdf invoice',
    'Résumé in Lisbon, "quoted words" and Moby Dick',
    `${'scrape prices '.repeat(200)}`,
    '',
  ]);
  for (const f of ['real-queries.json', 'real-queries-2.json', 'real-queries-3.json']) {
    for (const q of JSON.parse(readFileSync(join(ROOT, 'bench/selection', f), 'utf8')) as { query: string }[])
      out.add(q.query);
  }
  for (const q of JSON.parse(readFileSync(join(ROOT, 'test/fixtures/selection/queries.json'), 'utf8')) as {
    query: string;
  }[])
    out.add(q.query);
  return [...out];
}

/** The catalog as render-prompt builds it for a query: the fixture's folder skills, then the registry's. */
const catalogOf = (registry: string): Catalog =>
  buildCatalog({ folders: [{ dir: FIXTURE_SKILLS, scope: 'project' }], registry, bodies: true });

describe('selection from the registry selection index', () => {
  const real = realCollections() as { collections?: { name: string; dir: string }[]; cleanup?: () => void };
  afterAll(() => real.cleanup?.());
  const registry = makeRegistry((real.collections ?? []).map((c) => c.dir));

  it('is made and written by the first selection that finds none, which reads it as the next does', () => {
    const first = catalogOf(registry);
    // Made from index.json and used at once, as the next run reads it (the registry's bodies are read through it).
    expect(first.mayMatch).toBeDefined();
    const index = readSelectionIndex(registry);
    expect(index).toBeDefined();
    const second = catalogOf(registry);
    expect(second.mayMatch).toBeDefined();
    // The same catalog either way: entries, hidden and shadowed skills, warnings, the registry's run.
    const { mayMatch: _a, ...a } = first;
    const { mayMatch: _b, ...b } = second;
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    const registryRun = b.registryRun;
    // Read from its selection index, the registry's entries are a run whose count can be kept (tier-tokens.ts).
    expect(registryRun?.from).toBe(b.entries.findIndex((e) => e.scope === 'registry'));
    // Its key names the rows left out: those the fixture's skills shadow, and the hidden ones.
    const listed = new Set(b.entries.filter((e) => e.scope === 'registry').map((e) => e.name));
    const left = index!.rows.flatMap((r, i) => (listed.has(r[0]) ? [] : [`${i},`])).join('');
    expect(left.split(',').length).toBeGreaterThan(b.shadowed.length);
    expect(registryRun?.key).toBe(`${registry}\n${index!.header}\n${left}`);
  });

  it('ranks, explains and selects exactly as reading every skill, for every request of the evaluation sets', () => {
    const catalog = catalogOf(registry);
    expect(catalog.mayMatch).toBeDefined();
    const candidates = catalog.entries.map(candidateOf);
    let read = 0;
    let counted = 0;
    let all = 0;
    for (const q of queries()) {
      const plain = selectSkills(q, candidates, { max: 3 });
      const fast = selectSkills(q, candidates, { max: 3, mayMatch: catalog.mayMatch });
      // JSON reads every ranked skill's `matched` (what --explain prints) and `below`, and the warnings.
      expect(JSON.stringify(fast), q).toBe(JSON.stringify(plain));
      const reach = catalog.mayMatch!(parseQuery(q.slice(0, 2000)));
      if (reach) {
        read += reach.may.reduce((n, x, i) => n + (x && !reach.counted[i] ? 1 : 0), 0);
        counted += reach.may.reduce((n, x, i) => n + (x && reach.counted[i] ? 1 : 0), 0);
        all += reach.may.length;
      }
    }
    // Not a test that passes by reading everything: most skills are ruled out for most requests, and most of those
    // reached are scored from the index's counts, not read word by word.
    expect((read + counted) / all).toBeLessThan(0.5);
    expect(counted).toBeGreaterThan(read);
  });

  it('never rules out a skill that a trigger, a pattern, an acronym or a stop-word keyword selects', () => {
    const catalog = catalogOf(registry);
    const candidates = catalog.entries.map(candidateOf);
    const picked = (q: string) =>
      selectSkills(q, candidates, { max: 5, mayMatch: catalog.mayMatch }).ranked.map((r) => r.name);
    expect(picked('TDD for the parser')).toContain('test-driven-development');
    expect(picked('how to write a guide')).toContain('how-to-guide');
    expect(picked('file invoice 42 please')).toContain('invoice-numbers');
    expect(picked('build my résumé')).toContain('resume-builder');
    expect(picked('ファイル変換をお願い')).toContain('japanese-files');
    expect(picked('I keep asking about answers')).toContain('asking-skill');
  });
});

describe('a selection index that does not fit is not used', () => {
  const base = (): string => {
    const dir = fresh('stale');
    writeFileSync(
      join(dir, 'index.json'),
      JSON.stringify({ version: 2, skills: CRAFTED.slice(0, 4).sort((a, b) => (a.id < b.id ? -1 : 1)) }),
    );
    catalogOf(dir);
    expect(readSelectionIndex(dir)).toBeDefined();
    return dir;
  };

  it('is stale once index.json is rewritten, and rebuilt by the next selection', () => {
    const dir = base();
    const text = readFileSync(join(dir, 'index.json'), 'utf8');
    writeFileSync(join(dir, 'index.json'), text.replace('Guides.', 'Guides for all.'));
    expect(readSelectionIndex(dir)).toBeUndefined();
    // Not read: this selection makes one afresh from index.json, and uses it.
    const catalog = catalogOf(dir);
    expect(catalog.mayMatch).toBeDefined();
    expect(catalog.entries.find((e) => e.name === 'how-to-guide')?.description).toBe('Guides for all.');
    expect(readSelectionIndex(dir)?.rows.find((r) => r[0] === 'how-to-guide')?.[4]).toBe('Guides for all.');
  });

  it("is foreign when copied from another registry, or written by another version's tokenizer", () => {
    const a = base();
    const b = base();
    writeFileSync(join(b, SELECTION_INDEX_FILE), readFileSync(join(a, SELECTION_INDEX_FILE)));
    expect(readSelectionIndex(b)).toBeUndefined();
    const c = base();
    const text = readFileSync(join(c, SELECTION_INDEX_FILE), 'utf8');
    writeFileSync(
      join(c, SELECTION_INDEX_FILE),
      text.replace(`"version":${SELECTION_INDEX_VERSION}`, `"version":${SELECTION_INDEX_VERSION + 1}`),
    );
    expect(readSelectionIndex(c)).toBeUndefined();
  });

  it('is damaged when a row names a path out of the store or an id that is none, or is cut short', () => {
    const damage = (edit: (text: string) => string) => {
      const dir = base();
      const file = join(dir, SELECTION_INDEX_FILE);
      const identity = indexIdentity(dir);
      writeFileSync(file, edit(readFileSync(file, 'utf8')));
      expect(indexIdentity(dir)).toBe(identity);
      return readSelectionIndex(dir);
    };
    expect(damage((t) => t.replace('custom/how-to-guide@1.0.0', '../../etc'))).toBeUndefined();
    expect(damage((t) => t.replace('"how-to-guide"', '"How To"'))).toBeUndefined();
    expect(damage((t) => t.slice(0, t.indexOf('\n') + 20))).toBeUndefined();
    expect(damage((t) => t.replace(/"skills":\d+/, '"skills":99'))).toBeUndefined();
    expect(damage(() => 'not an index\n[]\n')).toBeUndefined();
    // Rows edited, the header's length of them made to fit: an id twice is damage, wherever it is.
    const rows = (edit: (rows: Row[]) => void) => (text: string) => {
      const [head, line, ...rest] = text.split('\n');
      const list = JSON.parse(line!) as Row[];
      edit(list);
      const json = JSON.stringify(list);
      return [JSON.stringify({ ...JSON.parse(head!), rowsLength: json.length }), json, ...rest].join('\n');
    };
    expect(damage(rows(() => {}))).toBeDefined();
    expect(damage(rows((r) => void (r[1]![0] = r[0]![0])))).toBeUndefined();
    expect(damage(rows((r) => void (r[r.length - 1]![0] = r[0]![0])))).toBeUndefined();
    // Out of order but each once (no writer of ours puts them so): read.
    expect(damage(rows((r) => void ([r[0], r[1]] = [r[1]!, r[0]!])))?.rows).toHaveLength(damage((t) => t)!.rows.length);
  });

  it('is damaged when the line of a stem is, though still well formed, and then rebuilt', () => {
    const dir = base();
    const file = join(dir, SELECTION_INDEX_FILE);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\ntguid\t[^\n]*/, '\ntzz\t0'));
    expect(readSelectionIndex(dir)).toBeUndefined();
    const catalog = catalogOf(dir);
    // Made afresh from index.json, with the stem's line whole.
    const guide = catalog.entries.findIndex((e) => e.name === 'how-to-guide');
    expect(catalog.mayMatch!(parseQuery('a guide please'))?.may[guide]).toBe(1);
    expect(catalogOf(dir).mayMatch!(parseQuery('a guide please'))?.may[catalog.entries.length - 1]).toBeDefined();
  });

  it("reads a stem's rows from their base-36 steps, and rules nothing out by a line whose steps are not rows", () => {
    const dir = base();
    const file = join(dir, SELECTION_INDEX_FILE);
    const [header, rows, ...lines] = readFileSync(file, 'utf8').split('\n');
    // A line with its digest made right, as a writer that is not this one could leave it.
    const withLine = (line: string) => {
      const stems = `${[...lines.filter((l) => l !== ''), line].sort().join('\n')}\n`;
      const h = JSON.parse(header!) as { stems: string };
      h.stems = createHash('sha1').update(stems).digest('base64url');
      writeFileSync(file, `${JSON.stringify(h)}\n${rows}\n${stems}`);
      return readSelectionIndex(dir)!;
    };
    // Four rows (0 to 3): 0, then +1, +2 is 3; and a step of several digits.
    expect(withLine('tplanted\t0,1,2').holding('tplanted')).toEqual([0, 1, 3]);
    expect(withLine('tplanted\t1').holding('tplanted')).toEqual([1]);
    expect(withLine('tplanted\t1').holding('tother')).toEqual([]);
    for (const bad of ['0,0', '1,,1', '', '4', '1,2,1', 'A', '1-', '0,z', '00,1,0']) {
      expect(withLine(`tplanted\t${bad}`).holding('tplanted'), bad).toBeNull();
    }
    expect(withLine('tplanted\t01').holding('tplanted')).toEqual([1]);
  });

  it("finds every key's line, and no line for a key it does not hold, in a registry of many skills", () => {
    const dir = fresh('many');
    writeRegistry(dir, { skills: 400, versions: 1, depth: 1, seed: 5 });
    catalogOf(dir);
    const index = readSelectionIndex(dir)!;
    const lines = index.stemsText().split('\n').slice(0, -1);
    expect(lines.length).toBeGreaterThan(500);
    const keys = new Set(lines.map((l) => l.slice(0, l.indexOf('\t'))));
    for (const line of lines) {
      const key = line.slice(0, line.indexOf('\t'));
      const rows = index.holding(key)!;
      expect(rows.length, key).toBeGreaterThan(0);
      expect(index.counts(key)!.rows).toEqual(rows);
      for (const near of [`${key}0`, `${key} `, key.slice(0, -1), `${key.slice(0, -1)}~`, ' ', '~'])
        if (!keys.has(near)) expect(index.holding(near), near).toEqual([]);
    }
  });

  it('is not written into a registry the user cannot write, and the catalog is read all the same', () => {
    if (process.getuid?.() === 0) {
      // root writes anywhere: the folder is made unwritable by replacing the file with a folder instead.
      const dir = base();
      rmSync(join(dir, SELECTION_INDEX_FILE));
      writeFileSync(join(dir, 'index.json'), readFileSync(join(dir, 'index.json'), 'utf8').replace('Guides.', 'G.'));
      writeTree(dir, { [`${SELECTION_INDEX_FILE}/x`]: 'a folder in the way' });
      expect(catalogOf(dir).entries.map((e) => e.name)).toContain('how-to-guide');
      expect(readSelectionIndex(dir)).toBeUndefined();
      return;
    }
    const dir = base();
    writeFileSync(join(dir, 'index.json'), readFileSync(join(dir, 'index.json'), 'utf8').replace('Guides.', 'G.'));
    chmodSync(dir, 0o555);
    try {
      expect(catalogOf(dir).entries.map((e) => e.name)).toContain('how-to-guide');
      expect(readSelectionIndex(dir)).toBeUndefined();
    } finally {
      chmodSync(dir, 0o755);
    }
  });
});

describe('the selection index follows every write of the registry', () => {
  it('is written under the lock by register and remove, and left stale (never wrong) when its writing fails', async () => {
    followIndex(followRegistryIndex);
    try {
      const reg = fresh('followed');
      const src = fresh('src');
      writeTree(src, {
        'alpha/SKILL.md': skillMd('name: alpha\ndescription: Converts invoices to PDF. Use when invoicing.'),
        'beta/SKILL.md': skillMd('name: beta\ndescription: Drafts emails. Use when writing mail.'),
      });
      await registerSkill(reg, loadSkill(join(src, 'alpha')));
      await registerSkill(reg, loadSkill(join(src, 'beta')));
      expect(readSelectionIndex(reg)?.rows.map((r) => r[0])).toEqual(['alpha', 'beta']);
      await removeSkill(reg, 'alpha', undefined, { force: true });
      expect(readSelectionIndex(reg)?.rows.map((r) => r[0])).toEqual(['beta']);
      const before = readFileSync(join(reg, SELECTION_INDEX_FILE), 'utf8');
      // A follower that fails (a full disk) fails no registry write: the old file stays whole, and stale.
      unfollowIndex(followRegistryIndex);
      const failing = () => {
        throw new Error('disk full');
      };
      followIndex(failing);
      try {
        await registerSkill(reg, loadSkill(join(src, 'alpha')));
      } finally {
        unfollowIndex(failing);
      }
      expect(readFileSync(join(reg, SELECTION_INDEX_FILE), 'utf8')).toBe(before);
      expect(readSelectionIndex(reg)).toBeUndefined();
      expect(catalogOf(reg).entries.map((e) => e.name)).toContain('alpha');
    } finally {
      unfollowIndex(followRegistryIndex);
    }
  });
});

describe('the selection index updated by a registry write', () => {
  /** A manifest skill (its version, triggers and hidden flag in one file) written to a fresh folder. */
  const manifest = (id: string, version: string, description: string, extra: Record<string, unknown> = {}) => {
    const dir = join(fresh('src'), id);
    writeTree(dir, {
      'manifest.json': JSON.stringify({ id, name: id, version, description, owner: 'built-in', ...extra }),
    });
    return loadSkill(dir);
  };
  const md = (name: string, version: string, description: string) => {
    const dir = join(fresh('src'), name);
    writeTree(dir, {
      'SKILL.md': skillMd(`name: ${name}\ndescription: ${description}\nmetadata:\n  version: "${version}"`),
    });
    return loadSkill(dir);
  };
  /** What a rebuild from the index.json there now writes. */
  const rebuilt = (reg: string) =>
    selectionIndexText(
      readIndex(reg).skills.sort((a, b) => (a.id < b.id ? -1 : 1)),
      indexIdentity(reg)!,
    );
  const written = (reg: string) => readFileSync(join(reg, SELECTION_INDEX_FILE), 'utf8');

  it('is exactly the index a rebuild gives, after each add, update, replace and remove', async () => {
    followIndex(followRegistryIndex);
    try {
      const reg = fresh('incremental');
      const steps: (() => Promise<unknown>)[] = [
        () =>
          registerSkills(reg, [
            { skill: md('alpha', '1.0.0', 'Converts invoices to PDF. Use when invoicing.') },
            { skill: md('gamma', '1.0.0', 'Résumé layouts, naïve and plain. Use when writing a CV.') },
            { skill: manifest('delta', '1.0.0', 'Scrapes prices.', { triggers: { keywords: ['how to', 'scrape'] } }) },
          ]),
        // A skill between two others: the rows after it move down one.
        () => registerSkill(reg, md('beta', '1.0.0', 'Drafts emails. Use when writing mail.')),
        // A new version with other words; another whose triggers change; one that becomes hidden.
        () =>
          registerSkills(reg, [
            { skill: md('alpha', '2.0.0', 'Merges PDF files and fills forms. Use when a PDF form is given.') },
            { skill: manifest('delta', '1.1.0', 'Scrapes prices.', { triggers: { verbs: ['crawl'] } }) },
            { skill: manifest('epsilon', '1.0.0', 'Hidden helper.', { triggers: { patterns: ['x\\d+'] } }) },
          ]),
        // The same version, other content, forced: replaced in place.
        () => registerSkill(reg, md('gamma', '1.0.0', 'Slide decks from notes.'), { force: true }),
        () => removeSkill(reg, 'beta', undefined, { force: true }),
        // An older version removed: the latest (and so the row) unchanged.
        () => removeSkill(reg, 'alpha', '1.0.0', { force: true }),
        () => removeSkill(reg, 'alpha', undefined, { force: true }),
        () => registerSkill(reg, md('aardvark', '1.0.0', 'First of all, by name.')),
      ];
      for (const [k, step] of steps.entries()) {
        await step();
        expect(readSelectionIndex(reg), `step ${k}`).toBeDefined();
        expect(written(reg), `step ${k}`).toBe(rebuilt(reg));
      }
      expect(readSelectionIndex(reg)!.rows.map((r) => r[0])).toEqual(['aardvark', 'delta', 'epsilon', 'gamma']);
    } finally {
      unfollowIndex(followRegistryIndex);
    }
  });

  it('keeps the stems of unchanged skills from the index it replaces, and rebuilds when that one is not trusted', async () => {
    followIndex(followRegistryIndex);
    try {
      const reg = fresh('reused');
      await registerSkills(reg, [
        { skill: md('alpha', '1.0.0', 'Converts invoices to PDF.') },
        { skill: md('beta', '1.0.0', 'Drafts emails.') },
      ]);
      // A stem only the old file gives alpha (well formed, its digest made right): a write that reads alpha again
      // would drop it, an update keeps it.
      const file = join(reg, SELECTION_INDEX_FILE);
      const plant = () => {
        const [header, rows, ...lines] = written(reg).split('\n');
        const stems = `${[...lines.filter((l) => l !== ''), 'tplanted\t0'].sort().join('\n')}\n`;
        const h = JSON.parse(header!) as { stems: string };
        h.stems = createHash('sha1').update(stems).digest('base64url');
        writeFileSync(file, `${JSON.stringify(h)}\n${rows}\n${stems}`);
      };
      plant();
      expect(readSelectionIndex(reg)!.holding('tplanted')).toEqual([0]);
      await registerSkill(reg, md('gamma', '1.0.0', 'Slide decks.'));
      expect(readSelectionIndex(reg)!.holding('tplanted')).toEqual([0]);
      // A new version of alpha with the same words keeps them; with other words, alpha is read again.
      await registerSkill(reg, md('alpha', '2.0.0', 'Converts invoices to PDF.'));
      expect(readSelectionIndex(reg)!.holding('tplanted')).toEqual([0]);
      await registerSkill(reg, md('alpha', '3.0.0', 'Converts invoices to PDF files.'));
      expect(readSelectionIndex(reg)!.holding('tplanted')).toEqual([]);
      expect(written(reg)).toBe(rebuilt(reg));
      // An old file written from another index.json (here: damaged after the fact) is rebuilt whole.
      plant();
      writeFileSync(file, written(reg).replace('tplanted\t0', 'tplanted\t1'));
      await registerSkill(reg, md('delta', '1.0.0', 'Deltas.'));
      expect(written(reg)).toBe(rebuilt(reg));
    } finally {
      unfollowIndex(followRegistryIndex);
    }
  });
});

describe('SELECTION_INDEX_VERSION', () => {
  it('changes whenever the stems an index keeps do (update both together)', () => {
    // Words that exercise each fold of stem(): British spellings, -ys-, -ise, Porter, the final i → y.
    const words =
      'analyse analysing colour behaviours summarise organisation deployed deploy deployment scraping scrape ' +
      'harnesses presentations invoices résumé pdfs crawled running ran studies flies 42 c';
    expect({ version: SELECTION_INDEX_VERSION, stems: words.split(' ').map(stem).join(' ') }).toEqual({
      version: 4,
      stems:
        'analyz analyz color behavior summar organ deploy deploy deploy scrape scrape har present invoic résumé pdf ' +
        'crawl run ran study fly 42 c',
    });
  });
});
