// Index documents a stranger (or a damaged file) can hand install and publish --well-known: each is a located
// E_INVALID error with exit 2, never a crash, and publish never rewrites an index it cannot read.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { serveLocal } from '../helpers/http.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-wk-hostile-');
afterAll(cleanup);

const SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
const DIGEST = `sha256:${'0'.repeat(64)}`;

/** A site whose index.json is `body`. */
const site = (body: string) =>
  serveLocal((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });

describe('install from a site with a hostile index', () => {
  const cases: [string, string, RegExp][] = [
    ['null', 'null', /index\.json is not a discovery index: expected a JSON object, found null/],
    [
      'a null entry',
      JSON.stringify({ $schema: SCHEMA, skills: [null] }),
      /index\.json: skills\[0\]: expected an object with "name", "type", "url" and "digest", found null/,
    ],
    [
      'an entry whose url is not a URL',
      JSON.stringify({ $schema: SCHEMA, skills: [{ name: 'x', type: 'skill-md', url: 'http://[zz', digest: DIGEST }] }),
      /index\.json: skills\[0\] \(x\): "url" is not a URL: "http:\/\/\[zz"/,
    ],
  ];
  for (const [what, body, message] of cases)
    it(`refuses ${what} with a located error and exit 2, installing nothing`, async () => {
      const s = await site(body);
      try {
        const dir = fresh('user');
        const r = await runCli(['install', s.url, '--agent', 'claude-code', '--yes', '--json'], { cwd: dir });
        expect(r.exitCode).toBe(2);
        const doc = JSON.parse(r.stdout) as { error: { code: string; message: string } };
        expect(doc.error.code).toBe('E_INVALID');
        expect(doc.error.message).toMatch(message);
        expect(r.stderr).not.toContain('This is a bug');
      } finally {
        await s.close();
      }
    });
});

describe('publish --well-known over an index it cannot read', () => {
  const cases: [string, string, RegExp][] = [
    ['null', 'null', /is not a v0\.2\.0 discovery index/],
    [
      'a null entry',
      JSON.stringify({ $schema: SCHEMA, skills: [null] }),
      /skills\[0\]: expected an object, found null/,
    ],
    [
      'an entry with no url',
      JSON.stringify({ $schema: SCHEMA, skills: [{ name: 'old', type: 'skill-md', digest: DIGEST }] }),
      /skills\[0\]: \(old\) "url" must be a string/,
    ],
    [
      'an entry with no digest',
      JSON.stringify({ $schema: SCHEMA, skills: [{ name: 'old', type: 'skill-md', url: '/x/SKILL.md' }] }),
      /skills\[0\]: \(old\) "digest" must be sha256:<64 hex>/,
    ],
  ];
  for (const [what, body, message] of cases)
    it(`refuses ${what} with exit 2 and leaves the index as it was`, async () => {
      const dir = fresh('author');
      writeTree(dir, {
        'pdf/SKILL.md': skillMd('name: pdf\ndescription: Fill PDF forms. Use when a PDF form must be filled.\n'),
      });
      const index = join(dir, 'site/.well-known/agent-skills/index.json');
      mkdirSync(join(dir, 'site/.well-known/agent-skills'), { recursive: true });
      writeFileSync(index, body);
      const r = await runCli(['publish', 'pdf', '--well-known', 'site'], { cwd: dir });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain('This is a bug');
      expect(readFileSync(index, 'utf8')).toBe(body);
    });
});

describe('install from a site that stops sending', () => {
  /** A site that answers nothing (`silent`), or sends headers and a first byte of the body and then nothing. */
  const stalled = (mode: 'silent' | 'stalls') =>
    serveLocal((_req, res) => {
      if (mode === 'stalls') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
      }
    });

  for (const mode of ['silent', 'stalls'] as const)
    it(`gives up after SKILLS_REGISTRY_TIMEOUT with no bytes (${mode}), naming the URL`, async () => {
      const s = await stalled(mode);
      try {
        const dir = fresh('user');
        const r = await runCli(['install', s.url, '--agent', 'claude-code', '--yes'], {
          cwd: dir,
          env: { SKILLS_REGISTRY_TIMEOUT: '1' },
        });
        expect(r.exitCode).toBe(2);
        expect(r.stderr).toContain(
          `${s.url}.well-known/agent-skills/index.json did not answer in time (nothing came for 1 s); nothing was installed`,
        );
        expect(r.stderr).toContain('SKILLS_REGISTRY_TIMEOUT=<seconds>');
      } finally {
        await s.close();
      }
    }, 60_000);

  it('stops a site that trickles a byte every 200 ms at 5 × SKILLS_REGISTRY_TIMEOUT, installing nothing', async () => {
    const s = await serveLocal((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const tick = setInterval(() => res.write(' '), 200);
      req.on('close', () => clearInterval(tick));
    });
    try {
      const dir = fresh('user');
      const started = Date.now();
      const r = await runCli(['install', s.url, '--agent', 'claude-code', '--yes'], {
        cwd: dir,
        env: { SKILLS_REGISTRY_TIMEOUT: '1' },
      });
      const seconds = (Date.now() - started) / 1000;
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(
        `${s.url}.well-known/agent-skills/index.json: the download took longer than 5 s and was stopped`,
      );
      expect(r.stderr).toContain('5 × SKILLS_REGISTRY_TIMEOUT (1 s)');
      expect(seconds).toBeLessThan(20);
      expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
      expect(existsSync(join(dir, '.claude/skills'))).toBe(false);
    } finally {
      await s.close();
    }
  }, 60_000);
});
