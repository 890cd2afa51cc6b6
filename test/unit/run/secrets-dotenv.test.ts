import { describe, expect, it } from 'vitest';
import { parseSecrets, secretsFormat } from '../../../src/run/secrets.js';
import { parseDotenvValues } from '../../../src/run/secrets-dotenv.js';

describe('secretsFormat', () => {
  it.each([
    ['/s/env.json', 'A=1', 'json'],
    ['/s/ENV.JSON', '', 'json'],
    ['/s/.env', '{"A": "1"}', 'dotenv'],
    ['/s/prod.env', '{"A": "1"}', 'dotenv'],
    ['/s/.env.local', '{"A": "1"}', 'dotenv'],
    ['/s/secrets', '\uFEFF  {"A": "1"}', 'json'],
    ['/dev/fd/63', 'A=1', 'dotenv'],
    ['/s/secrets', '', 'dotenv'],
  ])('%s holding %j is %s', (file, text, format) => {
    expect(secretsFormat(file, text)).toBe(format);
  });
});

describe('parseDotenvValues', () => {
  it('reads NAME=value lines as the dotenv packages do', () => {
    const text = [
      '\uFEFF# a comment',
      '',
      'PLAIN=abc123',
      '  SPACED = padded value  ',
      'export EXPORTED=yes',
      'HASH=a#b # a comment',
      'EMPTY=',
      "SINGLE='as $written \\n' # kept literally",
      'DOUBLE="tab\\there \\"quoted\\" back\\\\slash\\nnew"',
      'MULTI="-----BEGIN KEY-----',
      'abc',
      '-----END KEY-----"',
      'NO_EXPAND=${PLAIN}',
      'PLAIN=last wins',
      '__proto__=just a name',
    ].join('\r\n');
    const { values, problem } = parseDotenvValues(text);
    expect(problem).toBeUndefined();
    expect(values).toEqual({
      PLAIN: 'last wins',
      SPACED: 'padded value',
      EXPORTED: 'yes',
      HASH: 'a#b',
      EMPTY: '',
      SINGLE: 'as $written \\n',
      DOUBLE: 'tab\there "quoted" back\\slash\nnew',
      MULTI: '-----BEGIN KEY-----\nabc\n-----END KEY-----',
      NO_EXPAND: '${PLAIN}',
      ['__proto__']: 'just a name',
    });
    expect(Object.hasOwn(values, '__proto__')).toBe(true);
  });

  it.each([
    ['A=1\n  not an assignment secret-value\n', 2, 3, 'expected NAME=value'],
    ['A=1\nB="secret-value\nmore\n', 2, 3, 'the value opened with " here has no closing "'],
    ["A='secret-value' trailing\n", 1, 18, "unexpected text after the closing '"],
    ['my-skill.KEY=secret-value\n', 1, 1, 'expected NAME=value'],
  ])('locates the mistake in %j', (text, line, column, message) => {
    const { problem } = parseDotenvValues(text);
    expect(problem).toMatchObject({ line, column });
    expect(problem?.message).toContain(message);
    expect(problem?.message).not.toContain('secret-value');
  });
});

describe('parseSecrets: dotenv', () => {
  it('gives shared values only (dotenv has no sections)', () => {
    expect(parseSecrets('A=1\nB="two"\n', '/s/secrets.env')).toEqual({
      file: '/s/secrets.env',
      shared: { A: '1', B: 'two' },
      bySkill: {},
    });
  });

  it('a mistake is a located E_CONFIG that quotes no value', () => {
    let err: (Error & { code?: string; hint?: string }) | undefined;
    try {
      parseSecrets('A=1\nB="secret-value\n', '/s/secrets.env');
    } catch (e) {
      err = e as Error;
    }
    expect(err?.code).toBe('E_CONFIG');
    expect(err?.message).toBe('/s/secrets.env:2:3: the value opened with " here has no closing "');
    expect(err?.hint).toContain('NAME=value');
  });
});
