import { describe, expect, it } from 'vitest';
import { formatLockSource, parseLockSource, parseLockfile, type LockSource } from '../../../src/formats/lockfile.js';

// The `source` of a lock entry, as install writes and reads it (src/formats/lockfile.ts).
describe('lock entry sources', () => {
  it.each([
    [{ kind: 'folder', path: '../src/pdf' }, 'folder:../src/pdf'],
    [{ kind: 'archive', path: 'dist/pdf-1.0.0.tgz' }, 'archive:dist/pdf-1.0.0.tgz'],
    [
      { kind: 'archive', path: 'vendor/repo-main.zip', inner: 'repo-main/skills/pdf' },
      'archive:vendor/repo-main.zip#repo-main/skills/pdf',
    ],
    // A `#` or `%` inside the archive is escaped; a `#` in the archive's own path gets an empty fragment after it.
    [
      { kind: 'archive', path: 'repo.zip', inner: 'repo-main/skills/c#/100%' },
      'archive:repo.zip#repo-main/skills/c%23/100%25',
    ],
    [{ kind: 'archive', path: 'dl/pdf#2.zip' }, 'archive:dl/pdf#2.zip#'],
    [{ kind: 'archive', path: 'dl/pdf#2.zip', inner: 'a/b' }, 'archive:dl/pdf#2.zip#a/b'],
    [{ kind: 'registry' }, 'registry'],
    [{ kind: 'registry', dir: '../from/registry' }, 'registry:../from/registry'],
  ] as [LockSource, string][])('%j is written %j and reads back', (source, text) => {
    expect(formatLockSource(source)).toBe(text);
    expect(parseLockSource(text)).toEqual(source);
  });

  it('reads an old lock entry without a path inside the archive as the archive itself', () => {
    expect(parseLockSource('archive:dist/web-scraping-1.2.0.tgz')).toEqual({
      kind: 'archive',
      path: 'dist/web-scraping-1.2.0.tgz',
    });
  });

  it('the lockfile reader accepts the archive form with a path inside', () => {
    const sri = `sha512-${Buffer.alloc(64, 1).toString('base64')}`;
    const text = JSON.stringify({
      lockfileVersion: 1,
      skills: {
        pdf: { dependencies: {}, integrity: sri, source: 'archive:repo.zip#repo-main/skills/pdf', version: '0.0.0' },
      },
    });
    const { lock, problem } = parseLockfile(text);
    expect(problem).toBeUndefined();
    expect(lock!.skills.pdf!.source).toBe('archive:repo.zip#repo-main/skills/pdf');
  });
});
