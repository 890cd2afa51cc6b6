// Registry answers of a shape the npm API never gives: a search hit that is null, has no package or a name that is
// not a string; keywords as a string; a packument whose versions are an array. Served from 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { serveLocal } from '../helpers/http.js';
import { writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-npm-hostile-');
/** What the registry answers for each path, as JSON. */
const answers = new Map<string, unknown>();
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ url, close } = await serveLocal((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    if (!answers.has(path)) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers.get(path)));
  }));
});
afterAll(async () => {
  await close();
  cleanup();
});

const hit = (p: unknown) => ({ package: p, score: { final: 1 }, searchScore: 1 });
const project = (files: Record<string, string> = {}) => {
  const dir = fresh('project');
  writeTree(dir, { '.npmrc': `registry=${url}\n`, ...files });
  return dir;
};

describe('skills search against hostile hits', () => {
  it('skips malformed hits with one warning that counts them, and lists the good one', async () => {
    answers.set('/-/v1/search', {
      objects: [
        null,
        {},
        hit({ name: 5, version: '1.0.0', keywords: ['agentskills'] }),
        hit({ name: '@acme/odd', version: '1.0.0', description: { a: 1 }, keywords: ['agentskills'] }),
        hit({ name: '@acme/pdf', version: '1.2.0', description: 'Fill PDF forms.', keywords: ['agentskills'] }),
      ],
    });
    const dir = project();
    const r = await runCli(['search', 'pdf'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('@acme/pdf@1.2.0');
    expect(r.stderr).toContain("answered 4 hits that are not of the search API's shape; skipped");
    expect(r.stderr).not.toContain('This is a bug');
    const json = await runCli(['search', 'pdf', '--json'], { cwd: dir });
    expect(JSON.parse(json.stdout)).toMatchObject({ malformed: 4, hits: [{ name: '@acme/pdf' }] });
  });

  it('counts keywords only when they are a list: a string that holds "agentskills" is not the keyword', async () => {
    answers.set('/-/v1/search', {
      objects: [hit({ name: '@acme/notaskill', version: '1.0.0', keywords: 'not-agentskills-at-all' })],
    });
    answers.set('/@acme%2fnotaskill', {
      name: '@acme/notaskill',
      'dist-tags': { latest: '1.0.0' },
      versions: { '1.0.0': { name: '@acme/notaskill', version: '1.0.0', keywords: 'not-agentskills-at-all' } },
    });
    const r = await runCli(['search', 'pdf', '--json'], { cwd: project() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ hits: [], skipped: 1, malformed: 0 });
  });
});

describe('skills outdated against a packument whose versions are a list', () => {
  it('says the skill could not be checked, not that it is up to date', async () => {
    answers.set('/@acme%2fpdf', { name: '@acme/pdf', 'dist-tags': { latest: '9.0.0' }, versions: ['9.0.0'] });
    const lock = {
      lockfileVersion: 1,
      skills: {
        pdf: {
          version: '1.0.0',
          source: 'npm:@acme/pdf',
          ref: '^1.0.0',
          integrity: `sha512-${'A'.repeat(86)}==`,
          dependencies: {},
        },
      },
    };
    const dir = project({ 'skills-lock.json': `${JSON.stringify(lock, null, 2)}\n` });
    const r = await runCli(['outdated'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(`${r.stdout}${r.stderr}`).not.toContain('up to date');
    expect(r.stderr).toContain('with no versions');
  });
});
