// skills publish against a real npm registry (Verdaccio, started here on 127.0.0.1 with no uplinks) and into a
// well-known folder served by a static node:http server.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';
import { verdaccioForFile } from '../helpers/verdaccio.js';
import { freePort } from '../helpers/git-repos.js';

const { fresh, cleanup } = tempFolders('skills-publish-e2e-');
const registry = verdaccioForFile(fresh, cleanup);

const TOKEN_ENV = 'SKILLS_TEST_NPM_TOKEN';

/** A project whose .npmrc sends @acme to the test registry, with the token read from the environment. */
function project(skills: Record<string, string>): string {
  const dir = fresh('project');
  const host = new URL(registry.url).host;
  writeTree(dir, {
    '.npmrc': `scope=@acme\n@acme:registry=${registry.url}\n//${host}/:_authToken=\${${TOKEN_ENV}}\n`,
    ...skills,
  });
  return dir;
}

const withToken = (token = registry.token) => ({ [TOKEN_ENV]: token });
const pdf = (version: string, extra = '') =>
  skillMd(
    `name: pdf\ndescription: Extract text and tables from PDF files. Use when the user works with PDF documents.\nmetadata:\n  version: ${version}\n${extra}`,
  );

interface Packument {
  'dist-tags': Record<string, string>;
  versions: Record<
    string,
    { agentskills?: unknown; dependencies?: Record<string, string>; dist: { tarball: string; integrity: string } }
  >;
}

async function packument(name: string): Promise<{ status: number; body: Packument }> {
  const r = await fetch(`${registry.url}${name.replace('/', '%2f')}`, {
    headers: { authorization: `Bearer ${registry.token}` },
  });
  return {
    status: r.status,
    body: r.status === 200 ? ((await r.json()) as Packument) : { 'dist-tags': {}, versions: {} },
  };
}

/** The names of the entries of a .tgz (ustar names; our paths are short enough to need no pax). */
function tarNames(tgz: Buffer): string[] {
  const tar = gunzipSync(tgz);
  const names: string[] = [];
  for (let off = 0; off + 512 <= tar.length;) {
    const name = tar
      .subarray(off, off + 100)
      .toString('utf8')
      .replace(/\0.*$/s, '');
    if (name === '') break;
    const size = parseInt(
      tar
        .subarray(off + 124, off + 136)
        .toString('utf8')
        .replace(/\0.*$/s, '')
        .trim() || '0',
      8,
    );
    names.push(name);
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

describe('skills publish to an npm registry (Verdaccio)', () => {
  it('publishes a skill as @scope/<id> with the agentskills field, npm tarball layout and integrity', async () => {
    const dir = project({ 'pdf/SKILL.md': pdf('1.0.0'), 'pdf/scripts/extract.py': 'print("hi")\n' });
    const r = await runCli(['publish', 'pdf'], { cwd: dir, env: withToken() });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`published @acme/pdf@1.0.0 to ${registry.url} (tag latest)`);
    const { status, body } = await packument('@acme/pdf');
    expect(status).toBe(200);
    expect(body['dist-tags'].latest).toBe('1.0.0');
    const v = body.versions['1.0.0']!;
    expect(v.agentskills).toEqual({ skills: [{ name: 'pdf', path: './' }] });
    const tgz = Buffer.from(
      await (await fetch(v.dist.tarball, { headers: { authorization: `Bearer ${registry.token}` } })).arrayBuffer(),
    );
    expect(v.dist.integrity).toBe(`sha512-${createHash('sha512').update(tgz).digest('base64')}`);
    expect(tarNames(tgz)).toEqual([
      'package/SKILL.md',
      'package/package.json',
      'package/scripts/',
      'package/scripts/extract.py',
    ]);
    // The same version again is refused by the registry, and said plainly.
    const again = await runCli(['publish', 'pdf'], { cwd: dir, env: withToken() });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('@acme/pdf@1.0.0 is already published');
    expect(again.stderr).toContain('raise the version');
  }, 60_000);

  it('publishes a second version under another dist-tag, and maps dependencies to packages', async () => {
    const dir = project({
      'pdf/SKILL.md': pdf('1.1.0'),
      'invoice/SKILL.md': skillMd(
        'name: invoice\ndescription: Read totals from invoices. Use when the user shares an invoice.\nmetadata:\n  version: 2.0.0\ndependencies:\n  - pdf@^1.0.0\n',
      ),
    });
    const r1 = await runCli(['publish', 'pdf', '--tag', 'next'], { cwd: dir, env: withToken() });
    expect(r1.exitCode, r1.stderr).toBe(0);
    const { body } = await packument('@acme/pdf');
    expect(body['dist-tags']).toMatchObject({ latest: '1.0.0', next: '1.1.0' });
    const r2 = await runCli(['publish', 'invoice', '--json'], { cwd: dir, env: withToken() });
    expect(r2.exitCode, r2.stderr).toBe(0);
    expect(JSON.parse(r2.stdout).npm.published).toMatchObject({ name: '@acme/invoice', version: '2.0.0' });
    const inv = await packument('@acme/invoice');
    expect(inv.body.versions['2.0.0']!.dependencies).toEqual({ '@acme/pdf': '^1.0.0' });
  }, 60_000);

  it('says 401 plainly without a token or with a wrong one, and never prints the token', async () => {
    const dir = project({
      'notes/SKILL.md': skillMd(
        'name: notes\ndescription: Take notes. Use when asked to write notes.\nmetadata:\n  version: 1.0.0\n',
      ),
    });
    const none = await runCli(['publish', 'notes'], { cwd: dir, env: withToken('') });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/refused @acme\/notes@1\.0\.0: not logged in \(401\)/);
    expect(none.stderr).toContain('npm login --registry');
    const wrong = 'not-the-token-0123456789';
    const bad = await runCli(['publish', 'notes'], { cwd: dir, env: withToken(wrong) });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('401');
    expect(bad.stderr).not.toContain(wrong);
    expect((await packument('@acme/notes')).status).toBe(404);
    // A scope this user may not publish to: 403, said as such.
    const locked = await runCli(['publish', 'notes', '--scope', '@locked'], {
      cwd: dir,
      env: { ...withToken(), NPM_CONFIG_REGISTRY: registry.url },
    });
    expect(locked.exitCode).toBe(2);
    expect(locked.stderr).toContain(`${registry.url} does not let this user publish or read @locked/notes@1.0.0 (403)`);
  }, 60_000);

  it('refuses a skill with errors or without a strict version, and --dry-run publishes nothing', async () => {
    const dir = project({
      'broken/SKILL.md': skillMd('name: Broken_Name\ndescription: x\nmetadata:\n  version: 1.0.0\n'),
      'loose/SKILL.md': skillMd(
        'name: loose\ndescription: Loose versions. Use when testing versions.\nmetadata:\n  version: v1.2\n',
      ),
      'dry/SKILL.md': skillMd(
        'name: dry\ndescription: Dry runs. Use when testing dry runs.\nmetadata:\n  version: 0.1.0\n',
      ),
    });
    const broken = await runCli(['publish', 'broken'], { cwd: dir, env: withToken() });
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toContain('nothing was published');
    const loose = await runCli(['publish', 'loose'], { cwd: dir, env: withToken() });
    expect(loose.exitCode).not.toBe(0);
    expect(loose.stderr).toContain('"v1.2" is not a strict semver version');
    expect(loose.stderr).toContain('1.2.0');
    const dry = await runCli(['publish', 'dry', '--dry-run'], { cwd: dir, env: withToken() });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('@acme/dry@0.1.0 (dry run: nothing was published)');
    expect(dry.stdout).toContain('package.json');
    expect(dry.stdout).toMatch(/integrity sha512-/);
    for (const name of ['@acme/broken', '@acme/loose', '@acme/dry']) expect((await packument(name)).status).toBe(404);
  }, 60_000);

  it('says so when the registry stops answering, within the timeout', async () => {
    const port = await freePort();
    const silent: Server = createServer(() => {
      // accept and never answer
    });
    await new Promise<void>((r) => silent.listen(port, '127.0.0.1', r));
    try {
      const dir = fresh('silent');
      writeTree(dir, {
        '.npmrc': `@acme:registry=http://127.0.0.1:${port}/\n//127.0.0.1:${port}/:_authToken=x\n`,
        'slow/SKILL.md': skillMd(
          'name: slow\ndescription: Slow things. Use when testing timeouts.\nmetadata:\n  version: 1.0.0\n',
        ),
      });
      const r = await runCli(['publish', 'slow', '--scope', 'acme'], {
        cwd: dir,
        env: { SKILLS_REGISTRY_TIMEOUT: '1' },
      });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`http://127.0.0.1:${port}/ did not answer in time for @acme/slow@1.0.0`);
    } finally {
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  }, 60_000);
});

describe('skills search (Verdaccio)', () => {
  it('finds the published skills by words, with their descriptions, and leaves out packages that are not skills', async () => {
    const dir = project({
      'search-a/SKILL.md': skillMd(
        'name: search-a\ndescription: Sort invoices by date. Use when the user has many invoices to order.\nmetadata:\n  version: 1.0.0\n',
      ),
    });
    const pub = await runCli(['publish', 'search-a'], { cwd: dir, env: withToken() });
    expect(pub.exitCode, pub.stderr).toBe(0);
    // A plain npm package in the same scope: found by the registry, not a skill.
    // An empty tar (two zero blocks), gzipped: enough for a package that is not a skill.
    const tarball = gzipSync(Buffer.alloc(1024));
    const host = new URL(registry.url).host;
    const plain = await fetch(`${registry.url}@acme%2fplain-lib`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${registry.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        _id: '@acme/plain-lib',
        name: '@acme/plain-lib',
        'dist-tags': { latest: '1.0.0' },
        versions: {
          '1.0.0': {
            name: '@acme/plain-lib',
            version: '1.0.0',
            description: 'Invoices helpers for node',
            dist: { tarball: `http://${host}/@acme/plain-lib/-/plain-lib-1.0.0.tgz` },
          },
        },
        _attachments: {
          'plain-lib-1.0.0.tgz': {
            content_type: 'application/octet-stream',
            data: tarball.toString('base64'),
            length: tarball.length,
          },
        },
      }),
    });
    expect(plain.status).toBeLessThan(300);
    const r = await runCli(['search', 'invoices', '--json'], { cwd: dir, env: withToken() });
    expect(r.exitCode, r.stderr).toBe(0);
    const all = await runCli(['search', 'plain', '--json'], { cwd: dir, env: withToken() });
    const doc = JSON.parse(r.stdout) as {
      hits: { name: string; description: string; skills: string[] }[];
      skipped: number;
    };
    expect(doc.hits).toContainEqual({
      name: '@acme/search-a',
      version: '1.0.0',
      description: 'Sort invoices by date. Use when the user has many invoices to order.',
      skills: ['search-a'],
    });
    // The registry finds the plain package by its name; search leaves it out, as no skill.
    const plainDoc = JSON.parse(all.stdout) as { hits: unknown[]; skipped: number };
    expect(plainDoc).toMatchObject({ hits: [], skipped: 1 });
    const text = await runCli(['search', 'invoices'], { cwd: dir, env: withToken() });
    expect(text.stdout).toContain('@acme/search-a@1.0.0  Sort invoices by date.');
    const none = await runCli(['search', 'zebra-quantum-nothing'], { cwd: dir, env: withToken() });
    expect(none.exitCode).toBe(0);
    expect(none.stderr).toContain('no skills on');
  }, 60_000);
});

describe('skills publish --well-known', () => {
  it('writes the discovery index and files a static host serves, with digests that match the bytes', async () => {
    const dir = fresh('wk');
    writeTree(dir, {
      'pdf/SKILL.md': pdf('1.0.0'),
      'pdf/scripts/extract.py': 'print("hi")\n',
      'notes/SKILL.md': skillMd('name: notes\ndescription: Take notes. Use when asked to write notes.\n'),
      'legacy/manifest.json': JSON.stringify({
        id: 'legacy',
        owner: 'acme',
        name: 'Legacy',
        version: '1.0.0',
        description: 'Old layout skill for tests. Use when testing.',
      }),
    });
    for (const s of ['pdf', 'notes']) {
      const r = await runCli(['publish', s, '--well-known', 'site'], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const base = join(dir, 'site/.well-known/agent-skills');
    const index = JSON.parse(readFileSync(join(base, 'index.json'), 'utf8'));
    expect(index.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(index.skills.map((s: { name: string; type: string }) => [s.name, s.type])).toEqual([
      ['notes', 'skill-md'],
      ['pdf', 'archive'],
    ]);
    // Served by a static server: each URL answers with bytes whose sha256 is the entry's digest.
    const server = createServer((req, res) => {
      const file = join(dir, 'site', decodeURIComponent(new URL(req.url!, 'http://x').pathname));
      if (!file.startsWith(join(dir, 'site')) || !existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200).end(readFileSync(file));
    });
    const port = await freePort();
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    try {
      for (const s of index.skills) {
        const bytes = Buffer.from(await (await fetch(new URL(s.url, `http://127.0.0.1:${port}/`))).arrayBuffer());
        expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(s.digest);
        if (s.type === 'archive') expect(tarNames(bytes)).toEqual(['SKILL.md', 'scripts/', 'scripts/extract.py']);
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
    // Publishing again replaces the entry; a manifest.json skill is refused and the index is left as it was.
    const before = readFileSync(join(base, 'index.json'), 'utf8');
    const legacy = await runCli(['publish', 'legacy', '--well-known', 'site'], { cwd: dir });
    expect(legacy.exitCode).not.toBe(0);
    expect(legacy.stderr).toContain('manifest.json skill');
    expect(readFileSync(join(base, 'index.json'), 'utf8')).toBe(before);
    // A broken index in the folder is named, not overwritten.
    mkdirSync(join(dir, 'other/.well-known/agent-skills'), { recursive: true });
    writeFileSync(join(dir, 'other/.well-known/agent-skills/index.json'), '{ broken');
    const broken = await runCli(['publish', 'notes', '--well-known', 'other'], { cwd: dir });
    expect(broken.exitCode).not.toBe(0);
    expect(broken.stderr).toContain('index.json is not JSON');
    expect(readFileSync(join(dir, 'other/.well-known/agent-skills/index.json'), 'utf8')).toBe('{ broken');
  }, 60_000);
});

describe('skills install from an npm registry (Verdaccio)', () => {
  const lib = (version: string) =>
    skillMd(
      `name: lib\ndescription: Shared helpers for invoices. Use when another skill needs invoice helpers.\nmetadata:\n  version: ${version}\n`,
      `# lib ${version}\n\nHelpers.\n`,
    );
  const app = skillMd(
    'name: app\ndescription: Book invoices into the ledger. Use when the user wants invoices booked.\nmetadata:\n  version: 1.0.0\ndependencies:\n  - lib@^1.0.0\n',
  );

  it('resolves a range and its dependencies against the packuments, places them, locks them, and replays the lock', async () => {
    const author = project({ 'lib/SKILL.md': lib('1.0.0'), 'app/SKILL.md': app });
    for (const s of ['lib', 'app']) {
      const r = await runCli(['publish', s], { cwd: author, env: withToken() });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    writeFileSync(join(author, 'lib/SKILL.md'), lib('1.1.0'));
    expect((await runCli(['publish', 'lib'], { cwd: author, env: withToken() })).exitCode).toBe(0);
    writeFileSync(join(author, 'lib/SKILL.md'), lib('2.0.0'));
    expect((await runCli(['publish', 'lib'], { cwd: author, env: withToken() })).exitCode).toBe(0);

    const user = project({});
    const r = await runCli(['install', 'npm:@acme/app@^1', '--agent', 'claude-code'], { cwd: user, env: withToken() });
    expect(r.exitCode, r.stderr).toBe(0);
    const placed = join(user, '.claude/skills');
    expect(readFileSync(join(placed, 'lib/SKILL.md'), 'utf8')).toContain('# lib 1.1.0');
    expect(existsSync(join(placed, 'app/SKILL.md'))).toBe(true);
    // The package.json npm needs is not placed with the skill.
    expect(existsSync(join(placed, 'app/package.json'))).toBe(false);
    const lock = JSON.parse(readFileSync(join(user, 'skills-lock.json'), 'utf8')) as {
      skills: Record<
        string,
        { source: string; version: string; ref?: string; tarball?: string; tarballIntegrity?: string }
      >;
    };
    expect(lock.skills.app).toMatchObject({ source: 'npm:@acme/app', version: '1.0.0', ref: '^1' });
    expect(lock.skills.lib).toMatchObject({ source: 'npm:@acme/lib', version: '1.1.0' });
    expect(lock.skills.lib!.tarball).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/@acme\/lib\/-\/lib-1\.1\.0\.tgz$/);
    expect(lock.skills.lib!.tarballIntegrity).toMatch(/^sha512-/);

    // A fresh clone: the lock alone installs exactly that again.
    const { rmSync } = await import('node:fs');
    rmSync(placed, { recursive: true });
    const again = await runCli(['install'], { cwd: user, env: withToken() });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(readFileSync(join(placed, 'lib/SKILL.md'), 'utf8')).toContain('# lib 1.1.0');

    // A newer version in range: outdated says so. A 1.x backport after 2.0.0 is published under its own tag, as npm's
    // are (without one, `latest` would move back to 1.2.0, which a plain install and outdated then take).
    writeFileSync(join(author, 'lib/SKILL.md'), lib('1.2.0'));
    const backport = ['publish', 'lib', '--tag', 'v1'];
    expect((await runCli(backport, { cwd: author, env: withToken() })).exitCode).toBe(0);
    const out = await runCli(['outdated', '--json'], { cwd: user, env: withToken() });
    const report = JSON.parse(out.stdout) as { skills: { id: string; outdated: boolean }[] };
    expect(report.skills.find((s) => s.id === 'lib')?.outdated).toBe(true);
    expect(report.skills.find((s) => s.id === 'app')?.outdated).toBe(false);
    // resolve against the packuments, with the resolver's own words for a conflict.
    const resolved = await runCli(['resolve', 'npm:@acme/app@^1', '--json'], { cwd: user, env: withToken() });
    expect(resolved.exitCode, resolved.stderr).toBe(0);
    const doc = JSON.parse(resolved.stdout) as { resolved: { id: string; version: string; path: string }[] };
    expect(doc.resolved.map((x) => `${x.id}@${x.version}`).sort()).toEqual(['app@1.0.0', 'lib@1.2.0']);
    expect(doc.resolved.find((x) => x.id === 'lib')!.path).toMatch(/\/@acme\/lib\/-\/lib-1\.2\.0\.tgz$/);
    const none = await runCli(['resolve', '@acme/lib@^9'], { cwd: user, env: withToken() });
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain('lib');
    // update: the diff first, then the new version placed and locked with its tarball.
    const dry = await runCli(['update', 'lib', '--dry-run'], { cwd: user, env: withToken() });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would update lib 1.1.0 → 2.0.0  (npm:@acme/lib)');
    expect(dry.stdout).toContain('+# lib 2.0.0');
    expect(readFileSync(join(placed, 'lib/SKILL.md'), 'utf8')).toContain('# lib 1.1.0');
    // app, installed, needs lib@^1.0.0: lib 2.0.0 is refused while app is there, and nothing changes.
    const refused = await runCli(['update', 'lib'], { cwd: user, env: withToken() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('app@1.0.0 (installed) needs lib@^1.0.0');
    expect(readFileSync(join(placed, 'lib/SKILL.md'), 'utf8')).toContain('# lib 1.1.0');
    expect((await runCli(['uninstall', 'app'], { cwd: user, env: withToken() })).exitCode).toBe(0);
    const update = await runCli(['update', 'lib'], { cwd: user, env: withToken() });
    expect(update.exitCode, update.stderr).toBe(0);
    expect(readFileSync(join(placed, 'lib/SKILL.md'), 'utf8')).toContain('# lib 2.0.0');
    const after = JSON.parse(readFileSync(join(user, 'skills-lock.json'), 'utf8')) as typeof lock;
    expect(after.skills.lib).toMatchObject({ version: '2.0.0', source: 'npm:@acme/lib' });
    expect(after.skills.lib!.tarball).toMatch(/lib-2\.0\.0\.tgz$/);
  }, 120_000);

  it('takes the bare @scope/name form, and says 404 and 401 plainly with nothing placed', async () => {
    const user = project({});
    const bare = await runCli(['install', '@acme/lib@~1.1'], { cwd: user, env: withToken() });
    expect(bare.exitCode, bare.stderr).toBe(0);
    expect(readFileSync(join(user, '.agents/skills/lib/SKILL.md'), 'utf8')).toContain('# lib 1.1.0');

    const other = project({});
    const missing = await runCli(['install', 'npm:@acme/nope'], { cwd: other, env: withToken() });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`${registry.url} has no package @acme/nope (404)`);
    const anonymous = await runCli(['install', 'npm:@acme/lib'], { cwd: other, env: withToken('') });
    expect(anonymous.exitCode).toBe(2);
    expect(anonymous.stderr).toMatch(/not logged in \(401\)/);
    expect(existsSync(join(other, '.agents'))).toBe(false);
    expect(existsSync(join(other, 'skills-lock.json'))).toBe(false);
  }, 60_000);

  it('says so when the registry stops answering, and places nothing', async () => {
    const port = await freePort();
    const silent: Server = createServer(() => {
      // accept and never answer
    });
    await new Promise<void>((r) => silent.listen(port, '127.0.0.1', r));
    try {
      const dir = fresh('silent-install');
      writeTree(dir, { '.npmrc': `@acme:registry=http://127.0.0.1:${port}/\n` });
      const r = await runCli(['install', 'npm:@acme/lib@^1'], { cwd: dir, env: { SKILLS_REGISTRY_TIMEOUT: '1' } });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`http://127.0.0.1:${port}/ did not answer in time for @acme/lib`);
      expect(existsSync(join(dir, '.agents'))).toBe(false);
      expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
    } finally {
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  }, 60_000);

  it('resolves a later install against the skills the lock holds: a range they need is kept, a conflict refused', async () => {
    const skill = (id: string, version: string, deps = '') =>
      skillMd(
        `name: ${id}\ndescription: The ${id} skill for ledgers. Use when the user asks about ${id}.\nmetadata:\n  version: ${version}\n${deps}`,
      );
    const needsCore = 'dependencies:\n  - core@^1.0.0\n';
    const author = project({
      'core/SKILL.md': skill('core', '1.0.0'),
      'ledger/SKILL.md': skill('ledger', '1.0.0', needsCore),
      'audit/SKILL.md': skill('audit', '1.0.0', needsCore),
    });
    for (const s of ['core', 'ledger', 'audit'])
      expect((await runCli(['publish', s], { cwd: author, env: withToken() })).exitCode).toBe(0);
    writeFileSync(join(author, 'core/SKILL.md'), skill('core', '1.1.0-beta.1'));
    expect((await runCli(['publish', 'core', '--tag', 'next'], { cwd: author, env: withToken() })).exitCode).toBe(0);
    type Lock = { skills: Record<string, { version: string; ref?: string }> };
    const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'skills-lock.json'), 'utf8')) as Lock;

    // ledger needs core@^1.0.0, and the pre-release next is outside it: refused, naming who needs what.
    const user = project({});
    expect((await runCli(['install', '@acme/ledger@^1'], { cwd: user, env: withToken() })).exitCode).toBe(0);
    const before = readFileSync(join(user, 'skills-lock.json'), 'utf8');
    const later = await runCli(['install', '@acme/core@next'], { cwd: user, env: withToken() });
    expect(later.exitCode).toBe(2);
    expect(later.stderr).toContain(
      'root needs core@1.1.0-beta.1; ledger@1.0.0 (installed) needs core@^1.0.0; available core: 1.0.0, 1.1.0-beta.1',
    );
    expect(later.stderr).toContain(
      'uninstall the installed skill that needs the other first (skills uninstall ledger)',
    );
    expect(later.stderr).not.toContain('unpack');
    expect(readFileSync(join(user, 'skills-lock.json'), 'utf8')).toBe(before);
    expect(readFileSync(join(user, '.agents/skills/core/SKILL.md'), 'utf8')).toContain('version: 1.0.0');
    // The same two in one command: the same words, the same exit.
    const both = await runCli(['install', '@acme/ledger@^1', '@acme/core@next'], {
      cwd: project({}),
      env: withToken(),
    });
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('ledger@1.0.0 needs core@^1.0.0; root needs core@1.1.0-beta.1');
    expect(both.stderr).not.toContain('unpack');

    // The other way round: the installed core@next is kept, and a skill that needs core@^1.0.0 is refused.
    const tagged = project({});
    expect((await runCli(['install', '@acme/core@next'], { cwd: tagged, env: withToken() })).exitCode).toBe(0);
    const refused = await runCli(['install', '@acme/audit'], { cwd: tagged, env: withToken() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('audit@1.0.0 needs core@^1.0.0; core@1.1.0-beta.1 is installed');
    expect(lockOf(tagged).skills.core).toMatchObject({ version: '1.1.0-beta.1', ref: 'next' });

    // An unrelated install that reaches an installed skill keeps its version and the range the user asked for.
    const ranged = project({});
    expect((await runCli(['install', '@acme/core@^1'], { cwd: ranged, env: withToken() })).exitCode).toBe(0);
    const unrelated = await runCli(['install', '@acme/audit'], { cwd: ranged, env: withToken() });
    expect(unrelated.exitCode, unrelated.stderr).toBe(0);
    expect(lockOf(ranged).skills.core).toMatchObject({ version: '1.0.0', ref: '^1' });
    expect(lockOf(ranged).skills.audit).toMatchObject({ version: '1.0.0' });
  }, 120_000);

  it('refuses a tarball whose bytes do not match the packument, and places nothing', async () => {
    const author = project({
      'tamper/SKILL.md': skillMd(
        'name: tamper\ndescription: A skill to tamper with. Use when testing integrity.\nmetadata:\n  version: 1.0.0\n',
      ),
    });
    expect((await runCli(['publish', 'tamper'], { cwd: author, env: withToken() })).exitCode).toBe(0);
    // Verdaccio keeps tarballs as files: change the bytes behind the registry's back.
    const { readdirSync } = await import('node:fs');
    const storage = join(registry.dir, 'storage');
    const find = (dir: string): string | undefined => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) {
          const f = find(p);
          if (f) return f;
        } else if (e.name === 'tamper-1.0.0.tgz') return p;
      }
      return undefined;
    };
    const tgz = find(storage)!;
    expect(tgz).toBeDefined();
    writeFileSync(tgz, gzipSync(Buffer.alloc(1024)));
    const user = project({});
    const r = await runCli(['install', 'npm:@acme/tamper'], { cwd: user, env: withToken() });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('does not match its integrity');
    expect(existsSync(join(user, '.agents'))).toBe(false);
    expect(existsSync(join(user, 'skills-lock.json'))).toBe(false);
  }, 60_000);
});

describe('skills install from a well-known site', () => {
  /** Serve `root` as a static site on 127.0.0.1; with `token`, only to `Authorization: Bearer <token>`. */
  async function serve(root: string, token?: string): Promise<{ url: string; close: () => Promise<void> }> {
    const server = createServer((req, res) => {
      if (token && req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401).end();
      const file = join(root, decodeURIComponent(new URL(req.url!, 'http://x').pathname));
      if (!file.startsWith(root) || !existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200).end(readFileSync(file));
    });
    const port = await freePort();
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(() => r())) };
  }

  it('installs every skill the index lists, checks each digest, locks the site, replays it, and refuses a tampered file', async () => {
    const author = fresh('wk-author');
    writeTree(author, {
      'pdf/SKILL.md': pdf('1.0.0'),
      'pdf/scripts/extract.py': 'print("hi")\n',
      'notes/SKILL.md': skillMd('name: notes\ndescription: Take notes. Use when asked to write notes.\n'),
    });
    for (const s of ['pdf', 'notes'])
      expect((await runCli(['publish', s, '--well-known', 'site'], { cwd: author })).exitCode).toBe(0);
    const site = await serve(join(author, 'site'));
    try {
      const user = fresh('wk-user');
      const r = await runCli(['install', site.url, '--agent', 'claude-code'], { cwd: user });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(readFileSync(join(user, '.claude/skills/pdf/scripts/extract.py'), 'utf8')).toBe('print("hi")\n');
      expect(existsSync(join(user, '.claude/skills/notes/SKILL.md'))).toBe(true);
      const lock = JSON.parse(readFileSync(join(user, 'skills-lock.json'), 'utf8')) as {
        skills: Record<string, { source: string; path?: string }>;
      };
      expect(lock.skills.pdf).toMatchObject({
        source: `well-known:${site.url}.well-known/agent-skills/index.json`,
        path: 'pdf',
      });
      const { rmSync } = await import('node:fs');
      rmSync(join(user, '.claude/skills'), { recursive: true });
      const again = await runCli(['install'], { cwd: user });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(existsSync(join(user, '.claude/skills/notes/SKILL.md'))).toBe(true);

      // The site's SKILL.md changed behind its index: refused, nothing placed.
      writeFileSync(join(author, 'site/.well-known/agent-skills/notes/SKILL.md'), 'tampered\n');
      const other = fresh('wk-other');
      const bad = await runCli(['install', `${site.url}.well-known/agent-skills/index.json`], { cwd: other });
      expect(bad.exitCode).not.toBe(0);
      expect(bad.stderr).toMatch(/but the index says sha256:[0-9a-f]{64}; nothing was installed/);
      expect(existsSync(join(other, '.agents'))).toBe(false);
      expect(existsSync(join(other, 'skills-lock.json'))).toBe(false);
    } finally {
      await site.close();
    }
  }, 60_000);

  it('sends the bearer token of SKILLS_HTTP_TOKEN to a private site', async () => {
    const author = fresh('wk-private');
    writeTree(author, {
      'notes/SKILL.md': skillMd('name: notes\ndescription: Take notes. Use when asked to write notes.\n'),
    });
    expect((await runCli(['publish', 'notes', '--well-known', 'site'], { cwd: author })).exitCode).toBe(0);
    const site = await serve(join(author, 'site'), 'site-secret-token');
    try {
      const denied = await runCli(['install', site.url], { cwd: fresh('wk-denied') });
      expect(denied.exitCode).not.toBe(0);
      expect(denied.stderr).toContain('401');
      const user = fresh('wk-allowed');
      const ok = await runCli(['install', site.url], { cwd: user, env: { SKILLS_HTTP_TOKEN: 'site-secret-token' } });
      expect(ok.exitCode, ok.stderr).toBe(0);
      expect(existsSync(join(user, '.agents/skills/notes/SKILL.md'))).toBe(true);
      expect(ok.stderr + ok.stdout).not.toContain('site-secret-token');

      // An index that names an artifact on another host: that host never sees the site's token.
      const seen: (string | undefined)[] = [];
      const skillFile = join(author, 'site/.well-known/agent-skills/notes/SKILL.md');
      const cdn = createServer((req, res) => {
        seen.push(req.headers.authorization);
        res.writeHead(200).end(readFileSync(skillFile));
      });
      const cdnPort = await freePort();
      await new Promise<void>((r) => cdn.listen(cdnPort, 'localhost', r));
      try {
        const indexFile = join(author, 'site/.well-known/agent-skills/index.json');
        const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { skills: { url: string }[] };
        index.skills[0]!.url = `http://localhost:${cdnPort}/notes/SKILL.md`;
        writeFileSync(indexFile, JSON.stringify(index));
        const other = fresh('wk-cdn');
        const viaCdn = await runCli(['install', site.url], {
          cwd: other,
          env: { SKILLS_HTTP_TOKEN: 'site-secret-token' },
        });
        expect(viaCdn.exitCode, viaCdn.stderr).toBe(0);
        expect(seen).toEqual([undefined]);
        expect(existsSync(join(other, '.agents/skills/notes/SKILL.md'))).toBe(true);
      } finally {
        await new Promise((r) => cdn.close(r));
      }
    } finally {
      await site.close();
    }
  }, 60_000);
});
