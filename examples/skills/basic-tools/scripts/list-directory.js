#!/usr/bin/env node
// List the entries of a directory inside the base directory (args.base or the cwd).

async function readArgs() {
  if (process.argv[2] !== undefined) return process.argv[2];
  let data = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) data += chunk;
  return data;
}

async function main() {
  const { readdir } = await import('node:fs/promises');
  const path = await import('node:path');
  const raw = await readArgs();
  const args = JSON.parse(raw.trim() === '' ? '{}' : raw);
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new Error('arguments must be a JSON object');
  }
  const requested = args.path === undefined ? '.' : args.path;
  if (typeof requested !== 'string' || requested === '') {
    throw new Error("'path' must be a non-empty string");
  }
  const base = path.resolve(typeof args.base === 'string' ? args.base : process.cwd());
  const target = path.resolve(base, requested);
  const rel = path.relative(base, target);
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    throw new Error(`path escapes the base directory: ${requested}`);
  }
  const entries = await readdir(target, { withFileTypes: true });
  return entries
    .map((entry) => ({
      name: entry.name,
      type: entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : 'other',
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

main().then(
  (result) => {
    console.log(JSON.stringify({ success: true, result }));
    process.exit(0);
  },
  (error) => {
    console.log(JSON.stringify({ success: false, error: error.message }));
    process.exit(1);
  },
);
