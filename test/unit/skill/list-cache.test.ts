import { chmodSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listSkills } from '../../../src/registry/list.js';
import { TOO_RECENT_MS, openListCache, type ListCache } from '../../../src/skill/list-cache.js';

const LIST_CACHE_FILE = 'list.json';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-list-cache-');
afterAll(cleanup);

/** A run that begins long enough after the skills were written for them to be kept. */
const later = () => Date.now() + TOO_RECENT_MS + 60_000;

/**
 * `skills list <dir>` with the cache in `cacheDir`: the rows (id, valid, description) and how many skills came
 * from the cache.
 */
async function list(dir: string, cacheDir: string, options: { start?: number; build?: string } = {}) {
  const cache = openListCache(join(cacheDir, LIST_CACHE_FILE), options.build ?? 'b1', {
    start: options.start ?? later(),
  });
  let hits = 0;
  const counted: ListCache = {
    ...cache,
    probe: (d) => {
      const hit = cache.probe(d);
      if (hit) hits++;
      return hit;
    },
  };
  const r = await listSkills({ cwd: dir, home: dir, env: {}, given: [dir], cacheFor: () => counted });
  return { rows: r.skills.map((s) => [s.id, s.valid, s.description, s.version ?? null]), hits };
}

/** A cache folder of the user's own, as userCacheDir makes it. */
function cacheFolder(): string {
  const d = fresh('cache');
  chmodSync(d, 0o700);
  return d;
}

const SCRIPTED = skillMd('name: scripted\ndescription: Runs x. Use when testing.\nscripts:\n  - scripts/x.sh\n');

describe('the list cache', () => {
  it('shows an unchanged skill from the cache, as loading it shows it', async () => {
    const dir = fresh('skills');
    writeTree(dir, {
      'scripted/SKILL.md': SCRIPTED,
      'scripted/scripts/x.sh': '#!/bin/sh\n',
      'broken/SKILL.md': skillMd(
        'name: Broken\ndescription: Bad name. Use when testing.\nmetadata:\n  version: "1.2.3"\n',
      ),
      'tool/manifest.json': JSON.stringify({
        id: 'tool',
        name: 'Tool',
        version: '1.0.0',
        description: 'T. Use when.',
        owner: 'me',
      }),
    });
    const cacheDir = cacheFolder();
    const first = await list(dir, cacheDir);
    expect(first.hits).toBe(0);
    expect(first.rows).toEqual([
      ['Broken', false, 'Bad name. Use when testing.', '1.2.3'],
      ['scripted', true, 'Runs x. Use when testing.', null],
      ['tool', true, 'T. Use when.', '1.0.0'],
    ]);
    const second = await list(dir, cacheDir);
    expect(second).toEqual({ rows: first.rows, hits: 3 });
    // Nothing changed: the file is not written again.
    const before = statSync(join(cacheDir, LIST_CACHE_FILE));
    await list(dir, cacheDir);
    expect(statSync(join(cacheDir, LIST_CACHE_FILE)).mtimeMs).toBe(before.mtimeMs);
  });

  it('sees every change a skill’s row depends on', async () => {
    const dir = fresh('skills');
    writeTree(dir, {
      'scripted/SKILL.md': SCRIPTED,
      'scripted/scripts/x.sh': '#!/bin/sh\n',
      'deep/SKILL.md': skillMd('name: deep\ndescription: D. Use when.\nscripts:\n  - scripts/sub/run.sh\n'),
      'deep/scripts/sub/other.sh': '#!/bin/sh\n',
      'tool/manifest.json': JSON.stringify({
        id: 'tool',
        name: 'Tool',
        version: '1.0.0',
        description: 'T. Use when.',
        owner: 'me',
        scripts: ['scripts/run.sh'],
        envVars: ['TOOL_KEY'],
      }),
      'tool/scripts/run.sh': { content: '#!/bin/sh\n', mode: 0o755 },
      'tool/.env.example': 'TOOL_KEY=\n',
    });
    utimesSync(join(dir, 'scripted/SKILL.md'), 1_600_000_000, 1_600_000_000);
    const cacheDir = cacheFolder();
    const rowsOf = async () => {
      const r = await list(dir, cacheDir);
      return Object.fromEntries(r.rows.map(([id, valid, description]) => [id, `${valid} ${description}`]));
    };
    expect(await rowsOf()).toEqual({
      deep: 'false D. Use when.',
      scripted: 'true Runs x. Use when testing.',
      tool: 'true T. Use when.',
    });
    expect((await list(dir, cacheDir)).hits).toBe(3);

    // SKILL.md rewritten to the same size, its mtime set back: ctime still tells.
    const md = join(dir, 'scripted/SKILL.md');
    const before = statSync(md);
    writeFileSync(md, SCRIPTED.replace('Runs x.', 'Runs y.'));
    utimesSync(md, 1_600_000_000, 1_600_000_000);
    expect([statSync(md).size, statSync(md).mtimeMs, statSync(md).ino]).toEqual([
      before.size,
      before.mtimeMs,
      before.ino,
    ]);
    expect((await rowsOf()).scripted).toBe('true Runs y. Use when testing.');
    // The declared script removed (a listing two folders down changes).
    rmSync(join(dir, 'scripted/scripts/x.sh'));
    expect((await rowsOf()).scripted).toBe('false Runs y. Use when testing.');
    // A missing script appears in a folder below a folder.
    writeFileSync(join(dir, 'deep/scripts/sub/run.sh'), '#!/bin/sh\n');
    expect((await rowsOf()).deep).toBe('true D. Use when.');
    // A manifest's script loses its execute bit.
    chmodSync(join(dir, 'tool/scripts/run.sh'), 0o644);
    expect((await rowsOf()).tool).toBe('false T. Use when.');
    chmodSync(join(dir, 'tool/scripts/run.sh'), 0o755);
    expect((await rowsOf()).tool).toBe('true T. Use when.');
    // A manifest's .env.example no longer names a declared variable.
    writeFileSync(join(dir, 'tool/.env.example'), 'OTHER=\n');
    expect((await rowsOf()).tool).toBe('false T. Use when.');
    // A folder renamed: its name no longer matches.
    renameSync(join(dir, 'deep'), join(dir, 'deeper'));
    expect((await rowsOf()).deep).toBe('false D. Use when.');
    // Every change above was seen; the skills now unchanged come from the cache again.
    expect((await list(dir, cacheDir)).hits).toBe(3);
  });

  it('keeps no skill changed shortly before the run began, none with a symlink, none of another build', async () => {
    const dir = fresh('skills');
    writeTree(dir, {
      'plain/SKILL.md': skillMd('name: plain\ndescription: P. Use when.\n'),
      'linked/SKILL.md': skillMd('name: linked\ndescription: L. Use when.\n'),
      'linked/references/r.md': { symlink: '../../plain/SKILL.md' },
    });
    const cacheDir = cacheFolder();
    // The run began as the files were written: nothing is kept.
    await list(dir, cacheDir, { start: Date.now() });
    expect((await list(dir, cacheDir)).hits).toBe(0);
    // Later: the plain skill is kept, the one holding a symlink never.
    expect((await list(dir, cacheDir)).hits).toBe(1);
    // Another build of skills may judge skills otherwise: its cache is not used.
    expect((await list(dir, cacheDir, { build: 'b2' })).hits).toBe(0);
  });

  it('reads nothing from a file that is malformed, or not the user’s own, and never fails for it', async () => {
    const dir = fresh('skills');
    writeTree(dir, { 'plain/SKILL.md': skillMd('name: plain\ndescription: P. Use when.\n') });
    const cacheDir = cacheFolder();
    await list(dir, cacheDir);
    const file = join(cacheDir, LIST_CACHE_FILE);
    const good = readFileSync(file, 'utf8');
    expect((await list(dir, cacheDir)).hits).toBe(1);
    // A row that names a path outside the skill, or has the wrong shape, is dropped.
    const data = JSON.parse(good) as { skills: unknown[][] };
    data.skills[0]![7] = '../elsewhere';
    writeFileSync(file, JSON.stringify(data));
    expect((await list(dir, cacheDir)).hits).toBe(0);
    for (const text of ['{', '[]', '{"build":"b1","skills":[[1,2,3]]}']) {
      writeFileSync(file, text);
      expect((await list(dir, cacheDir)).rows).toEqual([['plain', true, 'P. Use when.', null]]);
    }
    // Writable by others: not read.
    writeFileSync(file, good);
    chmodSync(file, 0o666);
    expect((await list(dir, cacheDir)).hits).toBe(0);
    // A folder others may write to is not used at all.
    const shared = fresh('shared');
    chmodSync(shared, 0o777);
    writeFileSync(join(shared, LIST_CACHE_FILE), good, { mode: 0o600 });
    expect((await list(dir, shared)).hits).toBe(0);
  });
});
