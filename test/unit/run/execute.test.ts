import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { executeScript, type RunRequest } from '../../../src/run/execute.js';
import { maskList } from '../../../src/run/mask.js';

const dir = mkdtempSync(join(tmpdir(), 'skills-execute-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const script = join(dir, 'hi.sh');
writeFileSync(script, 'echo hi\n');

const request = (over: Partial<RunRequest>): RunRequest => ({
  script,
  cwd: dir,
  interpreter: { command: 'bash', args: [], env: {}, label: 'bash', via: 'extension' },
  argsJson: '{}',
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  mask: [],
  timeoutMs: 10_000,
  ...over,
});

describe('executeScript: what Node refuses to spawn', () => {
  it('never passes on the message of a refused environment value (Node quotes it with \\x00), only its name', async () => {
    const secret = 'TOPSECRET\u0000VALUE-9f8e7d';
    const err = await executeScript(
      request({ env: { PATH: '/usr/bin:/bin', API_KEY: secret }, mask: maskList([secret]) }),
    ).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string; hint?: string; cause?: unknown },
    );
    expect(err).toBeDefined();
    expect(err!.code).toBe('E_CONFIG');
    expect(err!.message).toBe(
      `cannot run ${script}: Node refused the environment variable API_KEY (ERR_INVALID_ARG_VALUE); its value is not shown`,
    );
    expect(`${err!.message} ${err!.hint} ${String(err!.cause ?? '')}`).not.toContain('TOPSECRET');
  });
});
