import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import Module from 'node:module';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, EXAMPLES, tempDir } from '../helpers/cli.js';

const run = (home: string, env: Record<string, string> = {}) =>
  execa(process.execPath, [BIN, 'validate', join(EXAMPLES, 'web-scraping')], { env: { NO_COLOR: '1', HOME: home, XDG_CACHE_HOME: '', ...env }, reject: false });

describe('start-up (bin/skills.js)', () => {
  it('keeps a private V8 code cache that a corrupt file cannot break', async () => {
    if (typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function') return; // Node's own cache
    const t = tempDir();
    try {
      const first = await run(t.dir);
      expect(first.exitCode).toBe(0);
      const dir = join(t.dir, '.cache', 'skills');
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      const [file] = readdirSync(dir);
      expect(file).toMatch(/^main-[0-9a-f]+\.v8cache$/);
      expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
      const second = await run(t.dir);
      expect(second.stdout).toBe(first.stdout);
      writeFileSync(join(dir, file!), 'not a code cache');
      const third = await run(t.dir);
      expect(third.exitCode).toBe(0);
      expect(third.stdout).toBe(first.stdout);
      expect(statSync(join(dir, file!)).size).toBeGreaterThan(1000);
    } finally {
      t.cleanup();
    }
  });

  it('writes no cache with SKILLS_COMPILE_CACHE=0', async () => {
    const t = tempDir();
    try {
      const r = await run(t.dir, { SKILLS_COMPILE_CACHE: '0' });
      expect(r.exitCode).toBe(0);
      expect(readdirSync(t.dir)).toEqual([]);
    } finally {
      t.cleanup();
    }
  });
});
