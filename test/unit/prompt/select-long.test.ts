import { describe, expect, it } from 'vitest';
import { selectSkills, type SelectionCandidate } from '../../../src/prompt/select.js';

// Twenty skills about other things (a catalog large enough for "none fits"), and one about memory leaks in C.
const catalog: SelectionCandidate[] = [
  ...['mail', 'calendar', 'weather', 'stocks', 'translate', 'resize', 'docker', 'cron', 'slack', 'sql'].flatMap(
    (w, k) =>
      [0, 1].map((i) => ({
        name: `${w}-${k}-${i}`,
        description: `Work with ${w} ${i ? 'tasks' : 'jobs'} for the team.`,
      })),
  ),
  {
    name: 'leak-hunter',
    description: 'Find memory leaks in C programs with valgrind.',
    body: '\n## Heap\n\nCheck the heap after each run.\n',
  },
];

describe('none fits, for a long request', () => {
  // Two words of the skill's description among forty others: what a paragraph about something else shares by chance.
  const long =
    'Our service memory climbs nightly while the batch programs run; suspects include eviction settings, queue ' +
    'consumers, importer batches, thread pools, connection pools, logging buffers, metrics exporters, tracing spans, ' +
    'compression libraries, garbage collector flags, kernel page caches, swap partitions, container quotas, sidecar ' +
    'proxies, cron schedules, database drivers, image thumbnails and websocket sessions';

  it('asks more of a skill the longer the request: the same two words select it in a short one, not in a paragraph', () => {
    expect(selectSkills('memory use of our programs', catalog, { max: 3 }).selected.map((s) => s.name)).toEqual([
      'leak-hunter',
    ]);
    const r = selectSkills(long, catalog, { max: 3 });
    expect(r.selected).toEqual([]);
    const hunter = r.ranked.find((s) => s.name === 'leak-hunter');
    expect(hunter?.below).toMatch(/; a request of \d+ words asks 1\.\d\d times as much/);
  });

  it('leaves a request of a sentence as it was: the bar grows only past twelve of its words', () => {
    const r = selectSkills('why do our batch programs leak memory every night on the big server', catalog, { max: 3 });
    expect(r.selected.map((s) => s.name)).toEqual(['leak-hunter']);
  });
});
