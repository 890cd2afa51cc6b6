// Bundle src/ into dist/ with esbuild: one file for the hot path (main + validate), lazily loaded chunks for
// the rest. Bundling is what keeps cold start near `node -e 0` on Node 20, which has no compile cache.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  mainFields: ['module', 'main'],
  sourcemap: 'linked',
  minify: true,
  logLevel: 'warning',
  // CommonJS packages bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __skillsRequire } from 'node:module'; const require = __skillsRequire(import.meta.url);" },
});
