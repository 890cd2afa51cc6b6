#!/usr/bin/env node
// Read a UTF-8 text file inside the base directory (args.base or the cwd).

async function readArgs() {
  if (process.argv[2] !== undefined) return process.argv[2];
  let data = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) data += chunk;
  return data;
}

async function main() {
  const { readFile } = await import('node:fs/promises');
  const path = await import('node:path');
  const raw = await readArgs();
  const args = JSON.parse(raw.trim() === '' ? '{}' : raw);
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new Error('arguments must be a JSON object');
  }
  if (typeof args.path !== 'string' || args.path === '') {
    throw new Error("'path' must be a non-empty string");
  }
  const base = path.resolve(typeof args.base === 'string' ? args.base : process.cwd());
  const target = path.resolve(base, args.path);
  const rel = path.relative(base, target);
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    throw new Error(`path escapes the base directory: ${args.path}`);
  }
  return readFile(target, 'utf8');
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
