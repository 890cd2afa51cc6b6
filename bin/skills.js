#!/usr/bin/env node
'use strict';
// Shim: answer --version at once, load the bundled CLI through a compile cache, hand it the process.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const argv = process.argv.slice(2);
const WORKER = 'lint-worker';
const DIST = path.join(__dirname, '..', 'dist');
const loaded = new Map();
/** The code cache of this run (see cachePack), read on first use. */
let cache;
let versionRead;
/** How many other builds' caches of one pack are kept, and for how many days since each was written. */
const OTHER_BUILDS = 3;
const OTHER_BUILD_DAYS = 30;
const version = () =>
  (versionRead ??= JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version);

if (argv[0] === WORKER && !require('node:worker_threads').isMainThread) {
  // A lint worker thread (src/lint/lint-threads.ts starts it here): its code comes through the same cache, kept in
  // a file of its own, and it runs on its own.
  loadCli(path.join(DIST, `${WORKER}.cjs`));
} else if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // Through standardOutput as every command's output goes: a pipe's stream would load net, ~5% of this run.
  standardOutput(1).write(`${version()}\n`);
} else {
  const { run } = loadCli(path.join(DIST, 'main.cjs'));
  const ctx = { cwd: process.cwd(), env: process.env, stdout: standardOutput(1), version: version() };
  // process.stdin and process.stderr build a stream on first touch (a pipe loads net): only runs that use them pay,
  // and stderr, as stdout, is written to directly when it is a file or a pipe.
  Object.defineProperty(ctx, 'stdin', { get: () => process.stdin, enumerable: true });
  let stderr;
  Object.defineProperty(ctx, 'stderr', { get: () => (stderr ??= standardOutput(2)), enumerable: true });
  run(argv, ctx).then((code) => {
    process.exitCode = code;
  });
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

// process.stdout builds a stream on first touch: for a pipe it loads net and its streams, 4 to 5 ms of a run that
// prints a line. When fd 1 is a file, /dev/null or a pipe (a FIFO, or a socket: what Node's child_process and
// execa give a child), a command's writes go straight to it with fs.writeSync, as the stream would write them (Node
// writes files and pipes synchronously on POSIX), in the same order. The stream is built only when something other
// than write and isTTY/columns is asked for (serve's 'drain' and 'error', run-script's output), or when a write would
// block (a non-blocking pipe whose reader is slow: EAGAIN), and every later write goes through it, so the bytes stay
// in order. The same for fd 2, process.stderr: a command asks whether it is a terminal (colour, a spinner) and may
// write a warning.
// /dev/null (where `>/dev/null` and spawn's 'ignore' send output) is a character device, as a terminal is; it is told
// from a terminal by its device number, without loading tty (which loads net).
function isDevNull(st) {
  try {
    const n = fs.statSync('/dev/null');
    return n.isCharacterDevice() && n.rdev === st.rdev;
  } catch {
    return false;
  }
}

function standardOutput(fd) {
  let stream;
  const real = () => (stream ??= closedQuietly(fd === 1 ? process.stdout : process.stderr));
  let direct = false;
  try {
    const st = fs.fstatSync(fd);
    direct = st.isFile() || st.isFIFO() || st.isSocket() || (st.isCharacterDevice() && isDevNull(st));
  } catch {}
  if (!direct) return real();
  const write = (chunk, encoding, callback) => {
    if (stream) return stream.write(chunk, encoding, callback);
    if (typeof encoding === 'function') [encoding, callback] = [undefined, encoding];
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding || 'utf8') : chunk;
    let done = 0;
    try {
      while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done);
    } catch (err) {
      if (err && err.code === 'EPIPE') process.exit(141);
      if (!err || err.code !== 'EAGAIN') throw err;
      return real().write(bytes.subarray(done), callback);
    }
    if (typeof callback === 'function') process.nextTick(callback);
    return true;
  };
  return new Proxy(
    {},
    {
      get(_, key) {
        if (key === 'write') return write;
        // A file or a pipe is no terminal: process.stdout would say undefined for both.
        if (!stream && (key === 'isTTY' || key === 'columns')) return undefined;
        const value = real()[key];
        return typeof value === 'function' ? value.bind(stream) : value;
      },
      has: (_, key) => key === 'write' || key in real(),
    },
  );
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

// Node 20 has no compile cache: do what it does for our files. One cache file per command holds the V8 code of
// every file of ours that the command loads (main.cjs, its command, the shared chunks): one read at start, one write
// at exit when something was compiled afresh. The vendored tokenizer (5 MB of code cache) has a file of its own,
// read only by a run that loads it. V8 checks that cached code belongs to a source of this length and these flags,
// else it is rejected and rewritten; the size and mtime of each file (a build rewrites them) are checked too, and
// our version (npm installs fix every mtime) is in the cache's name, so a changed file never runs stale code. The
// folder is the user's own, mode 0700.
function cachePack(rel) {
  const name = rel.startsWith(`vendor${path.sep}`) ? path.basename(rel, '.cjs') : '';
  if (cache?.packs.has(name)) return cache.packs.get(name);
  if (!cache) {
    const userHome = process.env.HOME ?? require('node:os').homedir();
    // An empty or relative HOME is no home: the cache is not kept (never in the working folder).
    const home =
      process.env.XDG_CACHE_HOME ||
      (userHome && path.isAbsolute(userHome) ? path.join(userHome, '.cache') : '/dev/null/no-home/.cache');
    // A cache holds the functions the run that wrote it compiled: one per command, so that `validate` does not
    // start from a cache that `lint` wrote.
    const command = /^[a-z][a-z-]{0,19}$/.test(argv[0] ?? '') ? argv[0] : 'other';
    let hash = 0;
    for (const c of `${DIST}\0${process.version}\0${process.arch}\0${version()}`) {
      hash = (Math.imul(hash, 31) + c.charCodeAt(0)) | 0;
    }
    cache = { dir: path.join(home, 'skills'), command, hash: (hash >>> 0).toString(16), packs: new Map() };
    process.once('exit', writeCodeCache);
  }
  const prefix = `code-${cache.command}-${name ? `${name}-` : ''}`;
  const pack = {
    prefix,
    file: path.join(cache.dir, `${prefix}${cache.hash}.v8cache`),
    entries: new Map(),
    scripts: new Map(),
    stale: false,
  };
  cache.packs.set(name, pack);
  try {
    const st = fs.statSync(cache.dir);
    if (typeof process.getuid !== 'function' || (st.uid === process.getuid() && (st.mode & 0o022) === 0)) {
      const buf = fs.readFileSync(pack.file);
      const headerLength = buf.readUInt32LE(0);
      const header = JSON.parse(buf.toString('utf8', 4, 4 + headerLength));
      let offset = 4 + headerLength;
      for (const [rel, e] of Object.entries(header)) {
        pack.entries.set(rel, { ...e, data: buf.subarray(offset, offset + e.length) });
        offset += e.length;
      }
    }
  } catch {}
  return pack;
}

// Written at exit, so it holds every function this run compiled; entries of files this run did not load are kept.
function writeCodeCache() {
  for (const pack of cache.packs.values()) {
    if (!pack.stale) continue;
    try {
      for (const [rel, { script, size, mtime }] of pack.scripts) {
        pack.entries.set(rel, { size, mtime, data: script.createCachedData() });
      }
      const header = {};
      for (const [rel, e] of pack.entries) header[rel] = { size: e.size, mtime: e.mtime, length: e.data.length };
      const head = Buffer.from(JSON.stringify(header));
      const len = Buffer.alloc(4);
      len.writeUInt32LE(head.length, 0);
      fs.mkdirSync(cache.dir, { recursive: true, mode: 0o700 });
      const tmp = `${pack.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, Buffer.concat([len, head, ...[...pack.entries.values()].map((e) => e.data)]), {
        mode: 0o600,
      });
      fs.renameSync(tmp, pack.file);
      // The caches of other builds of this pack: another install used in turn with this one (a global one and a
      // project's, two checkouts) keeps its own, so the newest OTHER_BUILDS of them stay unless a month old (an
      // earlier version's); the rest go, as do those of versions before 0.2, one a file (<file>-<hash>.v8cache).
      const others = [];
      for (const name of fs.readdirSync(cache.dir)) {
        if (name === path.basename(pack.file)) continue;
        const file = path.join(cache.dir, name);
        if (!/^code-/.test(name)) {
          if (name.endsWith('.v8cache')) fs.rmSync(file, { force: true });
        } else if (name.startsWith(pack.prefix) && /^[0-9a-f]+\.v8cache$/.test(name.slice(pack.prefix.length))) {
          others.push({ file, mtime: fs.statSync(file).mtimeMs });
        }
      }
      others.sort((a, b) => b.mtime - a.mtime);
      others.forEach((o, i) => {
        if (i >= OTHER_BUILDS || o.mtime < Date.now() - OTHER_BUILD_DAYS * 86_400_000)
          fs.rmSync(o.file, { force: true });
      });
    } catch {}
  }
}

function requireWithCodeCache(file) {
  if (loaded.has(file)) return loaded.get(file);
  const vm = require('node:vm');
  const rel = path.relative(DIST, file);
  const c = cachePack(rel);
  const st = fs.statSync(file);
  const entry = c.entries.get(rel);
  const cached = entry && entry.size === st.size && entry.mtime === st.mtimeMs ? entry.data : undefined;
  const source = fs.readFileSync(file, 'utf8');
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached });
  if (cached === undefined || script.cachedDataRejected) c.stale = true;
  c.scripts.set(rel, { script, size: st.size, mtime: st.mtimeMs });
  // Our files bundle every package they use: besides each other they require only Node's own modules, which the
  // shim's require serves as well as any. So a file needs no Module of its own, nor a resolver.
  const mod = { exports: {}, id: file, filename: file };
  const dir = path.dirname(file);
  const req = (id) =>
    id.startsWith('./') || id.startsWith('../') ? requireWithCodeCache(path.join(dir, id)) : require(id);
  loaded.set(file, mod.exports);
  script.runInThisContext().call(mod.exports, mod.exports, req, mod, file, dir);
  loaded.set(file, mod.exports);
  return mod.exports;
}
