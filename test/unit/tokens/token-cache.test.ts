import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MAX_ENTRIES,
  MAX_FILE_BYTES,
  openTokenCache,
  snapshotCount,
  userCacheDir,
} from '../../../src/tokens/token-cache.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-token-cache-');
afterAll(cleanup);

const COUNTER = 'o200k_base test@1';
const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;

/** A cache file in a fresh folder of its own (made 0700, as the code makes it), or in `dir`. */
function cacheFile(dir = join(fresh('c'), 'skills')) {
  return join(dir, 'tokens.json');
}

function written(file: string) {
  return JSON.parse(readFileSync(file, 'utf8')) as { counter: string; counts: Record<string, number> };
}

describe('openTokenCache', () => {
  it('keeps counts across runs, in a private folder and file, written only when something was added', () => {
    const file = cacheFile();
    const first = openTokenCache(file, COUNTER);
    expect(first.get('aaa')).toBeUndefined();
    first.save();
    expect(existsSync(file)).toBe(false);
    first.set('aaa', 12);
    first.set('bbb', 0);
    first.save();
    const second = openTokenCache(file, COUNTER);
    expect(second.get('aaa')).toBe(12);
    expect(second.get('bbb')).toBe(0);
    expect(second.get('ccc')).toBeUndefined();
    if (process.platform !== 'win32') {
      expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    // No temp file is left behind.
    expect(readdirSync(join(file, '..'))).toEqual(['tokens.json']);
  });

  it('reads the file when a count is first asked for, not when opened (a run that counts nothing reads nothing)', () => {
    const file = cacheFile();
    const writer = openTokenCache(file, COUNTER);
    const opened = openTokenCache(file, COUNTER);
    // Written after \`opened\` was opened and before it is asked: it sees the count.
    writer.set('aaa', 7);
    writer.save();
    expect(opened.get('aaa')).toBe(7);
  });

  it('ignores a corrupt file, and replaces it on the next write', () => {
    for (const junk of [
      '',
      '{',
      'null',
      '[1,2]',
      '"x"',
      '{"counter":"o200k_base test@1","counts":[1]}',
      '\u0000\u0001binary',
    ]) {
      const file = cacheFile();
      mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
      writeFileSync(file, junk, { mode: 0o600 });
      const cache = openTokenCache(file, COUNTER);
      expect(cache.get('aaa')).toBeUndefined();
      cache.set('aaa', 3);
      cache.save();
      expect(written(file)).toEqual({ counter: COUNTER, counts: { aaa: 3 } });
    }
  });

  it('drops entries that are not counts, and keeps the others', () => {
    const file = cacheFile();
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const counts = { good: 5, negative: -1, fraction: 1.5, text: '7', huge: 2 ** 60, 'bad key!': 4, also_good: 0 };
    writeFileSync(file, JSON.stringify({ counter: COUNTER, counts }), { mode: 0o600 });
    const cache = openTokenCache(file, COUNTER);
    const keys = ['good', 'negative', 'fraction', 'text', 'huge', 'bad key!', 'also_good', 'toString', '__proto__'];
    const expected = [5, undefined, undefined, undefined, undefined, undefined, 0, undefined, undefined];
    // What a worker thread is handed (a copy, as postMessage makes it) answers as the cache does.
    const snapshot = structuredClone(cache.snapshot!());
    expect(keys.map((k) => snapshotCount(snapshot, k))).toEqual(expected);
    expect(keys.map((k) => cache.get(k))).toEqual(expected);
  });

  it('keeps the first MAX_ENTRIES valid counts of a larger file (not one of ours), whatever comes before them', () => {
    const file = cacheFile();
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const counts: Record<string, unknown> = {};
    for (let i = 0; i < 10; i++) counts[`bad${i}`] = -1;
    for (let i = 0; i < MAX_ENTRIES + 5; i++) counts[`k${i}`] = i;
    writeFileSync(file, JSON.stringify({ counter: COUNTER, counts }), { mode: 0o600 });
    const cache = openTokenCache(file, COUNTER);
    const snapshot = structuredClone(cache.snapshot!());
    for (const get of [(k: string) => cache.get(k), (k: string) => snapshotCount(snapshot, k)]) {
      expect(get('k0')).toBe(0);
      expect(get(`k${MAX_ENTRIES - 1}`)).toBe(MAX_ENTRIES - 1);
      expect(get(`k${MAX_ENTRIES}`)).toBeUndefined();
      expect(get('bad0')).toBeUndefined();
    }
  });

  it('ignores the counts of another counter (another tokenizer or version)', () => {
    const file = cacheFile();
    const old = openTokenCache(file, 'o200k_base test@0');
    old.set('aaa', 9);
    old.save();
    const cache = openTokenCache(file, COUNTER);
    expect(cache.get('aaa')).toBeUndefined();
    cache.set('bbb', 1);
    cache.save();
    expect(written(file)).toEqual({ counter: COUNTER, counts: { bbb: 1 } });
  });

  it('keeps at most MAX_ENTRIES counts, those of the last run first', () => {
    const file = cacheFile();
    const first = openTokenCache(file, COUNTER);
    for (let i = 0; i < MAX_ENTRIES + 100; i++) first.set(`k${i}`, i);
    first.save();
    expect(Object.keys(written(file).counts)).toHaveLength(MAX_ENTRIES);
    const second = openTokenCache(file, COUNTER);
    // Read again by this run: kept ahead of the older ones, however old.
    expect(second.get(`k${MAX_ENTRIES - 1}`)).toBe(MAX_ENTRIES - 1);
    second.set('new', 1);
    second.save();
    const keys = Object.keys(written(file).counts);
    expect(keys).toHaveLength(MAX_ENTRIES);
    expect(keys.slice(0, 2)).toEqual([`k${MAX_ENTRIES - 1}`, 'new']);
    expect(keys).not.toContain(`k${MAX_ENTRIES - 2}`);
  });

  it('does not read a file larger than MAX_FILE_BYTES', () => {
    const file = cacheFile();
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify({ counter: COUNTER, counts: { aaa: 1 }, pad: 'x'.repeat(MAX_FILE_BYTES) }), {
      mode: 0o600,
    });
    expect(openTokenCache(file, COUNTER).get('aaa')).toBeUndefined();
  });

  it('does not follow a symlink in place of the file', () => {
    const elsewhere = join(fresh('other'), 'counts.json');
    writeFileSync(elsewhere, JSON.stringify({ counter: COUNTER, counts: { aaa: 1 } }), { mode: 0o600 });
    const file = cacheFile();
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, file);
    expect(openTokenCache(file, COUNTER).get('aaa')).toBeUndefined();
  });

  it.skipIf(uid === undefined)(
    'uses neither a folder nor a file that belongs to another user, or that others may write to',
    () => {
      const file = cacheFile();
      const mine = openTokenCache(file, COUNTER);
      mine.set('aaa', 1);
      mine.save();
      const other = uid! + 1;
      // Another user's folder: not read, not written.
      const theirs = openTokenCache(file, COUNTER, { uid: other });
      expect(theirs.get('aaa')).toBeUndefined();
      theirs.set('bbb', 2);
      theirs.save();
      expect(written(file).counts).toEqual({ aaa: 1 });
      // A folder others may write to: the same.
      chmodSync(join(file, '..'), 0o777);
      const open = openTokenCache(file, COUNTER);
      expect(open.get('aaa')).toBeUndefined();
      open.set('bbb', 2);
      open.save();
      expect(written(file).counts).toEqual({ aaa: 1 });
      chmodSync(join(file, '..'), 0o700);
      // A group-writable file in one's own folder: not read.
      chmodSync(file, 0o620);
      expect(openTokenCache(file, COUNTER).get('aaa')).toBeUndefined();
      chmodSync(file, 0o600);
      expect(openTokenCache(file, COUNTER).get('aaa')).toBe(1);
    },
  );

  it.skipIf(uid !== 0)("as root: a file that another user owns, in root's own folder, is not read", () => {
    const file = cacheFile();
    const mine = openTokenCache(file, COUNTER);
    mine.set('aaa', 1);
    mine.save();
    chownSync(file, 65534, 65534);
    expect(openTokenCache(file, COUNTER).get('aaa')).toBeUndefined();
  });

  it('writes nothing, and throws nothing, when the folder cannot be made', () => {
    const parent = fresh('blocked');
    writeFileSync(join(parent, 'skills'), 'a file where the folder would go');
    const cache = openTokenCache(join(parent, 'skills', 'tokens.json'), COUNTER);
    cache.set('aaa', 1);
    expect(() => cache.save()).not.toThrow();
    expect(readFileSync(join(parent, 'skills'), 'utf8')).toBe('a file where the folder would go');
  });
});

describe('userCacheDir', () => {
  it('is $XDG_CACHE_HOME/skills, else ~/.cache/skills, as for the code cache', () => {
    expect(userCacheDir({ XDG_CACHE_HOME: '/xdg' }, '/home/u')).toBe(join('/xdg', 'skills'));
    expect(userCacheDir({ XDG_CACHE_HOME: '' }, '/home/u')).toBe(join('/home/u', '.cache', 'skills'));
    expect(userCacheDir({}, '/home/u')).toBe(join('/home/u', '.cache', 'skills'));
  });
});

describe('pieceKey', () => {
  it('is the key earlier versions wrote (createHash sha256, base64url, 22 characters), so a kept cache still hits', async () => {
    const { createHash } = await import('node:crypto');
    const { pieceKey } = await import('../../../src/tokens/tokens.js');
    const texts = [
      '',
      'a',
      'the skill reads a file\n'.repeat(300),
      'naïve 数据 🎉\r\n',
      'lone \ud800 surrogate',
      '\u0000\ufeff',
    ];
    for (const t of texts)
      expect(pieceKey(t), JSON.stringify(t.slice(0, 20))).toBe(
        createHash('sha256').update(t).digest('base64url').slice(0, 22),
      );
  });
});
