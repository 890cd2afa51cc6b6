// render-prompt's result lists its catalog when read (render-prompt.ts: text output reads only its length): --json
// and a test see the same items, in the same place among the result's keys, as a list made at once.
import { afterAll, describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { renderPrompt } from '../../../src/prompt/render-prompt.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-render-prompt-result-');
afterAll(cleanup);

const SKILLS = join(resolve(__dirname, '../../..'), 'test/fixtures/selection/skills');

describe("render-prompt's result", () => {
  it('lists every skill of the catalog, as JSON shows it, between the selection and the prompt', async () => {
    const home = fresh('home');
    const ctx = { cwd: home, env: { HOME: home, XDG_CACHE_HOME: join(home, '.cache') } };
    const result = await renderPrompt({ dirs: [SKILLS], query: 'merge two pdf files', registry: false }, ctx);
    expect(result.catalog.length).toBeGreaterThan(10);
    // Read twice, the same list.
    expect(result.catalog).toBe(result.catalog);
    const json = JSON.parse(JSON.stringify(result)) as typeof result;
    expect(Object.keys(json)).toEqual([
      'tier',
      'query',
      'maxSkills',
      'selected',
      'catalog',
      'prompt',
      'tokens',
      'dropped',
      'warnings',
      'searched',
    ]);
    expect(json.catalog).toEqual(result.catalog);
    for (const item of json.catalog) {
      expect(item.location.startsWith(SKILLS)).toBe(true);
      expect(item.scope).toBe('project');
      expect(typeof item.description).toBe('string');
    }
    expect(json.catalog.map((c) => c.name)).toContain(result.selected[0]!.name);
    expect({ ...result }.catalog).toEqual(json.catalog);
  });
});
