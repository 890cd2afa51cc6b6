// The README's first screen: from nothing to a skill in an agent and a prompt in AGENTS.md. The commands are read out
// of the README itself and run as shown, against a local repository that GitHub's URL is sent to (insteadOf), so
// the block cannot drift from what the tool does.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempFolders } from '../helpers/cli.js';
import { git, gitConfigGlobal, makeRepo } from '../helpers/git-repos.js';
import { skillMd } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-readme-first-');
afterAll(cleanup);

/** The console block under "From nothing to a skill in your agent": each command with the lines it printed. */
function firstScreen(): { command: string; output: string[] }[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('**From nothing to a skill in your agent');
  const start = readme.indexOf('```console\n', at) + '```console\n'.length;
  const block = readme.slice(start, readme.indexOf('\n```', start));
  const steps: { command: string; output: string[] }[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2).replace(/\s+#.*$/, ''), output: [] });
    else steps.at(-1)!.output.push(line);
  }
  return steps;
}

describe("the README's first screen", () => {
  it('is at most six commands, and each `skills` one does what the README shows', async () => {
    const steps = firstScreen();
    expect(steps.length).toBeGreaterThan(3);
    expect(steps.length).toBeLessThanOrEqual(6);
    const repos = fresh('repos');
    makeRepo(join(repos, 'skills.git'), {
      'skills/pdf/SKILL.md': skillMd('name: pdf\ndescription: Reads and fills PDF files. Use when a PDF is given.\n'),
      'skills/xlsx/SKILL.md': skillMd('name: xlsx\ndescription: Edits spreadsheets. Use when a .xlsx is given.\n'),
    });
    const home = fresh('home');
    const env = {
      ...gitConfigGlobal(home, { 'https://github.com/anthropics/': `file://${repos}/` }),
      XDG_CACHE_HOME: join(home, '.cache'),
      SKILLS_REGISTRY: '',
    };
    const project = join(fresh('work'), 'my-project');
    mkdirSync(project);
    git(project, ['init', '--quiet']);
    for (const { command, output } of steps) {
      if (!command.startsWith('skills ')) continue; // npm i -g, cd: the test runs the built CLI in the project
      const r = await runCli(command.slice('skills '.length).split(' '), { cwd: project, env });
      expect(r.exitCode, `${command}\n${r.stderr}`).toBe(0);
      // Every line the README shows is printed, bar what comes from the real pdf skill's own text.
      const shown = output.filter((l) => l.trim() !== '' && !/^pdf +-/.test(l) && !/characters, \d+ tokens/.test(l));
      for (const line of shown)
        expect(r.stdout.split('\n'), command).toContainEqual(
          line.includes('~')
            ? expect.stringMatching(/^created AGENTS\.md with the skills block \(1 skill, ~\d+ tokens\)$/)
            : line,
        );
    }
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toContain('.claude/skills/pdf/SKILL.md');
  });
});
