import { describe, expect, it } from 'vitest';
import { nerfDart, normalizeRegistry, parseNpmrc } from '../../../src/formats/npmrc.js';

describe('parseNpmrc', () => {
  it('reads settings, scoped registries and credentials keyed by the registry', () => {
    const { settings, missing } = parseNpmrc(
      '; a comment\nregistry=https://r.example/\n@acme:registry = "https://npm.acme.test/repo/"\n//npm.acme.test/repo/:_authToken=abc\nalways-auth=true\n',
      {},
    );
    expect(missing).toEqual([]);
    expect(settings).toEqual({
      registry: 'https://r.example/',
      '@acme:registry': 'https://npm.acme.test/repo/',
      '//npm.acme.test/repo/:_authToken': 'abc',
      'always-auth': 'true',
    });
  });

  it('replaces ${NAME} from the environment, names what is unset, and leaves ${NAME?} empty', () => {
    const r = parseNpmrc('//h/:_authToken=${TOKEN}\nother=${UNSET}\nopt=a${MAYBE?}b\nkept=\\${TOKEN}\n', {
      TOKEN: 's3cret',
    });
    expect(r.settings['//h/:_authToken']).toBe('s3cret');
    expect(r.settings.opt).toBe('ab');
    expect(r.settings.kept).toBe('${TOKEN}');
    expect(r.missing).toEqual(['UNSET']);
  });
});

describe('registry URLs', () => {
  it('normalizes the trailing slash and gives npm credential keys', () => {
    expect(normalizeRegistry('http://127.0.0.1:4873')).toBe('http://127.0.0.1:4873/');
    expect(nerfDart('http://127.0.0.1:4873/')).toBe('//127.0.0.1:4873/');
    expect(nerfDart('https://npm.pkg.github.com/owner')).toBe('//npm.pkg.github.com/owner/');
  });
});
