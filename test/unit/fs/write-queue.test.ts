import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WriteQueue, type WriteFailure } from '../../../src/fs/write-queue.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-write-queue-');
afterAll(cleanup);

describe('WriteQueue', () => {
  it('creates every file with its bytes and mode, at most `concurrency` at once, and settles when all are written', async () => {
    const dir = fresh();
    const q = new WriteQueue(3);
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    for (let i = 0; i < 50; i++) q.add(join(dir, `f${i}`), Buffer.from(`file ${i}`), i % 2 ? 0o755 : 0o444, `f${i}`);
    q.add(join(dir, 'empty'), Buffer.alloc(0), 0o644, 'empty');
    q.add(join(dir, 'big'), big, 0o644, 'big');
    expect(q.pendingBytes).toBeGreaterThan(big.length);
    await q.settled();
    expect(q.failure).toBeUndefined();
    expect(q.pendingBytes).toBe(0);
    expect(readdirSync(dir)).toHaveLength(52);
    expect(readFileSync(join(dir, 'f7'), 'utf8')).toBe('file 7');
    expect(statSync(join(dir, 'f7')).mode & 0o111).toBe(0o111);
    expect(statSync(join(dir, 'f8')).mode & 0o222).toBe(0);
    expect(readFileSync(join(dir, 'empty'))).toHaveLength(0);
    expect(readFileSync(join(dir, 'big')).equals(big)).toBe(true);
    // Nothing queued: settled at once.
    await q.settled();
  });

  it('never replaces a file (wx): the first failure is reported once, with its label, and stops what is queued', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'taken'), 'someone else');
    const failures: WriteFailure[] = [];
    const q = new WriteQueue(1, (f) => failures.push(f));
    q.add(join(dir, 'taken'), Buffer.from('mine'), 0o644, 'entry "s/taken"');
    q.add(join(dir, 'missing', 'x'), Buffer.from('x'), 0o644, 'entry "s/missing/x"');
    for (let i = 0; i < 10; i++) q.add(join(dir, `later${i}`), Buffer.from('x'), 0o644, `later${i}`);
    await q.settled();
    expect(failures).toHaveLength(1);
    expect(failures[0]!.label).toBe('entry "s/taken"');
    expect(failures[0]!.err.code).toBe('EEXIST');
    expect(q.failure).toBe(failures[0]);
    expect(readFileSync(join(dir, 'taken'), 'utf8')).toBe('someone else');
    // With one in flight, nothing after the failure was started; nor is anything added later.
    q.add(join(dir, 'after'), Buffer.from('x'), 0o644, 'after');
    await q.settled();
    expect(readdirSync(dir).sort()).toEqual(['taken']);
  });

  it('a failure while others are in flight: settled waits for them to end', async () => {
    const dir = fresh();
    mkdirSync(join(dir, 'ok'));
    const q = new WriteQueue(64);
    for (let i = 0; i < 30; i++) q.add(join(dir, 'ok', `f${i}`), Buffer.alloc(64 * 1024, 1), 0o644, `f${i}`);
    q.add(join(dir, 'no-such-folder', 'x'), Buffer.from('x'), 0o644, 'bad');
    await q.settled();
    expect(q.failure?.label).toBe('bad');
    expect(q.failure?.err.code).toBe('ENOENT');
    // Every write that had started has ended: each file there is whole.
    for (const f of readdirSync(join(dir, 'ok'))) expect(statSync(join(dir, 'ok', f)).size).toBe(64 * 1024);
  });
});
