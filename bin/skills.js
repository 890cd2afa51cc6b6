#!/usr/bin/env node
'use strict';
// Shim: answer --version at once, load the bundled CLI through a compile cache, hand it the process.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const argv = process.argv.slice(2);
const loaded = new Map();
let versionRead;
const version = () => (versionRead ??= JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${version()}\n`);
} else {
  const { run } = loadCli(path.join(__dirname, '..', 'dist', 'main.cjs'));
  const ctx = { cwd: process.cwd(), env: process.env, stdout: closedQuietly(process.stdout), version: version() };
  // process.stdin and process.stderr build a stream on first touch (a pipe loads net): only runs that use them pay.
  Object.defineProperty(ctx, 'stdin', { get: () => process.stdin, enumerable: true });
  let stderr;
  Object.defineProperty(ctx, 'stderr', { get: () => (stderr ??= closedQuietly(process.stderr)), enumerable: true });
  run(argv, ctx).then(
    (code) => {
      process.exitCode = code;
    },
  );
}

// A reader that goes away (`skills list | head -1`) ends the run at once and quietly, as it ends `cat` or `git log`:
// with 141, the code of a process killed by SIGPIPE (which Node ignores), and no stack trace of an unhandled EPIPE.
function closedQuietly(stream) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(141);
    throw err;
  });
  return stream;
}

function loadCli(file) {
  if (process.env.SKILLS_COMPILE_CACHE === '0') return require(file);
  if (typeof Module.enableCompileCache === 'function') {
    // Node >= 22.1 keeps its own cache.
    try {
      Module.enableCompileCache();
    } catch {}
    return require(file);
  }
  return requireWithCodeCache(file);
}

// Node 20 has no compile cache: do what it does for our bundles. V8 checks that the cached code belongs to
// this source and these flags (else it is rejected and rewritten); the folder is the user's own, mode 0700.
function requireWithCodeCache(file) {
  if (loaded.has(file)) return loaded.get(file);
  const vm = require('node:vm');
  const home = process.env.XDG_CACHE_HOME || path.join(process.env.HOME || require('node:os').homedir(), '.cache');
  // V8 checks a cache against the source's length, not its content: a rebuilt bundle of the same length would run
  // stale code. The file's size and mtime (a build rewrites it) and our version (npm installs fix every mtime) are
  // in the cache's name, so a changed bundle never meets an old cache.
  const st = fs.statSync(file);
  let hash = 0;
  for (const c of `${file}\0${process.version}\0${process.arch}\0${st.size}\0${st.mtimeMs}\0${version()}`) hash = (Math.imul(hash, 31) + c.charCodeAt(0)) | 0;
  const dir = path.join(home, 'skills');
  // A cache holds the functions the run that wrote it compiled: the shared bundle keeps one per command, so that
  // `validate` does not start from a cache that `lint` wrote.
  const command = /^[a-z][a-z-]{0,19}$/.test(argv[0] ?? '') ? argv[0] : 'other';
  const prefix = `${path.basename(file, '.cjs')}-${path.basename(file) === 'main.cjs' ? `${command}-` : ''}`;
  const cacheFile = path.join(dir, `${prefix}${(hash >>> 0).toString(16)}.v8cache`);
  let cached;
  try {
    const st = fs.statSync(dir);
    if (typeof process.getuid !== 'function' || (st.uid === process.getuid() && (st.mode & 0o022) === 0)) cached = fs.readFileSync(cacheFile);
  } catch {}
  const source = fs.readFileSync(file, 'utf8');
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached });
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  // The bundle requires its lazily loaded command and vendored bundles (./commands/*.cjs, ../vendor/*.cjs) through
  // the same cache.
  const base = Module.createRequire(file);
  const ours = (id) => id.startsWith('./commands/') || id.startsWith('./vendor/') || id.startsWith('../vendor/');
  const req = Object.assign((id) => (ours(id) ? requireWithCodeCache(path.join(path.dirname(file), id)) : base(id)), base);
  script.runInThisContext().call(mod.exports, mod.exports, req, mod, file, path.dirname(file));
  if (cached === undefined || script.cachedDataRejected) {
    // Written at exit, so it holds every function this run compiled.
    process.once('exit', () => {
      try {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(tmp, cacheFile);
        // The caches of earlier builds of this bundle are of no more use.
        for (const name of fs.readdirSync(dir)) {
          if (name.startsWith(prefix) && /^[0-9a-f]+\.v8cache$/.test(name.slice(prefix.length)) && name !== path.basename(cacheFile)) fs.rmSync(path.join(dir, name), { force: true });
        }
      } catch {}
    });
  }
  loaded.set(file, mod.exports);
  return mod.exports;
}
