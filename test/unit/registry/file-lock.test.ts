import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCK_STALE_MS, acquireLock } from '../../../src/registry/file-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'skills-file-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const opts = (name: string, waitMs = 200) => ({ lockPath: join(dir, name), what: `the thing ${name}`, waitMs });

describe('acquireLock', () => {
  it('takes over a lock whose time is in the future at once, and one older than the stale time', async () => {
    for (const [name, when] of [
      ['future', new Date(Date.now() + 3600_000)],
      ['far', new Date('2099-01-01T00:00:00Z')],
      ['old', new Date(Date.now() - LOCK_STALE_MS - 1000)],
    ] as const) {
      mkdirSync(join(dir, name));
      utimesSync(join(dir, name), when, when);
      const held = await acquireLock(join(dir, `${name}.target`), opts(name));
      expect(held.compromised()).toBeUndefined();
      await held.release();
      expect(existsSync(join(dir, name))).toBe(false);
    }
  });

  it('waits for a live holder, and gives up saying how long it waited and that the holder is alive', async () => {
    const held = await acquireLock(join(dir, 'live.target'), opts('live'));
    const onWait: string[] = [];
    const started = Date.now();
    await expect(
      acquireLock(join(dir, 'live.target2'), { ...opts('live', 400), onWait: () => onWait.push('waiting') }),
    ).rejects.toMatchObject({
      code: 'E_IO',
      message: expect.stringMatching(
        /^the thing live is locked by another process \(.*live\): gave up after waiting \d+ s; it was refreshed \d+\.\d s ago, so the process holding it is still running$/,
      ),
      hint: expect.stringContaining(`once it has not been refreshed for ${LOCK_STALE_MS / 1000} s`),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(onWait).toEqual(['waiting']);
    // Released, the next one gets it.
    await held.release();
    const next = await acquireLock(join(dir, 'live.target2'), opts('live'));
    await next.release();
  });
});
