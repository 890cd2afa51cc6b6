// Preloaded with `node -r bench/max-rss.cjs …` by the memory rows: at exit, writes the most memory the process held
// (maxRSS, KiB, from getrusage) to the file $SKILLS_BENCH_RSS names.
'use strict';
const { writeFileSync } = require('node:fs');

const file = process.env.SKILLS_BENCH_RSS;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
