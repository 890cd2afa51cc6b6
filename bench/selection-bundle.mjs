// The built-in selection, bundled in-process from this checkout's src/ (no CLI per request): for the benches that run
// thousands of requests over catalogs they draw (selection-real.mjs's small catalogs, semantic-probe.mjs).
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** { buildCatalog, candidateOf, selectSkills } of src/prompt. */
export async function bundledSelection() {
  const tmp = mkdtempSync(join(tmpdir(), 'skills-bench-selection-'));
  try {
    const entry = join(tmp, 'entry.ts');
    writeFileSync(
      entry,
      `export { buildCatalog } from ${JSON.stringify(join(ROOT, 'src/prompt/catalog.js'))};\n` +
        `export { candidateOf, selectSkills } from ${JSON.stringify(join(ROOT, 'src/prompt/select.js'))};\n`,
    );
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      mainFields: ['module', 'main'],
      outfile: join(tmp, 'sel.cjs'),
      logLevel: 'error',
    });
    return createRequire(import.meta.url)(join(tmp, 'sel.cjs'));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
