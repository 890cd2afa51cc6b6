// The README's command reference against the built CLI: each command `skills --help` lists has a heading of its own
// among the commands (doctor sat under Security; search had none), and the render-prompt example's token figure is
// what the example, run as written, prints.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempFolders } from '../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-readme-commands-');
afterAll(cleanup);

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('the README command reference', () => {
  it('gives every command of skills --help a heading among the commands, before the sections after them', async () => {
    const help = await runCli(['--help'], { cwd: ROOT, env: { HOME: fresh('home') } });
    const commands = [
      ...help.stdout
        .slice(help.stdout.indexOf('Commands:'), help.stdout.indexOf('\nExamples:'))
        .matchAll(/^ {2}([a-z-]+)[ ,]/gm),
    ]
      .map((m) => m[1]!)
      .filter((c) => c !== 'help');
    expect(commands).toContain('doctor');
    const start = readme.indexOf('\n## Commands\n');
    const end = readme.indexOf('\n## Pre-commit hook\n');
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    const headings = [...readme.matchAll(/^### `skills ([a-z-]+)/gm)];
    const misplaced = commands.filter((c) => !headings.some((h) => h[1] === c && h.index! > start && h.index! < end));
    expect(misplaced).toEqual([]);
  });

  it('says the tokens the render-prompt example prints', async () => {
    const r = await runCli(['render-prompt', '--query', 'scrape prices', 'examples/skills'], {
      cwd: ROOT,
      env: { HOME: fresh('home'), SKILLS_REGISTRY: join(fresh('none'), 'registry') },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const printed = /~(\d+) tokens \(o200k_base\), tier full, 1 of 7 skills selected/.exec(r.stderr);
    expect(printed, r.stderr).not.toBeNull();
    // The prompt holds each skill's absolute path, so its size moves with where the checkout lies (a fresh clone in
    // CI, a worktree): the README's figure is one such run's, within 5% of this one (963 for 995 was 3% off, a path
    // of 40 characters more than this clone's about 2%), and its two mentions agree.
    const said = /`~(\d+) tokens \(o200k_base\), tier full, 1 of 7 skills selected`/.exec(readme);
    expect(said).not.toBeNull();
    expect(Math.abs(Number(said![1]) - Number(printed![1])) / Number(printed![1])).toBeLessThan(0.05);
    expect(readme).toContain(`"tokens": ${said![1]},`);
  });
});
