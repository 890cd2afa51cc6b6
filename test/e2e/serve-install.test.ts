import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, EXAMPLE_IDS, EXAMPLES, ROOT, runCli, tempFolders } from '../helpers/cli.js';
import { serveHttp } from '../helpers/mcp.js';
import { skillMd, snapshot, writeTree } from '../helpers/tree.js';

// `skills install mcp+stdio:"<command>"` and `mcp+http://…`: the skills any server with the SEP-2640 extension
// serves, every file checked against its digest; here `skills serve` of the examples, and a hand-made server that
// lies about a digest, lists a path leading out, or lacks the extension.

const { fresh, cleanup } = tempFolders('skills-serve-install-');
afterAll(cleanup);

const serveCommand = (dir: string) => `mcp+stdio:"${process.execPath}" "${BIN}" serve "${dir}" --no-watch`;
const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'skills-lock.json'), 'utf8'));

describe('skills install from an MCP server', () => {
  it('installs every skill skills serve serves over stdio, byte for byte, manifest skills as manifest skills', async () => {
    const dir = fresh('stdio');
    const r = await runCli(['install', serveCommand(EXAMPLES), '--agent', 'agents'], { cwd: dir });
    // The one warning any install of manifest skills into .agents/skills gives.
    expect(r.stderr).toMatch(/^warning: basic-tools, cron-tools, social-media-apis are manifest\.json skills/);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('.agents/skills: 7 added; skills-lock.json written');
    // MCP carries no modes: scripts are made executable (a manifest skill's declared scripts must be).
    expect(statSync(join(dir, '.agents/skills/basic-tools/scripts/read-file.js')).mode & 0o111).not.toBe(0);
    expect(statSync(join(dir, '.agents/skills/web-scraping/references/selectors.md')).mode & 0o111).toBe(0);
    for (const name of EXAMPLE_IDS)
      expect(snapshot(join(dir, '.agents/skills', name))).toEqual(snapshot(join(EXAMPLES, name)));
    expect(existsSync(join(dir, '.agents/skills/social-media-apis/SKILL.md'))).toBe(false);
    const lock = lockOf(dir);
    expect(lock.skills['web-scraping']).toMatchObject({
      source: `mcp:stdio:"${process.execPath}" "${BIN}" serve "${EXAMPLES}" --no-watch`,
      path: 'web-scraping',
      version: '1.2.0',
    });
    // A command in a committed lockfile is not run again by a bare `skills install`.
    rmSync(join(dir, '.agents'), { recursive: true });
    const again = await runCli(['install'], { cwd: dir });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('skills does not run a command a lockfile names');
  });

  it('installs over Streamable HTTP with SKILLS_MCP_TOKEN, and replays the lock from the server', async () => {
    const token = 'install-test-token-0123456789';
    const h = await serveHttp([EXAMPLES, '--no-watch'], { SKILLS_SERVE_TOKEN: token });
    try {
      const dir = fresh('http');
      const denied = await runCli(['install', `mcp+${h.url}`, '--agent', 'agents'], { cwd: dir });
      expect(denied.exitCode).toBe(2);
      expect(denied.stderr).toContain('a bearer token is required');
      const env = { SKILLS_MCP_TOKEN: token };
      const r = await runCli(['install', `mcp+${h.url}`, '--agent', 'agents'], { cwd: dir, env });
      expect(r.exitCode).toBe(0);
      expect(readFileSync(join(dir, '.agents/skills/timeplus-sql-guide/SKILL.md'), 'utf8')).toBe(
        readFileSync(join(EXAMPLES, 'timeplus-sql-guide/SKILL.md'), 'utf8'),
      );
      expect(lockOf(dir).skills['timeplus-sql-guide'].source).toBe(`mcp:${h.url}`);
      rmSync(join(dir, '.agents'), { recursive: true });
      const again = await runCli(['install'], { cwd: dir, env });
      expect(again.exitCode).toBe(0);
      expect(snapshot(join(dir, '.agents/skills/web-scraping'))).toEqual(snapshot(join(EXAMPLES, 'web-scraping')));
    } finally {
      await h.stop();
    }
  });

  it('refuses plain http to another host, and credentials in the URL', async () => {
    const r = await runCli(['install', 'mcp+http://example.com/mcp'], { cwd: fresh('plain') });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('mcp+http:// is kept for 127.0.0.1');
    const creds = await runCli(['install', 'mcp+https://me:pw@example.com/mcp'], { cwd: fresh('creds') });
    expect(creds.stderr).toContain('credentials do not go in the URL');
  });

  // A file over the server's 4 MiB read limit: its skill is left out (which file, why, where else to get it), the
  // others install, and the run exits 1; --strict installs nothing. Nothing of the skill left out is written.
  const withBigFile = () => {
    const src = fresh('big-src');
    writeTree(src, {
      'alpha/SKILL.md': skillMd('name: alpha\ndescription: Holds a big file. Use when testing install.'),
      'alpha/a.md': 'written before the big file is read\n',
      'beta/SKILL.md': skillMd('name: beta\ndescription: Small. Use when testing install.'),
      'beta/references/b.md': 'b\n',
    });
    writeFileSync(join(src, 'alpha/big.bin'), Buffer.alloc(5 * 1024 * 1024, 7));
    return src;
  };

  it('skips the skill with a file over 4 MiB, saying which file and why, and installs the others (exit 1)', async () => {
    const src = withBigFile();
    const dir = fresh('big');
    const r = await runCli(['install', serveCommand(src), '--into', 'out', '-y'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(1);
    const line = r.stderr.split('\n').find((l) => l.startsWith('skipped'));
    expect(line).toMatch(/^skipped +alpha \(mcp\+stdio:/);
    expect(line).toContain('the server would not send skill://alpha/big.bin');
    expect(line).toContain('is 5242880 bytes, too big to serve: this server returns files of at most 4194304 bytes');
    expect(line).toContain('get it from its own source (e.g. its repository)');
    expect(r.stderr).not.toContain('skills install');
    expect(r.stdout).toContain('1 added, 1 skipped');
    expect(snapshot(join(dir, 'out'))).toEqual(
      Object.fromEntries(Object.entries(snapshot(src)).filter(([k]) => k.startsWith('beta'))),
    );
    expect(Object.keys(lockOf(dir).skills)).toEqual(['beta']);
  });

  it('--strict: a skill with a file over 4 MiB refuses them all, writing nothing', async () => {
    const dir = fresh('big-strict');
    const r = await runCli(['install', serveCommand(withBigFile()), '--into', 'out', '-y', '--strict'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('the server would not send skill://alpha/big.bin');
    expect(r.stderr).not.toContain('skills validate');
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
  });

  // A server that serves one skill as told by MODE: a wrong digest, a resource leading out, or no extension.
  const liar = (mode: string) => {
    const file = join(fresh('liar'), 'server.mjs');
    const sdk = (p: string) => JSON.stringify(join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p));
    writeFileSync(
      file,
      `import { Server } from ${sdk('server/index.js')};
import { StdioServerTransport } from ${sdk('server/stdio.js')};
import { ReadResourceRequestSchema } from ${sdk('types.js')};
import { z } from ${JSON.stringify(join(ROOT, 'node_modules/zod/index.js'))};
const mode = ${JSON.stringify(mode)};
const md = '---\\nname: liar\\ndescription: Lies. Use when testing install.\\n---\\n# Liar\\n';
const server = new Server({ name: 'liar', version: '1' }, { capabilities: { resources: {}, ...(mode === 'plain' ? {} : { extensions: { 'io.modelcontextprotocol/skills': {} } }) } });
server.setRequestHandler(z.object({ method: z.literal('skills/list'), params: z.any().optional() }), async () => ({
  skills: [{ uri: 'skill://liar/SKILL.md', frontmatter: { name: 'liar', description: 'Lies.' }, resources: [
    { uri: 'skill://liar/SKILL.md', digest: 'sha256:' + (mode === 'digest' ? '0'.repeat(64) : (await import('node:crypto')).createHash('sha256').update(md).digest('hex')) },
    ...(mode === 'escape' ? [{ uri: 'skill://liar/%2E%2E/%2E%2E/evil.sh', digest: 'sha256:' + '1'.repeat(64) }] : []),
  ] }],
}));
server.setRequestHandler(ReadResourceRequestSchema, async (req) => ({ contents: [{ uri: req.params.uri, mimeType: 'text/markdown', text: md }] }));
await server.connect(new StdioServerTransport());
`,
    );
    return `mcp+stdio:"${process.execPath}" "${file}"`;
  };

  it.each([
    ['digest', 'has the sha256 sha256:'],
    ['escape', 'would lead outside the skill'],
    ['plain', 'does not declare the io.modelcontextprotocol/skills extension'],
  ])('refuses a server whose listing has %s trouble, installing nothing', async (mode, says) => {
    const dir = fresh(`liar-${mode}`);
    const r = await runCli(['install', liar(mode), '--agent', 'agents'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(says);
    expect(r.stderr).toContain('nothing was installed');
    expect(existsSync(join(dir, '.agents/skills/liar'))).toBe(false);
    expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
  });
});
