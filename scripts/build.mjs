// Bundle src/ with esbuild into CommonJS files under dist/: main.cjs (start-up and the command line), one file per
// command (commands/<name>.cjs) and shared chunks (chunks/*.cjs) that hold each module once, whichever commands use
// it: one SkillsError class, so `instanceof` works everywhere, and a run loads only the files its command needs.
//
// esbuild splits only ES modules, and V8's code cache, which bin/skills.js uses on Node 20 (it has no
// module.enableCompileCache), works only for CommonJS loaded through vm.Script. So the build is two steps: bundle
// as ESM with splitting, then turn each output file into CommonJS (imports become requires, import() a lazy
// require). The o200k tokenizer (2 MB of ranks) stays a file of its own, dist/vendor/o200k_base.cjs, required only
// when a prompt or a skill's instructions could pass a token budget. No source maps ship (they were 21 MB of the
// package); names are minified, so a stack trace is read against SKILLS_BUILD_MINIFY=0 output.
import { build, transform } from 'esbuild';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const minify = process.env.SKILLS_BUILD_MINIFY !== '0';
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  mainFields: ['module', 'main'],
  minify,
  legalComments: 'none',
  logLevel: 'warning',
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

// Node's assert loads its error class, which looks at once whether stderr is a terminal: that builds
// process.stderr, and for a pipe loads net and its streams (5 to 8 ms). Packages we bundle require it at the top
// (minizlib under tar, graceful-fs under proper-lockfile) and call it only to check what always holds (signal-exit,
// under proper-lockfile, at each lock: assert.equal): they get a stand-in, a function (assert's own call) whose
// properties are assert's, which loads assert on first use; assert(value) and assert.equal(a, b) load it only to
// throw its error.
const lazyAssert = {
  name: 'lazy-assert',
  setup(b) {
    b.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
      args.namespace === 'lazy-assert' ? undefined : { path: 'lazy-assert', namespace: 'lazy-assert' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-assert' }, () => ({
      contents: [
        "const load = () => require('node:assert');",
        'function assert(value, ...a) { if (!value) load()(value, ...a); }',
        // assert.equal is ==, or both NaN: anything else, and both NaN, is the real one's to judge.
        'const equal = (x, y, ...a) => { if (x != y) load().equal(x, y, ...a); };',
        'module.exports = new Proxy(assert, {',
        // A module's `__esModule` is asked by interop helpers when it is required: a plain CommonJS module has none.
        "  get: (f, key) => (key === '__esModule' ? undefined : key === 'default' || key === 'ok' ? f : key === 'equal' ? equal : load()[key]),",
        '});',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

// Node's crypto costs ~4 ms to load, and a shared chunk that imports it for one command (a registry's integrity
// hashes) would load it for every command that uses the chunk. Our modules get lazy stand-ins: each function crypto
// exports is a function that loads crypto on its first call. (A value that is not a function is not offered: the
// build fails on an import of one, rather than load crypto eagerly.)
const LAZY_BUILTINS = ['crypto'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`) }, (args) =>
      args.importer.includes('/node_modules/') || args.namespace === 'lazy-builtin'
        ? undefined
        : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const real = await import(`node:${args.path}`);
      const names = Object.keys(real).filter(
        (k) => k !== 'default' && typeof real[k] === 'function' && /^[a-z]/.test(k),
      );
      const lines = [`let m; const load = () => (m ??= require('node:${args.path}'));`];
      for (const k of names) lines.push(`export function ${k}(...a) { return load().${k}(...a); }`);
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

// semver builds about forty regular expressions when it is first required (~1.5 ms), and validate needs none of them
// for a skill whose version is a plain 1.2.3 and whose dependencies name no range. Our modules get lazy stand-ins for
// its one-function modules (semver/functions/*, semver/ranges/*): a function that requires the real one on its first
// call. Its classes (Range, SemVer), whose identity instanceof checks, and the whole package are imported as they are.
const lazySemver = {
  name: 'lazy-semver',
  setup(b) {
    b.onResolve({ filter: /^semver\/(?:functions|ranges)\/[\w-]+\.js$/ }, (args) =>
      args.importer.includes('/node_modules/') || args.namespace === 'lazy-semver'
        ? undefined
        : { path: args.path, namespace: 'lazy-semver' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-semver' }, (args) => ({
      contents: `module.exports = function (...a) { return require(${JSON.stringify(args.path)})(...a); };`,
      loader: 'js',
      resolveDir: process.cwd(),
    }));
  },
};

// Packages whose modules do real work when they run, needed by validate only off its common path: zod sets up its
// whole library (~1.5 ms), needed only for a skill whose shape is wrong (model/schemas.ts checks the common case
// without it); jsonc-parser's index also runs its formatter's set-up (1,200 strings, ~1.5 ms), and only a
// manifest.json is parsed with it. Our modules import them through a stand-in with a getter for each export, which
// runs the real module on first use.
const LAZY_PACKAGES = ['zod', 'jsonc-parser'];
const lazyPackages = {
  name: 'lazy-packages',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(?:${LAZY_PACKAGES.join('|')})$`) }, (args) => {
      if (args.importer.includes('/node_modules/') || args.namespace === 'lazy-package') return undefined;
      // A dynamic import() of the stand-in would see only its `default` (esbuild gives a CommonJS module's
      // namespace no named exports there), so `const { z } = await import('zod')` would be undefined at run time.
      // The static import is already lazy; say so at build time rather than crash at run time.
      if (args.kind === 'dynamic-import')
        return { errors: [{ text: `import ${args.path} statically: it is loaded on first use already` }] };
      return { path: args.path, namespace: 'lazy-package' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-package' }, async (args) => {
      const names = Object.keys(await import(args.path)).filter((k) => k !== 'default' && /^[A-Za-z_$][\w$]*$/.test(k));
      const lines = [`let m; const load = () => (m ??= require(${JSON.stringify(args.path)}));`, 'module.exports = {'];
      for (const k of names) lines.push(`  get ${k}() { return load().${k}; },`);
      lines.push('};');
      return { contents: lines.join('\n'), loader: 'js', resolveDir: process.cwd() };
    });
  },
};

// Big libraries that only some runs need get a file of their own under dist/vendor/, required on first use.
const VENDOR = { 'gpt-tokenizer/encoding/o200k_base': 'o200k_base' };
const vendored = {
  name: 'vendored',
  setup(b) {
    b.onResolve({ filter: /^gpt-tokenizer\// }, (args) =>
      VENDOR[args.path] ? { path: `#vendor/${VENDOR[args.path]}`, external: true } : undefined,
    );
  },
};

// Built into a folder of its own, then swapped in by two renames: a process running the CLI meanwhile (a test, a
// second build) never meets a half-written dist/.
const target = process.env.SKILLS_BUILD_OUT ?? new URL('../dist', import.meta.url).pathname;
const out = `${target}.build-${process.pid}`;
const esm = `${out}/esm`;

// npm's own libraries (the npm registry client, publish, tarball fetching) are big and only `publish`, and an
// install from an npm registry, load them: they stay in node_modules (they are dependencies) and are required there
// on first use, rather than making the package heavier for every other command.
// The MCP SDK (skills serve, and installs from an MCP server) likewise: bundled, its server, client and schemas
// would be about 0.4 MB of the 2 MB the package may weigh.
const EXTERNAL = ['libnpmpublish', 'pacote', 'npm-registry-fetch', '@modelcontextprotocol/sdk'];

const [result] = await Promise.all([
  build({
    ...common,
    // The lint worker thread's script is an entry of its own (dist/lint-worker.cjs), sharing chunks with lint.
    entryPoints: { main: 'src/main.ts', 'lint-worker': 'src/lint/worker.ts' },
    outdir: esm,
    format: 'esm',
    splitting: true,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    external: EXTERNAL,
    plugins: [lazyChildProcess, lazyAssert, lazyBuiltins, lazySemver, lazyPackages, vendored],
  }),
  ...Object.entries(VENDOR).map(([pkg, name]) =>
    build({ ...common, format: 'cjs', entryPoints: [pkg], outfile: `${out}/vendor/${name}.cjs` }),
  ),
]);

// Step two: ESM → CommonJS, file by file. A command's file is named after the command (commands/<name>.cjs).
const names = new Map();
for (const [file, meta] of Object.entries(result.metafile.outputs)) {
  const command = meta.entryPoint && /^src\/commands\/([\w-]+)\.ts$/.exec(meta.entryPoint)?.[1];
  const rel = relative(esm, file);
  names.set(rel, command ? `commands/${command}.cjs` : rel.replace(/\.js$/, '.cjs'));
}
const built = new Map();
const relativeTo = (from, to) => {
  const r = relative(dirname(from), to);
  return r.startsWith('.') ? r : `./${r}`;
};
for (const [rel, name] of names) {
  let code = readFileSync(join(esm, rel), 'utf8');
  // Imports between our files point at their CommonJS names, relative to the importer.
  code = code.replace(/(["'])(\.\.?\/[^"']+\.js)\1/g, (m, q, spec) => {
    const to = names.get(join(dirname(rel), spec));
    return to ? `${q}${relativeTo(name, to)}${q}` : m;
  });
  code = code.replace(/(["'])#vendor\/([\w-]+)\1/g, (_, q, v) => `${q}${relativeTo(name, `vendor/${v}.cjs`)}${q}`);
  const cjs = await transform(code, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify,
    legalComments: 'none',
    // import() of another of our files becomes a lazy require(): vm.Script (see bin/skills.js) has no ESM loader.
    supported: { 'dynamic-import': false },
    // The source is ESM; in CommonJS import.meta.url is the file's own URL.
    define: { 'import.meta.url': '__skillsFileUrl' },
    // Only in the files that use it: main.cjs runs ~20 modules' set-up on a cold start, and each would load url.
    banner: code.includes('import.meta.url')
      ? "var __skillsFileUrl = require('node:url').pathToFileURL(__filename).href;"
      : undefined,
  });
  built.set(name, cjs.code);
}
rmSync(esm, { recursive: true });

// Step three: the hot path in one file. Every file that start-up and `validate` (the command a pre-commit hook runs
// on every commit) load through static imports goes into main.cjs, as a module factory that runs on first require:
// one read and one code-cache entry instead of about twenty. Each module is still in exactly one file; the other
// files require these modules from main.cjs (`require("../main.cjs").__core(name)`), which is always loaded first.
const HOT_ENTRIES = /^(?:src\/(?:main|cli\/[^/]+|commands\/validate)\.ts|node_modules\/commander\/)/;
const HOT = Object.entries(result.metafile.outputs)
  .filter(([, meta]) => meta.entryPoint && HOT_ENTRIES.test(meta.entryPoint))
  .map(([file]) => names.get(relative(esm, file)));
const staticImports = new Map();
for (const [file, meta] of Object.entries(result.metafile.outputs)) {
  const from = names.get(relative(esm, file));
  const to = meta.imports
    .filter((i) => i.kind === 'import-statement' && !i.external)
    .map((i) => names.get(relative(esm, i.path)));
  staticImports.set(from, to.filter(Boolean));
}
const core = new Set();
const visit = (name) => {
  if (core.has(name)) return;
  core.add(name);
  for (const next of staticImports.get(name) ?? []) visit(next);
};
for (const name of HOT) visit(name);
core.delete('main.cjs');

// A require of one of our files, as it stands in the CommonJS output: resolved against the requiring file's name.
const REQUIRE = /\brequire\((["'])(\.\.?\/[^"']+\.cjs)\1\)/g;
const resolveFrom = (name, spec) => join(dirname(name), spec);
const factories = [...core].map((name) => {
  const code = built.get(name).replace(REQUIRE, (m, q, spec) => {
    const to = resolveFrom(name, spec);
    return core.has(to) ? `__core(${JSON.stringify(to)})` : `require(${JSON.stringify(relativeTo('main.cjs', to))})`;
  });
  return `${JSON.stringify(name)}:function(exports,require,module,__filename,__dirname){${code}\n}`;
});
const loader = `var __coreDefs={${factories.join(',')}},__coreMods={};function __core(n){var m=__coreMods[n];if(m)return m.exports;m=__coreMods[n]={exports:{}};var f=require("node:path").join(__dirname,n);__coreDefs[n].call(m.exports,m.exports,require,m,f,require("node:path").dirname(f));return m.exports}\n`;
for (const [name, code] of built) {
  if (core.has(name)) continue;
  const linked = code.replace(REQUIRE, (m, q, spec) => {
    const to = resolveFrom(name, spec);
    if (!core.has(to)) return m;
    if (name === 'main.cjs') return `__core(${JSON.stringify(to)})`;
    return `require(${JSON.stringify(relativeTo(name, 'main.cjs'))}).__core(${JSON.stringify(to)})`;
  });
  const text = name === 'main.cjs' ? `${loader}${linked}\nmodule.exports.__core=__core;\n` : linked;
  mkdirSync(join(out, dirname(name)), { recursive: true });
  writeFileSync(join(out, name), text);
}

const old = `${target}.old-${process.pid}`;
try {
  renameSync(target, old);
} catch (err) {
  if (err.code !== 'ENOENT') throw err;
}
renameSync(out, target);
rmSync(old, { recursive: true, force: true });
