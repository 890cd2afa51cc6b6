import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSecretsFile, loadSecrets, locateSecrets, parseSecrets, secretsFor } from '../../../src/run/secrets.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-secrets-unit-');
afterAll(cleanup);

describe('parseSecrets', () => {
  it("reads seed 000's flat object, and sections by skill id", () => {
    const s = parseSecrets('\uFEFF{"A_KEY": "a-value", "my-skill": {"A_KEY": "own-value", "B": ""}}', '/s/env.json');
    expect(s).toEqual({
      file: '/s/env.json',
      shared: { A_KEY: 'a-value' },
      bySkill: { 'my-skill': { A_KEY: 'own-value', B: '' } },
    });
  });

  it.each([
    [
      '{\n  "A": "value-1",\n  "B": "value-2"\n  "C": "x"\n}',
      '/s/env.json:4:3: not valid JSON: expected "," between entries',
    ],
    ['{"A": "v", // note\n}', '/s/env.json:1:12: not valid JSON: comments are not allowed in JSON'],
    ['["A"]', '/s/env.json:1:1: expected a JSON object'],
    ['', '/s/env.json:1:1: not valid JSON'],
    [
      '{\n  "A": "secret-value",\n  "PORT": 8080\n}',
      '/s/env.json:3:11: "PORT" must be text (a JSON string) or an object of a skill\'s variables, found a number',
    ],
    [
      '{"skill": {\n  "K": ["secret-value"]}}',
      '/s/env.json:2:8: "skill"."K" must be text (a JSON string), found a list',
    ],
  ])('locates the mistake in %j and quotes no value', (text, message) => {
    let err: Error | undefined;
    try {
      parseSecrets(text, '/s/env.json');
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).toContain(message);
    expect(err?.message).not.toContain('secret-value');
    expect(err?.message).not.toContain('value-1');
  });
});

describe('secretsFor', () => {
  it("takes the skill's own section first, then the shared names; what neither has is missing", () => {
    const s = parseSecrets('{"A": "shared-a", "B": "shared-b", "sk": {"A": "own-a"}}', 'f');
    expect(secretsFor(s, 'sk', ['A', 'B', 'C'])).toEqual({ values: { A: 'own-a', B: 'shared-b' }, missing: ['C'] });
    expect(secretsFor(s, 'other', ['A'])).toEqual({ values: { A: 'shared-a' }, missing: [] });
    expect(secretsFor(undefined, 'sk', ['A'])).toEqual({ values: {}, missing: ['A'] });
    expect(secretsFor(s, 'sk', ['toString'])).toEqual({ values: {}, missing: ['toString'] });
  });
});

describe('locateSecrets and loadSecrets', () => {
  it('takes --secrets, else SKILLS_SECRETS, else secrets/env.json beside the registry (seed 000: /registry → /secrets/env.json)', () => {
    expect(defaultSecretsFile('/registry')).toBe('/secrets/env.json');
    expect(defaultSecretsFile('/home/u/.skills')).toBe('/home/u/secrets/env.json');
    const base = { cwd: '/work', registry: '/work/.skills' };
    expect(locateSecrets({ ...base, secrets: 'k.json', env: { SKILLS_SECRETS: '/e.json' } })).toEqual({
      file: '/work/k.json',
      explicit: true,
      from: '--secrets',
    });
    expect(locateSecrets({ ...base, env: { SKILLS_SECRETS: '/e.json' } })).toEqual({
      file: '/e.json',
      explicit: true,
      from: 'SKILLS_SECRETS',
    });
    expect(locateSecrets({ ...base, env: {} })).toEqual({
      file: '/work/secrets/env.json',
      explicit: false,
      from: 'default',
    });
  });

  it('a default file that does not exist is no secrets; a named one is an error', async () => {
    const dir = fresh();
    expect(await loadSecrets({ file: join(dir, 'none.json'), explicit: false, from: 'default' }, 1000)).toBeUndefined();
    await expect(
      loadSecrets({ file: join(dir, 'none.json'), explicit: true, from: '--secrets' }, 1000),
    ).rejects.toThrow(/none\.json \(from --secrets\) does not exist/);
    writeFileSync(join(dir, 'env.json'), '{"A": "1"}');
    expect(
      (await loadSecrets({ file: join(dir, 'env.json'), explicit: true, from: '--secrets' }, 1000))?.shared,
    ).toEqual({ A: '1' });
  });
});

describe('loadSecrets: any kind of file, never read past the limit', () => {
  const named = (file: string) => ({ file, explicit: true, from: '--secrets' as const });

  it('reads a regular file as parseSecrets reads its text; a missing default file is no secrets', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'env.json'), '{"A": "1", "sk": {"B": "2"}}');
    expect(await loadSecrets(named(join(dir, 'env.json')), 1000)).toEqual(
      parseSecrets('{"A": "1", "sk": {"B": "2"}}', join(dir, 'env.json')),
    );
    expect(await loadSecrets({ file: join(dir, 'none.json'), explicit: false, from: 'default' }, 1000)).toBeUndefined();
    await expect(loadSecrets(named(join(dir, 'none.json')), 1000)).rejects.toThrow(/does not exist/);
  });

  it('refuses a file larger than 1 MiB by its size', async () => {
    const file = join(fresh(), 'big.json');
    writeFileSync(file, '');
    truncateSync(file, 3 * 1024 ** 3);
    await expect(loadSecrets(named(file), 1000)).rejects.toThrow(/larger than 1048576 bytes \(3221225472 bytes\)/);
  });

  it.runIf(existsSync('/dev/zero'))('cuts an endless device at the limit', async () => {
    await expect(loadSecrets(named('/dev/zero'), 5000)).rejects.toThrow(/\/dev\/zero: the secrets file is larger/);
  });

  it.runIf(process.platform === 'linux')('reads a FIFO once written, and gives up on a silent one', async () => {
    const dir = fresh();
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    setTimeout(() => writeFileSync(fifo, '{"A": "from a fifo"}'), 100);
    expect((await loadSecrets(named(fifo), 5000))?.shared).toEqual({ A: 'from a fifo' });
    const silent = join(dir, 'silent');
    execFileSync('mkfifo', [silent]);
    await expect(loadSecrets(named(silent), 200)).rejects.toThrow(/did not end within 0.2 s/);
  });
});
