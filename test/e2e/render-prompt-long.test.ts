import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-render-long-e2e-');
afterAll(cleanup);

interface Out {
  selected: { name: string }[];
  ranked: { name: string; below?: string }[];
}

/** Twenty skills about other things (a catalog large enough for "none fits" as it is), and one about memory leaks. */
function catalog(): string {
  const dir = fresh('skills');
  const tree: Record<string, string> = {};
  const words = ['mail', 'calendar', 'weather', 'stocks', 'translate', 'resize', 'docker', 'cron', 'slack', 'sql'];
  for (const [k, w] of words.entries())
    for (const i of [0, 1])
      tree[`${w}-${k}-${i}/SKILL.md`] = skillMd(
        `name: ${w}-${k}-${i}\ndescription: Work with ${w} ${i ? 'tasks' : 'jobs'} for the team.\n`,
        `# ${w}\n`,
      );
  tree['leak-hunter/SKILL.md'] = skillMd(
    'name: leak-hunter\ndescription: Find memory leaks in C programs with valgrind.\n',
    '# Leak hunter\n\n## Heap\n\nCheck the heap after each run.\n',
  );
  writeTree(dir, tree);
  return dir;
}

describe('skills render-prompt --query (built CLI): "none fits" asks more of a long request', () => {
  const dir = catalog();
  const env = { HOME: fresh('home') };
  const run = (query: string) =>
    runCli(['render-prompt', '--query', query, dir, '--no-registry', '--explain', '--json'], { env });

  it('selects the skill on two of its words in a short request, and nothing on them in a paragraph', async () => {
    const short = JSON.parse((await run('memory use of our programs')).stdout) as Out;
    expect(short.selected.map((s) => s.name)).toEqual(['leak-hunter']);
    const long =
      'Our service memory climbs nightly while the batch programs run; suspects include eviction settings, queue ' +
      'consumers, importer batches, thread pools, connection pools, logging buffers, metrics exporters, tracing ' +
      'spans, compression libraries, garbage collector flags, kernel page caches, swap partitions, container quotas, ' +
      'sidecar proxies, cron schedules, database drivers, image thumbnails and websocket sessions';
    const r = await run(long);
    expect(r.exitCode, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as Out;
    expect(j.selected).toEqual([]);
    expect(j.ranked.find((s) => s.name === 'leak-hunter')?.below).toMatch(
      /; a request of \d+ words asks 1\.\d\d times as much/,
    );
  });
});
