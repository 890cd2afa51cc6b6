import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadSkill } from '../../../src/skill/load.js';
import { validateSkill } from '../../../src/skill/validate.js';
import { MAX_SKILL_FILE_BYTES, skillFileIn } from '../../../src/skill/skill-file.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-load-');
afterAll(cleanup);

/** A skill folder written from a tree, loaded. */
function load(
  tree: Parameters<typeof writeTree>[1],
  folder = 'weather',
  options: Parameters<typeof loadSkill>[1] = {},
) {
  const dir = join(fresh(), folder);
  writeTree(dir, tree);
  return loadSkill(dir, options);
}

describe('loadSkill: both layouts into the one Skill model', () => {
  it('reads SKILL.md: fields, body as instructions, positions, scripts and files', () => {
    const s = load({
      'SKILL.md': skillMd(
        'name: weather\ndescription: " Gets the weather. Use when asked about rain. "\nversion: 1.2.0\nmetadata:\n  author: me\ntriggers:\n  keywords: [rain]\nscripts:\n  - scripts/get.sh\ndependencies:\n  - http-tools@^1\n',
        '# Weather\n\nLook outside.\n',
      ),
      'scripts/get.sh': { content: '#!/bin/sh\necho\n', mode: 0o755 },
      'scripts/extra.py': 'print(1)\n',
      'references/api.md': '# API\n',
    });
    expect(s).toMatchObject({
      id: 'weather',
      name: 'weather',
      description: 'Gets the weather. Use when asked about rain.',
      layout: 'skill-md',
      version: '1.2.0',
      owner: 'me',
      instructions: '# Weather\n\nLook outside.\n',
      references: ['references/api.md'],
      triggers: { keywords: ['rain'], verbs: [], patterns: [] },
      dependencies: [expect.objectContaining({ id: 'http-tools' })],
    });
    expect(s.instructionParts).toEqual([{ file: s.file, text: s.instructions, line: 14, ascii: true }]);
    expect(s.positions.description).toEqual({ line: 3, column: 1 });
    expect(s.positions['metadata.author']).toEqual({ line: 6, column: 3 });
    expect(s.positions['scripts[0]']).toEqual({ line: 10, column: 3 });
    expect(s.scripts).toEqual([
      { path: 'scripts/get.sh', declared: true, exists: true, executable: true },
      { path: 'scripts/extra.py', declared: false, exists: true, executable: false },
    ]);
    expect(s.diagnostics).toEqual([]);
  });

  it('reads manifest.json: id and name, context files as instructions, positions of nested fields', () => {
    const s = load(
      {
        'manifest.json': JSON.stringify(
          {
            id: 'weather',
            name: 'Weather',
            version: '1.0.0',
            description: 'Gets the weather. Use when asked about rain.',
            owner: 'built-in',
            context: ['context/a.md', 'context/b.md'],
            envVars: ['API_KEY'],
            mcpServers: [{ name: 'w', type: 'remote', url: 'https://example.com/mcp' }],
          },
          null,
          2,
        ),
        'context/a.md': 'First.\r\n',
        'context/b.md': 'Second.\n',
        '.env.example': 'API_KEY=\n',
      },
      'folder-name',
    );
    expect(s).toMatchObject({
      id: 'weather',
      name: 'Weather',
      layout: 'manifest',
      owner: 'built-in',
      envVars: ['API_KEY'],
      envExample: ['API_KEY'],
    });
    expect(s.instructions).toBe('First.\n\n\nSecond.\n');
    expect(s.instructionParts.map((p) => p.file)).toEqual([join(s.root, 'context/a.md'), join(s.root, 'context/b.md')]);
    expect(s.mcpServers).toEqual([{ name: 'w', type: 'remote', url: 'https://example.com/mcp' }]);
    expect(s.positions['mcpServers[0].url']).toEqual({ line: 18, column: 7 });
    expect(s.diagnostics).toEqual([]);
  });

  it('accepts a BOM and CRLF, and says when the file is named skill.md or both layouts are there', () => {
    const s = load({
      'skill.md': `\ufeff${skillMd('name: weather\ndescription: Gets it. Use when asked.').replace(/\n/g, '\r\n')}`,
    });
    expect(s.description).toBe('Gets it. Use when asked.');
    expect(s.source.startsWith('---\nname: weather\n')).toBe(true);
    expect(s.diagnostics.map((d) => d.rule)).toEqual(['skill-file-name']);
    // Any case of SKILL.md is the skill file, named in the finding; SKILL.md itself wins over the others.
    for (const name of ['Skill.md', 'SKILL.MD', 'skill.MD']) {
      const odd = load({ [name]: skillMd('name: weather\ndescription: Gets it. Use when asked.') });
      expect(odd.layout).toBe('skill-md');
      expect(odd.description).toBe('Gets it. Use when asked.');
      expect(odd.diagnostics).toEqual([
        expect.objectContaining({
          rule: 'skill-file-name',
          message: `the skill file is named ${name}; the standard name is SKILL.md: agents on macOS and Windows, whose file names ignore case, load it, but not on Linux`,
          hint: `rename it: git mv ${name} SKILL.md`,
        }),
      ]);
    }
    expect(skillFileIn(['skill.md', 'Skill.md', 'README.md'])?.name).toBe('Skill.md');
    expect(skillFileIn(['skill.md', 'SKILL.md', 'Skill.md'])?.name).toBe('SKILL.md');
    expect(skillFileIn(['SKILL.mdx', 'SKILL', 'manifest.json'])?.name).toBe('manifest.json');
    const both = load({ 'SKILL.md': skillMd('name: weather\ndescription: d'), 'manifest.json': '{}' });
    expect(both.layout).toBe('skill-md');
    expect(both.diagnostics.map((d) => d.rule)).toEqual(['layout-conflict']);
  });

  it('reports broken YAML at its line, with the repair the hint and lint --fix share', () => {
    const s = load({ 'SKILL.md': skillMd('name: weather\ndescription: Use when: it rains') });
    expect(s.raw).toEqual({});
    expect(s.description).toBe('');
    expect(s.diagnostics).toHaveLength(1);
    expect(s.diagnostics[0]).toMatchObject({
      rule: 'yaml-syntax',
      ruleId: 'SK003',
      severity: 'error',
      line: 3,
      data: { slip: { kind: 'colon', line: 3 } },
    });
    expect(s.diagnostics[0]!.hint).toContain('quote it: description: "Use when: it rains"');
    const json = load({ 'manifest.json': '{"id": "weather",\n  "name": }' });
    expect(json.diagnostics[0]).toMatchObject({ rule: 'json-syntax', line: 2, column: 11 });
  });

  it('reports an oversized skill file without reading it, and types that do not fit at their place', () => {
    const big = load({ 'SKILL.md': skillMd('name: weather\ndescription: d', 'x'.repeat(MAX_SKILL_FILE_BYTES)) });
    expect(big.diagnostics).toMatchObject([{ rule: 'file-too-large', severity: 'error' }]);
    expect(big.diagnostics[0]!.message).toBe(
      `SKILL.md is ${MAX_SKILL_FILE_BYTES + 37} bytes; at most ${MAX_SKILL_FILE_BYTES} bytes are read`,
    );
    expect(big.source).toBe('');
    const typed = load({
      'SKILL.md': skillMd('name: weather\ndescription: d\nmetadata:\n  author:\n    name: me\nlicense: 2024'),
    });
    expect(typed.diagnostics.map((d) => [d.rule, d.message, d.line])).toEqual([
      ['scalar-as-text', 'license: 2024 is read as the text "2024", not as a number', 7],
      ['metadata-format', 'metadata.author is a mapping, not text', 5],
    ]);
    expect(typed.diagnostics[1]!.severity).toBe('warning');
    expect(typed.diagnostics[1]!.hint).toMatch(/the agent that reads this key takes it/);
  });

  it('reads an empty value under metadata as empty text, as the reference does, not as a wrong type', () => {
    // Jeffallan/claude-skills writes `related-skills:` with nothing after it: the skill was invalid, and install and
    // registry sync skipped it.
    const s = load({
      'SKILL.md': skillMd('name: weather\ndescription: d\nmetadata:\n  related-skills:\n  author:\n  domain: language'),
    });
    expect(s.diagnostics).toEqual([]);
    expect(s.metadata).toEqual({ 'related-skills': '', author: '', domain: 'language' });
    expect(s.owner).toBeUndefined();
  });

  it('says which text fields look typed, wherever their token is, and finds the places only when asked', () => {
    const s = load({
      'SKILL.md': skillMd(
        [
          'name: weather',
          'description: 12 monkeys. Use when it rains.',
          'version: 1.0',
          '  continued',
          'license: "2024"',
          'compatibility: yes',
          'brief_description: |',
          '  1.0',
          'allowed-tools: !!str 7',
        ].join('\n'),
      ),
    });
    expect(s.diagnostics.map((d) => [d.rule, d.message, d.line])).toEqual([
      ['scalar-as-text', 'version: 1.0 is read as the text "1.0 continued", not as a number', 4],
      ['scalar-as-text', 'compatibility: yes is read as the text "yes", not as a boolean', 7],
    ]);
    // A comment after the value is not part of what was written, nor of what it looks like.
    const commented = load({
      'SKILL.md': skillMd('name: weather\ndescription: d\ncompatibility: no # not yet\nlicense: 2 # v2'),
    });
    expect(commented.diagnostics.map((d) => [d.message, d.line])).toEqual([
      ['compatibility: no is read as the text "no", not as a boolean', 4],
      ['license: 2 is read as the text "2", not as a number', 5],
    ]);
    // A skill with nothing to say of its fields never locates them until asked; asked, they are all there.
    const plain = load({ 'SKILL.md': skillMd('name: weather\ndescription: Use when it rains.\nlicense: MIT') });
    expect(Object.getOwnPropertyDescriptor(plain, 'positions')?.get).toBeTypeOf('function');
    expect(plain.positions).toMatchObject({ name: { line: 2 }, description: { line: 3 }, license: { line: 4 } });
    expect(Object.getOwnPropertyDescriptor(plain, 'positions')?.value).toBe(plain.positions);
  });

  it('throws for a folder that holds no skill file', () => {
    expect(() => load({ 'README.md': '# no skill\n' })).toThrow(
      /is not a skill: it holds no SKILL.md or manifest.json/,
    );
  });

  it('says which instructions are ASCII alone (from the bytes), and validate still finds a control far into them', () => {
    const long = 'Plain words on a line.\n'.repeat(400);
    const ascii = load({ 'SKILL.md': skillMd('name: weather\ndescription: Weather. Use when asked.\n', long) });
    expect(ascii.instructionParts.map((p) => p.ascii)).toEqual([true]);
    const other = load({
      'SKILL.md': skillMd('name: weather\ndescription: Weather. Use when asked.\n', `${long}Café.\n`),
    });
    expect(other.instructionParts.map((p) => p.ascii)).toEqual([undefined]);
    // An ESC and a DEL past the first 4096 characters of an ASCII body (the quicker check) are still reported.
    const escaped = load({
      'SKILL.md': skillMd('name: weather\ndescription: Weather. Use when asked.\n', `${long}Red: \u001b[31m\u007f\n`),
    });
    expect(escaped.instructionParts[0]!.ascii).toBe(true);
    const found = validateSkill(escaped).filter((d) => d.rule === 'control-characters');
    expect(found.map((d) => [d.line, d.message.split(':')[0]])).toEqual([
      [405, 'U+001B (ESC), U+007F (DEL) in the instructions'],
    ]);
    const manifest = load({
      'manifest.json': JSON.stringify({
        id: 'weather',
        name: 'Weather',
        version: '1.0.0',
        description: 'Gets the weather. Use when asked about rain.',
        owner: 'built-in',
        context: ['a.md', 'b.md'],
      }),
      'a.md': long,
      'b.md': 'Déjà vu.\n',
    });
    expect(manifest.instructionParts.map((p) => p.ascii)).toEqual([true, undefined]);
  });
});
