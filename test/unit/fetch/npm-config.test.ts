import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  hasCredentials,
  loadNpmConfig,
  registryOf,
  registrySetBy,
  registryTimeoutMs,
} from '../../../src/fetch/npm-config.js';
import { caught } from '../../helpers/errors.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-npm-config-');
afterAll(cleanup);

function layout() {
  const root = fresh();
  const home = join(root, 'home');
  const project = join(root, 'work', 'project');
  mkdirSync(join(project, 'deep', 'er'), { recursive: true });
  mkdirSync(home, { recursive: true });
  return { home, project };
}

describe('loadNpmConfig', () => {
  it('reads the user .npmrc, then the nearest project .npmrc, then NPM_CONFIG_* (each over the one before)', () => {
    const { home, project } = layout();
    writeFileSync(join(home, '.npmrc'), 'registry=https://user.example/\n@acme:registry=https://user-acme.example/\n');
    writeFileSync(join(project, '.npmrc'), '@acme:registry=https://project-acme.example/\nscope=@acme\n');
    const config = loadNpmConfig({ cwd: join(project, 'deep', 'er'), env: { HOME: home, NPM_CONFIG_TAG: 'next' } });
    expect(config.files).toEqual([join(project, '.npmrc'), join(home, '.npmrc')]);
    expect(registryOf(config, '@acme')).toBe('https://project-acme.example/');
    expect(registryOf(config, '@other')).toBe('https://user.example/');
    expect(config.settings.scope).toBe('@acme');
    expect(config.settings.tag).toBe('next');
    const env = loadNpmConfig({ cwd: project, env: { HOME: home, npm_config_registry: 'http://127.0.0.1:9/' } });
    expect(registryOf(env)).toBe('http://127.0.0.1:9/');
  });

  it('defaults to the public registry, and knows when a registry has credentials', () => {
    const { home, project } = layout();
    expect(registryOf(loadNpmConfig({ cwd: project, env: { HOME: home } }))).toBe('https://registry.npmjs.org/');
    writeFileSync(join(home, '.npmrc'), '//127.0.0.1:4873/:_authToken=${T}\n');
    const config = loadNpmConfig({ cwd: project, env: { HOME: home, T: 'tok' } });
    expect(hasCredentials(config, 'http://127.0.0.1:4873/')).toBe(true);
    expect(hasCredentials(config, 'http://127.0.0.1:4874/')).toBe(false);
  });

  it('names the file and the variable when an .npmrc uses one that is not set', async () => {
    const { home, project } = layout();
    writeFileSync(join(project, '.npmrc'), '//h/:_authToken=${NPM_TOKEN}\n');
    const err = await caught(() => loadNpmConfig({ cwd: project, env: { HOME: home } }));
    expect(err.message).toBe(`${join(project, '.npmrc')} names \${NPM_TOKEN}, which is not set`);
    expect(err.hint).toContain('${NPM_TOKEN?}');
  });

  it('carries SKILLS_REGISTRY_TIMEOUT in milliseconds (60 s unset), and refuses a value that is not seconds above 0', async () => {
    const { home, project } = layout();
    expect(loadNpmConfig({ cwd: project, env: { HOME: home } }).timeoutMs).toBe(60_000);
    expect(loadNpmConfig({ cwd: project, env: { HOME: home, SKILLS_REGISTRY_TIMEOUT: '2.5' } }).timeoutMs).toBe(2500);
    for (const bad of ['soon', '0', '-3', '30s']) {
      const err = await caught(() => registryTimeoutMs({ SKILLS_REGISTRY_TIMEOUT: bad }));
      expect(err.code).toBe('E_CONFIG');
      expect(err.message).toBe(`SKILLS_REGISTRY_TIMEOUT is "${bad}"; it is a number of seconds above 0`);
      expect(err.hint).toContain('SKILLS_REGISTRY_TIMEOUT=30');
    }
  });

  it("says where the registry of a scope was taken from: the .npmrc line, the variable, or npm's default", () => {
    const { home, project } = layout();
    const none = loadNpmConfig({ cwd: project, env: { HOME: home } });
    expect(registrySetBy(none, '@acme')).toBe(
      "npm's default registry: no .npmrc (nor NPM_CONFIG_REGISTRY) sets @acme:registry= or registry=",
    );
    expect(registrySetBy(none)).toBe("npm's default registry: no .npmrc (nor NPM_CONFIG_REGISTRY) sets registry=");
    writeFileSync(join(home, '.npmrc'), 'registry=https://user.example/\n');
    writeFileSync(join(project, '.npmrc'), '@acme:registry=https://acme.example/\n');
    const files = loadNpmConfig({ cwd: project, env: { HOME: home } });
    expect(registrySetBy(files, '@acme')).toBe(`set by @acme:registry= in ${join(project, '.npmrc')}`);
    expect(registrySetBy(files, '@other')).toBe(`set by registry= in ${join(home, '.npmrc')}`);
    const env = loadNpmConfig({ cwd: project, env: { HOME: home, npm_config_registry: 'http://127.0.0.1:9/' } });
    expect(registrySetBy(env, '@other')).toBe('set by npm_config_registry');
  });
});
