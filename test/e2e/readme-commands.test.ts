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
    const printed = /~\d+ tokens \(o200k_base\), tier full, 1 of 7 skills selected/.exec(r.stderr)?.[0];
    expect(printed, r.stderr).toBeDefined();
    expect(readme).toContain(`\`${printed!}\``);
    expect(readme).toContain(`"tokens": ${/~(\d+)/.exec(printed!)![1]},`);
  });
});
