// Bundle src/ with esbuild into CommonJS files: dist/main.cjs holds start-up and the hot commands (validate);
// each other command is its own dist/commands/<name>.cjs, required only when run. Dynamic imports inside a
// bundle become lazy module initialisers, so a command evaluates only what it uses. CommonJS is what
// bin/skills.js can load through V8's code cache on Node 20, which has no module.enableCompileCache.
import { build } from 'esbuild';
import { readdirSync, renameSync, rmSync } from 'node:fs';

/** Commands bundled into main.cjs; the rest load from their own files. */
const HOT = new Set(['validate']);

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  mainFields: ['module', 'main'],
  minify: process.env.SKILLS_BUILD_MINIFY !== '0',
  sourcemap: 'linked',
  logLevel: 'warning',
  // import() of another bundle becomes require(): vm.Script (see bin/skills.js) has no ESM loader.
  supported: { 'dynamic-import': false },
  // The source is ESM; in a CommonJS bundle import.meta.url becomes the bundle's own file URL.
  define: { 'import.meta.url': '__skillsFileUrl' },
  banner: { js: "var __skillsFileUrl = require('node:url').pathToFileURL(__filename).href;" },
};

const coldCommands = {
  name: 'cold-commands',
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/[\w-]+\.js$/ }, (args) => {
      const name = args.path.slice('./commands/'.length, -'.js'.length);
      return HOT.has(name) ? undefined : { path: `./commands/${name}.cjs`, external: true };
    });
  },
};

// commander requires child_process at load for executable subcommands, which skills does not use; loading it
// (and net, streams) costs a few ms of every start. Defer it to first use.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes('node_modules/commander/') ? { path: 'lazy-child-process', namespace: 'lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

// Big libraries that only some runs need get a bundle of their own under dist/vendor/, required on first use:
// the o200k tokenizer (2 MB of ranks) is loaded only when a skill's instructions could pass the token budget.
const VENDOR = { 'gpt-tokenizer/encoding/o200k_base': 'o200k_base' };
const vendored = {
  name: 'vendored',
  setup(b) {
    b.onResolve({ filter: /^gpt-tokenizer\// }, (args) => {
      const name = VENDOR[args.path];
      if (!name) return undefined;
      // Required relative to the bundle that needs it: dist/main.cjs or dist/commands/<name>.cjs.
      const inCommands = b.initialOptions.outfile.includes('/commands/');
      return { path: `${inCommands ? '..' : '.'}/vendor/${name}.cjs`, external: true };
    });
  },
};

// Built into a folder of its own, then swapped in by two renames: a process running the CLI meanwhile (a test, a
// second build) never meets a half-written dist/.
const out = `dist.build-${process.pid}`;
const commands = readdirSync(new URL('../src/commands', import.meta.url))
  .filter((f) => f.endsWith('.ts') && !HOT.has(f.slice(0, -3)))
  .map((f) => f.slice(0, -3));
await Promise.all([
  build({ ...common, entryPoints: ['src/main.ts'], outfile: `${out}/main.cjs`, plugins: [coldCommands, lazyChildProcess, vendored] }),
  ...commands.map((name) => build({ ...common, entryPoints: [`src/commands/${name}.ts`], outfile: `${out}/commands/${name}.cjs`, plugins: [vendored] })),
  ...Object.entries(VENDOR).map(([pkg, name]) => build({ ...common, entryPoints: [pkg], outfile: `${out}/vendor/${name}.cjs` })),
]);

const dist = new URL('../dist', import.meta.url);
const old = new URL(`../dist.old-${process.pid}`, import.meta.url);
try {
  renameSync(dist, old);
} catch (err) {
  if (err.code !== 'ENOENT') throw err;
}
renameSync(new URL(`../${out}`, import.meta.url), dist);
rmSync(old, { recursive: true, force: true });
