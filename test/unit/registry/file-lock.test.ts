import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { LOCK_OWNER, LOCK_STALE_MS, acquireLock } from '../../../src/registry/file-lock.js';

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
      hint: expect.stringContaining(`elsewhere once it has not been refreshed for ${LOCK_STALE_MS / 1000} s`),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(onWait).toEqual(['waiting']);
    // Released, the next one gets it.
    await held.release();
    const next = await acquireLock(join(dir, 'live.target2'), opts('live'));
    await next.release();
  });

  it('names its holder inside the lock, keeping the time proper-lockfile set, and removes the name on release', async () => {
    const held = await acquireLock(join(dir, 'named.target'), opts('named'));
    expect(readFileSync(join(dir, 'named', LOCK_OWNER), 'utf8')).toBe(`${process.pid} ${hostname()}`);
    // proper-lockfile's refresh finds its own time again: not compromised after a refresh.
    const mtime = statSync(join(dir, 'named')).mtimeMs;
    await new Promise((r) => setTimeout(r, LOCK_STALE_MS / 2 + 500));
    expect(held.compromised()).toBeUndefined();
    expect(statSync(join(dir, 'named')).mtimeMs).toBeGreaterThan(mtime);
    await held.release();
    expect(existsSync(join(dir, 'named'))).toBe(false);
  }, 15_000);

  it('takes over at once a fresh lock whose holder on this host has ended; waits for a live or remote one', async () => {
    const gone = execa(process.execPath, ['-e', '0']);
    const ended = { pid: gone.pid };
    await gone;
    const live = execa(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      for (const [name, owner, taken] of [
        ['dead', `${ended.pid} ${hostname()}`, true],
        ['alive', `${live.pid} ${hostname()}`, false],
        ['remote', `${ended.pid} another-host.example`, false],
        ['garbled', 'not a holder', false],
      ] as const) {
        mkdirSync(join(dir, name));
        writeFileSync(join(dir, name, LOCK_OWNER), owner);
        // Made just now: by its time alone it is live for another 10 s, and the wait below is 300 ms.
        const attempt = acquireLock(join(dir, `${name}.target`), opts(name, 300));
        if (taken) {
          const held = await attempt;
          expect(readFileSync(join(dir, name, LOCK_OWNER), 'utf8')).toBe(`${process.pid} ${hostname()}`);
          await held.release();
          expect(existsSync(join(dir, name))).toBe(false);
        } else {
          await expect(attempt, name).rejects.toMatchObject({ code: 'E_IO' });
          expect(readFileSync(join(dir, name, LOCK_OWNER), 'utf8')).toBe(owner);
        }
      }
      // A live holder's lock is not removed even when its time says stale (two waiters that both saw a killed
      // holder's lock: the second must not remove the lock the first has just taken and named).
      mkdirSync(join(dir, 'retaken'));
      writeFileSync(join(dir, 'retaken', LOCK_OWNER), `${live.pid} ${hostname()}`);
      const future = new Date(Date.now() + 3600_000);
      utimesSync(join(dir, 'retaken'), future, future);
      await expect(acquireLock(join(dir, 'retaken.target'), opts('retaken', 300))).rejects.toMatchObject({
        code: 'E_IO',
      });
      expect(existsSync(join(dir, 'retaken', LOCK_OWNER))).toBe(true);
      // A lock not refreshed for the stale time is taken over even when its pid is alive (a later process took it).
      mkdirSync(join(dir, 'reused'));
      writeFileSync(join(dir, 'reused', LOCK_OWNER), `${live.pid} ${hostname()}`);
      const old = new Date(Date.now() - LOCK_STALE_MS - 5_000);
      utimesSync(join(dir, 'reused'), old, old);
      const taken = await acquireLock(join(dir, 'reused.target'), opts('reused', 300));
      expect(readFileSync(join(dir, 'reused', LOCK_OWNER), 'utf8')).toBe(`${process.pid} ${hostname()}`);
      await taken.release();
    } finally {
      live.kill();
      await live.catch(() => undefined);
    }
  });
});
