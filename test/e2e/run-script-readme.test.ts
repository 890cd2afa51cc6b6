import { execa } from 'execa';
import { chmodSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, tempFolders } from '../helpers/cli.js';

// The README's run-script examples, read out of the README (so they cannot drift) and run as a newcomer types them:
// in a fresh copy of the clone's examples/, with `skills` on PATH, a temp HOME, no registry and no skill folders.

const { fresh, cleanup } = tempFolders('skills-run-script-readme-');
afterAll(cleanup);

/** The command lines of the ```sh blocks in the README's `skills run-script` section (comments and blanks left out). */
function readmeExamples(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n### `skills run-script');
  expect(start, 'the README has a `skills run-script` section').toBeGreaterThan(-1);
  const after = readme.slice(start + 1);
  const end = after.search(/\n#{2,3} /);
  const section = end === -1 ? after : after.slice(0, end);
  const lines: string[] = [];
  for (const block of section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    // A line ending in \ goes on.
    for (const line of block[1]!.replace(/\\\n/g, ' ').split('\n')) {
      if (line.trim() !== '' && !line.trim().startsWith('#')) lines.push(line);
    }
  }
  return lines;
}

const examples = readmeExamples();

describe('the README run-script examples (built CLI)', () => {
  it('are there to run', () => {
    expect(examples.filter((l) => /\bskills run-script\b/.test(l)).length).toBeGreaterThanOrEqual(3);
  });

  it('work as typed from a fresh clone, one after the other, with no setup step', async () => {
    const clone = fresh('clone');
    cpSync(join(ROOT, 'examples'), join(clone, 'examples'), { recursive: true, verbatimSymlinks: true });
    const bin = fresh('bin');
    writeFileSync(join(bin, 'skills'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'skills'), 0o755);
    const env = { NO_COLOR: '1', HOME: fresh('home'), PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
    for (const line of examples) {
      const r = await execa('sh', ['-c', line], { cwd: clone, env, extendEnv: false, reject: false, timeout: 30_000 });
      const where = `README example: ${line}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
      expect(r.exitCode, where).toBe(0);
      expect(r.stderr, where).toBe('');
      // A run says how it went: never a failure, and a success when it is a run (not --list).
      expect(r.stdout, where).not.toMatch(/"success":\s*false/);
      if (/\bskills run-script\b/.test(line) && !line.includes('--list'))
        expect(r.stdout, where).toMatch(/"success":\s*true/);
    }
  });
});
