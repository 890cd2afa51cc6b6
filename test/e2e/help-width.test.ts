// --help of the built CLI in a real terminal 60 columns wide: util-linux's `script` gives the command a pseudo-
// terminal (Debian's bsdutils, always installed), whose width `stty cols` sets.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir, testEnv } from '../helpers/cli.js';

describe('--help in a narrow terminal (built CLI)', () => {
  it('wraps every line but the examples to the terminal’s 60 columns', () => {
    const home = tempDir();
    for (const args of ['', 'install', 'registry sync']) {
      const out = execFileSync(
        'script',
        ['-qec', `stty cols 60; '${process.execPath}' '${BIN}' ${args} --help`, '/dev/null'],
        { encoding: 'utf8', env: testEnv(home.dir, { TERM: 'dumb' }) },
      );
      const lines = out.replace(/\r/g, '').split('\n');
      expect(
        lines.some((l) => l.startsWith('Usage: skills')),
        args,
      ).toBe(true);
      const long = lines.filter((l) => l.length > 60 && !l.startsWith('  skills '));
      expect(long, args || 'skills').toEqual([]);
    }
    home.cleanup();
  });
});
