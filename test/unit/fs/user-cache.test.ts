import { chmodSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STALE_AFTER_MS, cacheFileFor, removeStaleCaches } from '../../../src/fs/user-cache.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-user-cache-');
afterAll(cleanup);

describe('the cache files of sets of skill folders', () => {
  it('gives each set of folders a file of its own, the same one each time', () => {
    const a = cacheFileFor('/c', 'list', ['/p/.claude/skills', '/h/.agents/skills']);
    expect(a).toMatch(/^\/c\/list-[0-9a-f]{16}\.json$/);
    expect(cacheFileFor('/c', 'list', ['/p/.claude/skills', '/h/.agents/skills'])).toBe(a);
    expect(cacheFileFor('/c', 'list', ['/q/.claude/skills', '/h/.agents/skills'])).not.toBe(a);
    // The folder names are kept apart: ["ab", "c"] is not ["a", "bc"].
    expect(cacheFileFor('/c', 'list', ['ab', 'c'])).not.toBe(cacheFileFor('/c', 'list', ['a', 'bc']));
    expect(cacheFileFor('/c', 'catalog', ['/p'])).toMatch(/\/catalog-[0-9a-f]{16}\.json$/);
  });

  it('removes the files of its kind that no run wrote for a month, and nothing else', () => {
    const dir = fresh('cache');
    chmodSync(dir, 0o700);
    const old = (Date.now() - STALE_AFTER_MS - 60_000) / 1000;
    for (const name of [
      'list-0123456789abcdef.json',
      'list-fedcba9876543210.json',
      'catalog-0123456789abcdef.json',
      'list.json',
      'tokens-o200k_base.json',
    ]) {
      writeFileSync(join(dir, name), '{}');
      if (name !== 'list-fedcba9876543210.json') utimesSync(join(dir, name), old, old);
    }
    removeStaleCaches(dir, 'list');
    expect(readdirSync(dir).sort()).toEqual([
      'catalog-0123456789abcdef.json',
      'list-fedcba9876543210.json',
      'list.json',
      'tokens-o200k_base.json',
    ]);
    removeStaleCaches(join(dir, 'missing'), 'list');
  });
});
