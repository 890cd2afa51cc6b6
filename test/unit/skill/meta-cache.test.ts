import { chmodSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/prompt/catalog.js';
import { TOO_RECENT_MS } from '../../../src/fs/user-cache.js';
import { openMetaCache, type MetaCache } from '../../../src/skill/meta-cache.js';

const META_CACHE_FILE = 'catalog.json';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-meta-cache-');
afterAll(cleanup);

/** A run that begins long enough after the skills were written for them to be kept. */
const later = () => Date.now() + TOO_RECENT_MS + 60_000;

function cacheFolder(): string {
  const d = fresh('cache');
  chmodSync(d, 0o700);
  return d;
}

/** The catalog of `dir` with the cache in `cacheDir`: its entries and warnings, and how many files the cache gave. */
function catalog(dir: string, cacheDir: string, options: { start?: number; build?: string; bodies?: boolean } = {}) {
  const cache = openMetaCache(join(cacheDir, META_CACHE_FILE), options.build ?? 'b1', {
    start: options.start ?? later(),
  });
  let hits = 0;
  const counted: MetaCache = {
    ...cache,
    get: (file, id) => {
      const r = cache.get(file, id);
      if (r) hits++;
      return r;
    },
  };
  const c = buildCatalog({ folders: [{ dir, scope: 'project' }], cache: counted, bodies: options.bodies });
  cache.save();
  const shown = [...c.entries, ...c.hidden].map((e) => ({ ...e, listing: undefined }));
  return { shown, warnings: c.warnings, hits };
}

describe('the catalog cache', () => {
  it('gives an unchanged skill file’s reading, warnings and all, as reading the file gives it', () => {
    const dir = fresh('skills');
    writeTree(dir, {
      'plain/SKILL.md': skillMd(
        'name: plain\ndescription: P. Use when.\nversion: "1.0.0"\ntriggers:\n  keywords: [a, b]\n  verbs: [c]\n',
      ),
      // A YAML slip repaired with a warning; a name that differs from its folder; no name; hidden.
      'slip/SKILL.md': skillMd('name: slip\ndescription: Does this: and that. Use when.\n'),
      'other/SKILL.md': skillMd('name: another\ndescription: O. Use when.\n'),
      'nameless/SKILL.md': skillMd('description: N. Use when.\nbrief_description: short\n'),
      'quiet/SKILL.md': skillMd('name: quiet\ndescription: Q. Use when.\ndisable-model-invocation: true\n'),
      'empty/SKILL.md': skillMd('name: empty\n'),
      'broken/SKILL.md': skillMd('name: [broken\n'),
      'tool/manifest.json': JSON.stringify({ id: 'tool', name: 'Tool', description: 'T. Use when.', version: '2.0.0' }),
    });
    const cacheDir = cacheFolder();
    const uncached = buildCatalog({ folders: [{ dir, scope: 'project' }] });
    const first = catalog(dir, cacheDir);
    expect(first.hits).toBe(0);
    expect(first.shown).toEqual([...uncached.entries, ...uncached.hidden].map((e) => ({ ...e, listing: undefined })));
    expect(first.warnings).toEqual(uncached.warnings);
    expect(first.warnings.length).toBeGreaterThanOrEqual(4);
    const second = catalog(dir, cacheDir);
    expect(second).toEqual({ ...first, hits: 8 });
    // Nothing changed: the file is not written again.
    const { mtimeMs } = statSync(join(cacheDir, META_CACHE_FILE));
    catalog(dir, cacheDir);
    expect(statSync(join(cacheDir, META_CACHE_FILE)).mtimeMs).toBe(mtimeMs);
  });

  it('sees a changed skill file, even of the same size with its mtime set back', () => {
    const dir = fresh('skills');
    const text = skillMd('name: plain\ndescription: Old text. Use when.\n');
    writeTree(dir, { 'plain/SKILL.md': text });
    // A whole second, so that it can be set back exactly.
    const file = join(dir, 'plain/SKILL.md');
    utimesSync(file, 1_600_000_000, 1_600_000_000);
    const cacheDir = cacheFolder();
    catalog(dir, cacheDir);
    expect(catalog(dir, cacheDir).hits).toBe(1);
    const before = statSync(file);
    writeFileSync(file, text.replace('Old text', 'New text'));
    utimesSync(file, 1_600_000_000, 1_600_000_000);
    expect([statSync(file).size, statSync(file).mtimeMs, statSync(file).ino]).toEqual([
      before.size,
      before.mtimeMs,
      before.ino,
    ]);
    const after = catalog(dir, cacheDir);
    expect(after.hits).toBe(0);
    expect(after.shown.map((e) => e.description)).toEqual(['New text. Use when.']);
    expect(catalog(dir, cacheDir).hits).toBe(1);
  });

  it('keeps nothing changed shortly before the run, and nothing of another build', () => {
    const dir = fresh('skills');
    writeTree(dir, { 'plain/SKILL.md': skillMd('name: plain\ndescription: P. Use when.\n') });
    const cacheDir = cacheFolder();
    catalog(dir, cacheDir, { start: Date.now() });
    expect(catalog(dir, cacheDir).hits).toBe(0);
    expect(catalog(dir, cacheDir).hits).toBe(1);
    expect(catalog(dir, cacheDir, { build: 'b2' }).hits).toBe(0);
  });

  it('for a query (bodies), gives the frontmatter’s reading and takes the body from the file: as reading it afresh', () => {
    const dir = fresh('skills');
    writeTree(dir, {
      'plain/SKILL.md': skillMd('name: plain\ndescription: P. Use when.\n', '# Plain\n\nCalibrate the flux.\n'),
      // Repaired YAML: the body is still the file's (it was lost once: the repaired text was parsed alone).
      'slip/SKILL.md': skillMd(
        'name: slip\ndescription: Does this: and that. Use when.\n',
        '# Slip\n\nTune the widget.\n',
      ),
      'broken/SKILL.md': skillMd('name: [broken\n'),
      'tool/manifest.json': JSON.stringify({ id: 'tool', name: 'Tool', description: 'T. Use when.', version: '2.0.0' }),
    });
    const uncached = buildCatalog({ folders: [{ dir, scope: 'project' }], bodies: true });
    const afresh = [...uncached.entries, ...uncached.hidden].map((e) => ({ ...e, listing: undefined }));
    expect(afresh.map((e) => [e.name, e.body])).toEqual([
      ['plain', '# Plain\n\nCalibrate the flux.\n'],
      ['slip', '# Slip\n\nTune the widget.\n'],
      ['tool', undefined],
    ]);
    const cacheDir = cacheFolder();
    const first = catalog(dir, cacheDir, { bodies: true });
    expect(first.hits).toBe(0);
    expect(first.shown).toEqual(afresh);
    expect(first.warnings).toEqual(uncached.warnings);
    // Kept for a run without a query too, and the other way round.
    expect(catalog(dir, cacheDir).hits).toBe(4);
    const second = catalog(dir, cacheDir, { bodies: true });
    expect(second).toEqual({ ...first, hits: 4 });
    // A body changed (the frontmatter not) is read: the file's identity changed, and the body is never kept.
    const file = join(dir, 'plain/SKILL.md');
    writeFileSync(file, skillMd('name: plain\ndescription: P. Use when.\n', '# Plain\n\nRecalibrate it.\n'));
    const third = catalog(dir, cacheDir, { bodies: true });
    expect(third.hits).toBe(3);
    expect(third.shown.find((e) => e.name === 'plain')!.body).toBe('# Plain\n\nRecalibrate it.\n');
  });

  it('ignores a malformed file, or one others may write to, and never fails for it', () => {
    const dir = fresh('skills');
    writeTree(dir, { 'plain/SKILL.md': skillMd('name: plain\ndescription: P. Use when.\n') });
    const cacheDir = cacheFolder();
    const file = join(cacheDir, META_CACHE_FILE);
    const expected = catalog(dir, cacheDir).shown;
    const good = readFileSync(file, 'utf8');
    for (const text of ['{', '[]', '{"build":"b1","files":[["x",1]]}', good.replace(/"P\. Use when\."/, '7')]) {
      writeFileSync(file, text);
      const r = catalog(dir, cacheDir);
      expect(r.shown).toEqual(expected);
      expect(r.hits).toBe(0);
    }
    writeFileSync(file, good);
    chmodSync(file, 0o666);
    expect(catalog(dir, cacheDir).hits).toBe(0);
  });
});
