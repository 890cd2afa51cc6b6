// Ctrl-C at one of init's prompts: exit 130 (128 + SIGINT, as a shell reports it), and nothing written.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/main.js';
import { tempDir } from '../../helpers/cli.js';

const tmp = tempDir('skills-init-cancel-');
afterAll(tmp.cleanup);

describe('skills init, cancelled at a prompt', () => {
  it('exits 130 and leaves nothing behind', async () => {
    // A terminal: the prompts are asked, and Ctrl-C is the byte a terminal in raw mode sends.
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
    let said = '';
    let pressed = false;
    const stderr = Object.assign(
      new Writable({
        write(chunk, _enc, done) {
          said += String(chunk);
          // At the first prompt, the user presses Ctrl-C.
          if (said.includes('Layout') && !pressed) {
            pressed = true;
            stdin.write('\u0003');
          }
          done();
        },
      }),
      // As process.stderr, which the prompt's output stream ends when it closes: it stays open.
      { isTTY: true, columns: 80, end: () => stderr },
    );
    let out = '';
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    stdout.on('data', (b: Buffer) => (out += b.toString()));
    const code = await run(['init', 'demo'], {
      cwd: tmp.dir,
      env: { NO_COLOR: '1', HOME: tmp.dir },
      stdout,
      stderr,
      stdin,
      version: '0.0.0',
    });
    expect(code).toBe(130);
    expect(said).toContain('error: init cancelled (Ctrl-C); nothing was written');
    expect(out).toBe('');
    expect(existsSync(join(tmp.dir, 'demo'))).toBe(false);
    expect(readdirSync(tmp.dir)).toEqual([]);
  });
});
