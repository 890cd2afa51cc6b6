// Registering many skills at once: `registry sync` of 1,000 and 10,000 skill folders, and `install` of 1,000 folders
// into a registry, each from nothing, against `cp -r` of the same folders followed by `sync -f` (what copying them
// costs at least, once on disk: the baseline flushes its copy; the registry flushes its index and releases files).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCorpus } from '../generate.mjs';
import { benchTempDir, comparePair, log, ratioAim } from '../lib.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'bin', 'skills.js');
const corpora = new Map();

async function corpus(count) {
  if (!corpora.has(count)) {
    const dir = join(benchTempDir(), `sync-${count}`);
    log(`writing ${count} skills to ${dir} …`);
    mkdirSync(dir, { recursive: true });
    await writeCorpus(join(dir, 'skills'), { count, seed: 11 });
    corpora.set(count, dir);
  }
  return corpora.get(count);
}

const sh = (cwd, script, label) => ({ file: '/bin/sh', args: ['-c', script], cwd, label });
const node = `"${process.execPath}" "${CLI}"`;

const syncRow = (count, aim) => ({
  name: `registry sync of ${count.toLocaleString('en-US')} skill folders, from nothing`,
  aim: ratioAim(aim),
  async run() {
    const dir = await corpus(count);
    const result = await comparePair({
      measured: sh(
        dir,
        `rm -rf reg && ${node} registry sync skills --registry reg --json >/dev/null`,
        'skills registry sync',
      ),
      baseline: sh(dir, 'rm -rf copy && cp -r skills copy && sync -f copy', 'cp -r && sync -f'),
      runs: 3,
      warmups: 1,
    });
    result.notes = [
      `${count} generated skills (half SKILL.md, half manifest.json), seed 11: validated, copied into the store (copies renamed into place; releases files and index fsynced), one index write`,
    ];
    return result;
  },
});

export const rows = [
  syncRow(1000, 3),
  syncRow(10000, 3),
  {
    name: 'install of 1,000 skill folders into a registry, from nothing',
    aim: ratioAim(3),
    async run() {
      const dir = await corpus(1000);
      const result = await comparePair({
        measured: sh(
          dir,
          `rm -rf proj && mkdir proj && cd proj && ${node} install ../skills --registry reg --yes -q >/dev/null`,
          'skills install <folder of 1,000> --registry',
        ),
        // The install writes two copies (the registry's store and .agents/skills): so does the baseline.
        baseline: sh(
          dir,
          'rm -rf copy copy2 && cp -r skills copy && cp -r skills copy2 && sync -f copy',
          'cp -r twice && sync -f',
        ),
        runs: 3,
        warmups: 1,
      });
      result.notes = [
        'the 1,000 skills of the sync row: registered in one batch (the store copy), placed in .agents/skills (the second copy), locked',
      ];
      return result;
    },
  },
];
