import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-render-small-e2e-');
afterAll(cleanup);

interface Out {
  selected: { name: string }[];
  ranked: { name: string; below?: string }[];
}

/** Five skills, as a user has installed them: under 20, where "none fits" weighs words over public skills too. */
function five(): string {
  const dir = fresh('skills');
  const skills: [string, string][] = [
    ['pdf-tools', 'Fill, merge and split PDF files. Use when the user works with PDF documents.'],
    ['csv-report', 'Summarise CSV files into a short report. Use when the user has a spreadsheet or CSV data.'],
    ['git-helper', 'Explain git history and write commit messages. Use when the user asks about commits.'],
    ['slides', 'Create and edit PowerPoint presentations. Use when the user wants a slide deck.'],
    ['forecast', 'Weather forecasts for a city (rain, wind, temperature). Use when the user asks about the weather.'],
  ];
  const tree: Record<string, string> = {};
  for (const [name, description] of skills)
    tree[`${name}/SKILL.md`] = skillMd(
      `name: ${name}\ndescription: ${description}\n`,
      `# ${name}\n\nInstructions of ${name}.\n`,
    );
  writeTree(dir, tree);
  return dir;
}

describe('skills render-prompt --query (built CLI) over a catalog of five skills: "none fits"', () => {
  const dir = five();
  const env = { HOME: fresh('home') };
  const run = (query: string, ...more: string[]) =>
    runCli(['render-prompt', '--query', query, dir, '--no-registry', ...more], { env });

  it('selects nothing for a request no skill fits, and says so as a large catalog does', async () => {
    const query = 'split the bill between four friends';
    const r = await run(query, '--explain');
    expect(r.exitCode, r.stderr).toBe(0);
    // Nothing selected, no skill declares triggers: the catalog, no skill's instructions.
    expect(r.stdout).toContain('pdf-tools');
    expect(r.stdout).not.toContain('Instructions of');
    expect(r.stderr).toMatch(
      /explain: 1 of 5 skills match .*\n {3}1\. pdf-tools {2}relevance {2}-\d\.\d\d {2}relevance: split \(description\) {2}\(not selected: its name, triggers, descriptions and headings match 0\.\d\d of one rare word, under the 0\.\d\d needed \(.*it holds \d+% of what the request says, not: bill, four, friends\)\)\n/,
    );
    const j = JSON.parse((await run(query, '--explain', '--json')).stdout) as Out;
    expect(j.selected).toEqual([]);
    expect(j.ranked).toEqual([
      expect.objectContaining({ name: 'pdf-tools', below: expect.stringMatching(/^its name/) }),
    ]);
  });

  it('selects the skill a request names the task of', async () => {
    const r = await run('merge these two PDFs into one');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('Instructions of pdf-tools');
    const j = JSON.parse((await run('make a slide deck about our quarterly results', '--json')).stdout) as Out;
    expect(j.selected.map((s) => s.name)).toEqual(['slides']);
  });
});
