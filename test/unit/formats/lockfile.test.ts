import { describe, expect, it } from 'vitest';
import { diffLockfiles, emptyLockfile, parseLockfile, serializeLockfile, type Lockfile } from '../../../src/formats/lockfile.js';

const SRI = `sha512-${Buffer.alloc(64, 1).toString('base64')}`;
const SRI2 = `sha512-${Buffer.alloc(64, 2).toString('base64')}`;

const lock: Lockfile = {
  lockfileVersion: 1,
  skills: {
    'web-scraping': { version: '1.2.0', source: 'archive:dist/web-scraping-1.2.0.tgz', integrity: SRI, dependencies: { 'z-last': '1.0.0', 'basic-tools': '1.0.0' } },
    'basic-tools': { version: '1.0.0', source: 'registry', integrity: SRI2, dependencies: {} },
  },
};

describe('skills-lock.json', () => {
  it('serializes with every key sorted, two-space indent and a final newline, and parses back', () => {
    const text = serializeLockfile(lock);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toBe(
      [
        '{',
        '  "lockfileVersion": 1,',
        '  "skills": {',
        '    "basic-tools": {',
        '      "dependencies": {},',
        `      "integrity": "${SRI2}",`,
        '      "source": "registry",',
        '      "version": "1.0.0"',
        '    },',
        '    "web-scraping": {',
        '      "dependencies": {',
        '        "basic-tools": "1.0.0",',
        '        "z-last": "1.0.0"',
        '      },',
        `      "integrity": "${SRI}",`,
        '      "source": "archive:dist/web-scraping-1.2.0.tgz",',
        '      "version": "1.2.0"',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const back = parseLockfile(text);
    expect(back.problem).toBeUndefined();
    expect(serializeLockfile(back.lock!)).toBe(text);
    expect(serializeLockfile(emptyLockfile())).toBe('{\n  "lockfileVersion": 1,\n  "skills": {}\n}\n');
  });

  it('locates a JSON syntax error', () => {
    const text = '{\n  "lockfileVersion": 1,\n  "skills": {,}\n}\n';
    expect(parseLockfile(text).problem).toEqual({ message: 'skills-lock.json is not valid JSON (ValueExpected)', line: 3, column: 14 });
  });

  it('locates a wrong field: the version of the format, a source, an integrity', () => {
    const newer = serializeLockfile(lock).replace('"lockfileVersion": 1', '"lockfileVersion": 2');
    expect(parseLockfile(newer).problem).toMatchObject({ line: 2, column: 22, message: expect.stringContaining('skills-lock.json: lockfileVersion: Invalid literal value, expected 1') });
    const source = serializeLockfile(lock).replace('"source": "registry"', '"source": "ftp://x"');
    expect(parseLockfile(source).problem).toEqual({
      message: 'skills-lock.json: skills.basic-tools.source: expected "folder:<path>", "archive:<path>", "registry" or "registry:<dir>"',
      line: 7,
      column: 17,
    });
    const integrity = serializeLockfile(lock).replace(SRI, 'md5-abc');
    expect(parseLockfile(integrity).problem).toEqual({ message: 'skills-lock.json: skills.web-scraping.integrity: expected "sha512-<base64>"', line: 15, column: 20 });
  });

  it('lists what changed between two locks', () => {
    const next: Lockfile = structuredClone(lock);
    next.skills['web-scraping']!.version = '1.3.0';
    delete next.skills['basic-tools'];
    next.skills['new-one'] = { version: '0.1.0', source: 'folder:skills/new-one', integrity: SRI, dependencies: {} };
    expect(diffLockfiles(lock, next)).toEqual(['- basic-tools@1.0.0', '+ new-one@0.1.0', '~ web-scraping: 1.2.0 → 1.3.0']);
    expect(diffLockfiles(lock, structuredClone(lock))).toEqual([]);
  });

  it('refuses a key that is no skill id (a lock from a stranger names folders under --into by it)', () => {
    const bad = { lockfileVersion: 1, skills: { '../../evil': lock.skills['basic-tools'] } };
    expect(parseLockfile(JSON.stringify(bad, null, 2)).problem?.message).toContain('expected a skill id');
  });
});
