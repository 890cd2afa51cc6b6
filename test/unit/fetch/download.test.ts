import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tar from 'tar';
import { downloadArchive, downloadName, type DownloadOptions } from '../../../src/fetch/download.js';
import { extractArchive } from '../../../src/fs/archive.js';
import { tempFolders } from '../../helpers/cli.js';
import { freePort, startFileServer, type TestServer } from '../../helpers/git-repos.js';
import { skillMd } from '../../helpers/tree.js';
import { caught } from '../../helpers/errors.js';

const { fresh, cleanup } = tempFolders('skills-download-unit-');
let server: TestServer;
let other: TestServer;
let tgz: Buffer;
const big = randomBytes(2 * 1024 * 1024);
const HAS_OPENSSL = spawnSync('openssl', ['version']).status === 0;

beforeAll(async () => {
  const src = fresh('src');
  writeFileSync(join(src, 'SKILL.md'), skillMd('name: pdf\ndescription: Fill PDF forms. Use when a form is given.'));
  const file = join(fresh('tgz'), 'pdf.tgz');
  await tar.c({ gzip: true, file, cwd: src, portable: true }, ['SKILL.md']);
  tgz = readFileSync(file);
  other = await startFileServer({ '/elsewhere.tgz': { body: tgz } });
  const hops = (prefix: string, n: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        `/${prefix}${i}`,
        { redirect: i + 1 < n ? `/${prefix}${i + 1}` : '/pdf.tgz' },
      ]),
    );
  server = await startFileServer({
    '/pdf.tgz': { body: tgz },
    '/releases/latest/pdf-1.0.0.tgz': { redirect: '/store/8f3a0c', status: 302 },
    '/store/8f3a0c': { body: tgz },
    ...hops('five', 5),
    ...hops('six', 6),
    '/loop.tgz': { redirect: '/loop.tgz', status: 301 },
    '/private.tgz': { status: 401 },
    '/forbidden.tgz': { status: 403 },
    '/broken.tgz': { status: 500 },
    '/big.tgz': { body: big },
    '/big-chunked.tgz': { body: big, chunked: true },
    '/stall.tgz': { hang: true },
    '/away.tgz': { redirect: `${other.url}/elsewhere.tgz` },
    '/to-file.tgz': { redirect: 'file:///etc/passwd' },
    '/to-plain-http.tgz': { redirect: 'http://example.com/x.tgz' },
  });
});

afterAll(async () => {
  await server?.stop();
  await other?.stop();
  cleanup();
});

const opts = (extra: Partial<DownloadOptions> = {}): DownloadOptions => ({ env: {}, maxBytes: 1024 * 1024, ...extra });

describe('downloadArchive', () => {
  it('downloads to a file named after the URL, which the extractor reads', async () => {
    const dir = fresh('dl');
    const file = await downloadArchive(`${server.url}/pdf.tgz`, dir, opts());
    expect(file).toBe(join(dir, 'pdf.tgz'));
    expect(readFileSync(file).equals(tgz)).toBe(true);
    expect(readdirSync(dir)).toEqual(['pdf.tgz']);
    const out = join(fresh('x'), 'skill');
    await extractArchive(file, out);
    expect(readdirSync(out)).toEqual(['SKILL.md']);
  });

  it('follows redirects (5 at most), keeping the name the user asked for', async () => {
    const dir = fresh('dl');
    const file = await downloadArchive(`${server.url}/releases/latest/pdf-1.0.0.tgz`, dir, opts());
    expect(file).toBe(join(dir, 'pdf-1.0.0.tgz'));
    expect(readFileSync(file).equals(tgz)).toBe(true);
    expect(await downloadArchive(`${server.url}/five0`, fresh('dl'), opts())).toMatch(/five0$/);
    const six = await caught(downloadArchive(`${server.url}/six0`, fresh('dl'), opts()));
    expect(six.message).toBe(`${server.url}/six0: more than 5 redirects; stopped at ${server.url}/pdf.tgz`);
    const loop = await caught(downloadArchive(`${server.url}/loop.tgz`, fresh('dl'), opts()));
    expect(loop.message).toMatch(/more than 5 redirects/);
  });

  it('names the URL when the server refuses or has no such file', async () => {
    const cases: [string, string, string][] = [
      ['/private.tgz', 'E_NOT_FOUND', 'access refused (HTTP 401)'],
      ['/forbidden.tgz', 'E_NOT_FOUND', 'access refused (HTTP 403)'],
      ['/missing.tgz', 'E_NOT_FOUND', 'no such file (HTTP 404)'],
      ['/broken.tgz', 'E_IO', 'the server answered HTTP 500 Internal Server Error'],
    ];
    for (const [path, code, what] of cases) {
      const dir = fresh('dl');
      const err = await caught(downloadArchive(`${server.url}${path}`, dir, opts()));
      expect(err.code).toBe(code);
      expect(err.message).toBe(`${server.url}${path}: ${what}`);
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('sends the token to the URL origin only, and never prints it', async () => {
    const before = server.authorizations.length;
    await downloadArchive(`${server.url}/pdf.tgz`, fresh('dl'), opts({ token: 'tok-123' }));
    expect(server.authorizations.slice(before)).toEqual(['Bearer tok-123']);
    await downloadArchive(`${server.url}/away.tgz`, fresh('dl'), opts({ token: 'tok-123' }));
    expect(server.authorizations.at(-1)).toBe('Bearer tok-123');
    expect(other.authorizations).toEqual([undefined]);
    const err = await caught(
      downloadArchive(
        `http://u:pw-456@${server.url.slice(7)}/private.tgz?token=q-789`,
        fresh('dl'),
        opts({ token: 'tok-123' }),
      ),
    );
    expect(err.message).toBe(`${server.url}/private.tgz: access refused (HTTP 401)`);
    expect(err.hint).toMatch(/token was refused/);
    for (const secret of ['tok-123', 'pw-456', 'q-789']) expect(`${err.message} ${err.hint}`).not.toContain(secret);
  });

  it('refuses a body over the cap, declared or streamed, and leaves no file', async () => {
    for (const path of ['/big.tgz', '/big-chunked.tgz']) {
      const dir = fresh('dl');
      const err = await caught(downloadArchive(`${server.url}${path}`, dir, opts()));
      expect(err.code).toBe('E_INVALID');
      expect(err.message).toBe(`${server.url}${path}: refused: the download is larger than 1.0 MiB`);
      expect(readdirSync(dir)).toEqual([]);
    }
    const dir = fresh('dl');
    await downloadArchive(`${server.url}/big-chunked.tgz`, dir, opts({ maxBytes: big.length }));
    expect(readFileSync(join(dir, 'big-chunked.tgz')).equals(big)).toBe(true);
  });

  it('refuses http:// but to loopback, other schemes, and redirects that leave for them', async () => {
    const plain = await caught(downloadArchive('http://example.com/x.tgz', fresh('dl'), opts()));
    expect(plain.code).toBe('E_USAGE');
    expect(plain.message).toMatch(/^http:\/\/example\.com\/x\.tgz: refused: http:\/\/ is refused/);
    expect((await caught(downloadArchive('ftp://example.com/x.tgz', fresh('dl'), opts()))).message).toMatch(
      /ftp: is not a download skills makes/,
    );
    const toFile = await caught(downloadArchive(`${server.url}/to-file.tgz`, fresh('dl'), opts()));
    expect(toFile.message).toMatch(/refused: file: is not a download skills makes \(https:\/\/ only\)/);
    const toHttp = await caught(downloadArchive(`${server.url}/to-plain-http.tgz`, fresh('dl'), opts()));
    expect(toHttp.message).toMatch(/refused: http:\/\/ is refused .*\(to http:\/\/example\.com\/x\.tgz\)/);
  });

  it.skipIf(!HAS_OPENSSL)('never follows a redirect from https down to http', async () => {
    const dir = fresh('tls');
    const pem = (name: string) => join(dir, name);
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', pem('k.pem')].concat([
        '-out',
        pem('c.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ]),
      { stdio: 'ignore' },
    );
    const tls = createServer(
      { key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) },
      (_q, r) => r.writeHead(302, { Location: `${server.url}/pdf.tgz` }).end(),
    );
    await new Promise<void>((done) => tls.listen(0, '127.0.0.1', done));
    const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    try {
      const port = (tls.address() as AddressInfo).port;
      const err = await caught(downloadArchive(`https://127.0.0.1:${port}/pdf.tgz`, fresh('dl'), opts()));
      expect(err.message).toBe(
        `https://127.0.0.1:${port}/pdf.tgz: refused: it redirects from https:// to http://, which would send it in the clear (to ${server.url}/pdf.tgz)`,
      );
    } finally {
      if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
      tls.closeAllConnections();
      await new Promise<void>((done) => tls.close(() => done()));
    }
  });

  it('says when the server cannot be reached or stalls', async () => {
    const port = await freePort();
    const down = await caught(downloadArchive(`http://127.0.0.1:${port}/x.tgz`, fresh('dl'), opts()));
    expect(down.code).toBe('E_IO');
    expect(down.message).toBe(`http://127.0.0.1:${port}/x.tgz: cannot download it: ECONNREFUSED`);
    const dir = fresh('dl');
    const started = performance.now();
    const stall = await caught(downloadArchive(`${server.url}/stall.tgz`, dir, opts({ timeoutMs: 500 })));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(stall.message).toBe(`${server.url}/stall.tgz: the download took longer than 0.5 s and was stopped`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names the file after the last segment, with only safe characters', () => {
    expect(downloadName(new URL('https://x.example/a/pdf-1.2.0.tgz?sig=1'))).toBe('pdf-1.2.0.tgz');
    expect(downloadName(new URL('https://x.example/a/my%20skill.zip'))).toBe('my_skill.zip');
    expect(downloadName(new URL('https://x.example/a/..%2F..%2Fetc.tgz'))).toBe('_.._etc.tgz');
    expect(downloadName(new URL('https://x.example/'))).toBe('archive');
  });
});
