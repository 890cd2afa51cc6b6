// Baseline for the validate rows: the least any tool must do, walk the tree and read every file once.
// Usage: node bench/read-tree.mjs <dir>; prints {"files", "chars"} so that the reads cannot be optimised away.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

let files = 0;
let chars = 0;
const walk = (dir) => {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) walk(p);
    else if (d.isFile()) {
      chars += readFileSync(p, 'utf8').length;
      files++;
    }
  }
};
walk(process.argv[2]);
process.stdout.write(`${JSON.stringify({ files, chars })}\n`);
