import { describe, expect, it } from 'vitest';
import {
  diffLockfiles,
  emptyLockfile,
  parseLockfile,
  serializeLockfile,
  type Lockfile,
} from '../../../src/formats/lockfile.js';

const SRI = `sha512-${Buffer.alloc(64, 1).toString('base64')}`;
const SRI2 = `sha512-${Buffer.alloc(64, 2).toString('base64')}`;

const lock: Lockfile = {
  lockfileVersion: 1,
  skills: {
    'web-scraping': {
      version: '1.2.0',
      source: 'archive:dist/web-scraping-1.2.0.tgz',
      integrity: SRI,
      dependencies: { 'z-last': '1.0.0', 'basic-tools': '1.0.0' },
    },
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
    expect(parseLockfile(text).problem).toEqual({
      message: 'skills-lock.json is not valid JSON: expected a value',
      line: 3,
      column: 14,
    });
  });

  it('locates a wrong field: the version of the format, a source, an integrity', () => {
    const newer = serializeLockfile(lock).replace('"lockfileVersion": 1', '"lockfileVersion": 2');
    expect(parseLockfile(newer)).toEqual({
      newer: 2,
      problem: {
        line: 2,
        column: 3,
        message:
          'skills-lock.json has lockfileVersion 2: it was written by a newer version of skills, and this one reads lockfileVersion 1',
      },
    });
    const older = serializeLockfile(lock).replace('"lockfileVersion": 1', '"lockfileVersion": "1"');
    expect(parseLockfile(older).newer).toBeUndefined();
    expect(parseLockfile(older).problem).toMatchObject({
      line: 2,
      column: 22,
      message: expect.stringContaining('skills-lock.json: lockfileVersion: Invalid literal value, expected 1'),
    });
    const source = serializeLockfile(lock).replace('"source": "registry"', '"source": "ftp://x"');
    expect(parseLockfile(source).problem).toEqual({
      message:
        'skills-lock.json: skills.basic-tools.source: expected "folder:<path>", "archive:<path>", "registry", "registry:<dir>", "git:<url>", "url:<https URL>", "npm:<package>", "well-known:<index URL>" or "mcp:<server>"',
      line: 7,
      column: 17,
    });
    const integrity = serializeLockfile(lock).replace(SRI, 'md5-abc');
    expect(parseLockfile(integrity).problem).toEqual({
      message: 'skills-lock.json: skills.web-scraping.integrity: expected "sha512-<base64>"',
      line: 15,
      column: 20,
    });
  });

  it('keeps the fields a later version added, top level and per skill, in sorted place, when it writes the lock again', () => {
    const text = serializeLockfile(lock)
      .replace('{\n  "lockfileVersion"', '{\n  "aNewTop": {"b": [1, 2]},\n  "lockfileVersion"')
      .replace('"source": "registry",', '"source": "registry",\n      "signature": "x",');
    const parsed = parseLockfile(text).lock!;
    const again = serializeLockfile(parsed);
    expect(JSON.parse(again)).toEqual(JSON.parse(text));
    expect(Object.keys(JSON.parse(again))).toEqual(['aNewTop', 'lockfileVersion', 'skills']);
    expect(Object.keys(JSON.parse(again).skills['basic-tools'])).toEqual([
      'dependencies',
      'integrity',
      'signature',
      'source',
      'version',
    ]);
    // A lock without such fields keeps its bytes.
    expect(serializeLockfile(parseLockfile(serializeLockfile(lock)).lock!)).toBe(serializeLockfile(lock));
  });

  it('lists what changed between two locks', () => {
    const next: Lockfile = structuredClone(lock);
    next.skills['web-scraping']!.version = '1.3.0';
    delete next.skills['basic-tools'];
    next.skills['new-one'] = { version: '0.1.0', source: 'folder:skills/new-one', integrity: SRI, dependencies: {} };
    expect(diffLockfiles(lock, next)).toEqual([
      '- basic-tools@1.0.0',
      '+ new-one@0.1.0',
      '~ web-scraping: 1.2.0 → 1.3.0',
    ]);
    expect(diffLockfiles(lock, structuredClone(lock))).toEqual([]);
  });

  it('refuses a key that is no skill id (a lock from a stranger names folders under --into by it)', () => {
    const bad = { lockfileVersion: 1, skills: { '../../evil': lock.skills['basic-tools'] } };
    expect(parseLockfile(JSON.stringify(bad, null, 2)).problem?.message).toContain('expected a skill id');
  });

  it('records the agent folders as "into": first key, sorted and unique; no field when there are none', () => {
    const text = serializeLockfile({ ...lock, into: ['.claude/skills', '.agents/skills', '.claude/skills'] });
    expect(
      text.startsWith('{\n  "into": [\n    ".agents/skills",\n    ".claude/skills"\n  ],\n  "lockfileVersion": 1,\n'),
    ).toBe(true);
    expect(parseLockfile(text).lock!.into).toEqual(['.agents/skills', '.claude/skills']);
    // A lock from before `into` reads, and writes the same bytes.
    const old = serializeLockfile(lock);
    expect(old).not.toContain('"into"');
    expect(serializeLockfile(parseLockfile(old).lock!)).toBe(old);
    expect(serializeLockfile({ ...lock, into: [] })).toBe(old);
    expect(parseLockfile(serializeLockfile({ ...lock, into: ['.'] })).problem).toBeUndefined();
  });

  it('refuses an "into" folder outside the lockfile\'s folder (a stranger\'s lock would have install write there), located', () => {
    for (const bad of ['../../etc', '/etc', 'a/../../x', 'skills/..', 'C:/Users/x', 'a\\b', './skills', '', 'a//b']) {
      const text = `{\n  "into": [\n    "skills",\n    ${JSON.stringify(bad)}\n  ],\n  "lockfileVersion": 1,\n  "skills": {}\n}\n`;
      expect(parseLockfile(text).problem, bad).toEqual({
        message: `skills-lock.json: into.1: expected a folder inside the lockfile's folder, relative, with "/" and no ".." (e.g. ".claude/skills")`,
        line: 4,
        column: 5,
      });
    }
    expect(parseLockfile('{"into": ".claude/skills", "lockfileVersion": 1, "skills": {}}').problem?.message).toBe(
      'skills-lock.json: into: Expected array, received string',
    );
  });

  it('lists a change of the agent folders on one line, before the skills', () => {
    const next: Lockfile = { ...structuredClone(lock), into: ['.claude/skills', 'skills'] };
    next.skills['web-scraping']!.version = '1.3.0';
    expect(diffLockfiles({ ...lock, into: ['old/skills', 'skills'] }, next)).toEqual([
      '~ into: + .claude/skills, - old/skills',
      '~ web-scraping: 1.2.0 → 1.3.0',
    ]);
    expect(diffLockfiles(lock, { ...lock, into: ['.claude/skills'] })).toEqual(['~ into: + .claude/skills']);
    expect(diffLockfiles({ ...lock, into: ['b', 'a'] }, { ...lock, into: ['a', 'b'] })).toEqual([]);
  });
});

describe('skills-lock.json ids (issue 12: one rule for ids)', () => {
  const entry = { version: '1.0.0', source: 'registry', integrity: SRI, dependencies: {} };
  it('keys skills by the one id rule: Unicode names in, anything else out, located', () => {
    for (const id of ['résumé', '数据', 'a1-b2'])
      expect(parseLockfile(JSON.stringify({ lockfileVersion: 1, skills: { [id]: entry } })).lock, id).toBeDefined();
    for (const id of ['Résumé', 're\u0301sume\u0301', 'a--b', 'a-', '..', 'a/b']) {
      const { lock: parsed, problem } = parseLockfile(JSON.stringify({ lockfileVersion: 1, skills: { [id]: entry } }));
      expect(parsed, id).toBeUndefined();
      expect(problem?.message, id).toContain('expected a skill id: lowercase letters, digits and hyphens');
    }
  });
});
