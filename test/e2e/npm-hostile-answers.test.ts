// Registry answers of a shape the npm API never gives: a search hit that is null, has no package or a name that is
// not a string; keywords as a string; a packument whose versions are an array. Served from 127.0.0.1.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { serveLocal } from '../helpers/http.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-npm-hostile-');
/** What the registry answers for each path, as JSON. */
const answers = new Map<string, unknown>();
/** Tarballs served as they are, by path. */
const tarballs = new Map<string, Buffer>();
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ url, close } = await serveLocal((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    const tarball = tarballs.get(path);
    if (tarball) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
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

describe('an npm package whose tarball the archive reader refuses', () => {
  /** A tar of `entries` (path, type, content or link target), gzipped. */
  const tgz = (entries: { path: string; type?: 'File' | 'SymbolicLink'; body?: string; linkpath?: string }[]) => {
    const blocks: Buffer[] = [];
    for (const e of entries) {
      const body = Buffer.from(e.body ?? '');
      const b = Buffer.alloc(512);
      const type = e.type ?? 'File';
      const size = type === 'File' ? body.length : 0;
      new Header({ path: e.path, type, size, mode: 0o644, mtime: new Date(0), linkpath: e.linkpath }).encode(b);
      blocks.push(b);
      if (size > 0) blocks.push(body, Buffer.alloc((512 - (size % 512)) % 512));
    }
    return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
  };
  /** The packument of @evil/upd at `version`, its tarball served at /t/upd-<version>.tgz. */
  const serve = (version: string, bytes: Buffer) => {
    const tarball = `${url}t/upd-${version}.tgz`;
    tarballs.set(`/t/upd-${version}.tgz`, bytes);
    const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
    answers.set('/@evil%2fupd', {
      name: '@evil/upd',
      'dist-tags': { latest: version },
      versions: { [version]: { name: '@evil/upd', version, dist: { tarball, integrity } } },
    });
    return tarball;
  };
  const good = [
    { path: 'package/package.json', body: JSON.stringify({ name: '@evil/upd', version: '1.0.0' }) },
    { path: 'package/SKILL.md', body: skillMd('name: upd\ndescription: Does upd things. Use when testing npm.') },
  ];

  it('names the package, its version and its tarball URL, not a scratch file, with a hint for a package; leaves a link out', async () => {
    const shapes = [
      { entry: { path: 'package/../../../escape', body: 'x' }, says: 'entry "package/../../../escape" contains ".."' },
    ];
    for (const [i, { entry, says }] of shapes.entries()) {
      const version = `1.0.${i}`;
      const tarball = serve(version, tgz([...good, entry]));
      const dir = project({ '.npmrc': `@evil:registry=${url}\n` });
      const r = await runCli(['install', 'npm:@evil/upd', '--agent', 'claude-code', '--json'], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(2);
      const { error } = JSON.parse(r.stdout) as { error: { message: string; hint: string } };
      expect(error.message.startsWith(`npm:@evil/upd@${version} (${tarball}): refused: ${says}`), error.message).toBe(
        true,
      );
      expect(error.message).not.toContain('.unpack-');
      expect(error.hint).toBe(
        'the publisher of @evil/upd made a tarball that skills will not unpack: install another version, and tell them (npm view @evil/upd bugs)',
      );
      expect(existsSync(join(dir, '.claude'))).toBe(false);
    }
    // A link in the tarball is left out, as npm's pacote leaves it: nothing is written for it, the rest installs, and
    // a warning says so (it refused the whole package before the archive links were left out).
    {
      const version = '1.0.9';
      serve(version, tgz([...good, { path: 'package/link', type: 'SymbolicLink', linkpath: '/etc/passwd' }]));
      const dir = project({ '.npmrc': `@evil:registry=${url}\n` });
      const r = await runCli(['install', 'npm:@evil/upd', '--agent', 'claude-code'], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(`@evil/upd@${version}: a link left out of its skills: package/link`);
      expect(existsSync(join(dir, '.claude/skills/upd/SKILL.md'))).toBe(true);
      expect(existsSync(join(dir, '.claude/skills/upd/link'))).toBe(false);
    }
    // Installed again from a lock that names it (its tarball and integrity as the lock keeps them): the same.
    const bytes = tgz([...good, shapes[0]!.entry]);
    const tarball = serve('1.0.0', bytes);
    const lock = {
      lockfileVersion: 1,
      skills: {
        upd: {
          version: '1.0.0',
          source: 'npm:@evil/upd',
          tarball,
          tarballIntegrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
          integrity: `sha512-${'A'.repeat(86)}==`,
          dependencies: {},
        },
      },
    };
    const dir = project({ '.npmrc': `@evil:registry=${url}\n`, 'skills-lock.json': `${JSON.stringify(lock)}\n` });
    const r = await runCli(['install', '--json'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toContain(
      `npm:@evil/upd@1.0.0 (${tarball}): refused: entry "package/../../../escape" contains ".."`,
    );
  });
});
