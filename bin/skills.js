#!/usr/bin/env node
// Shim: enable the compile cache where Node has one, then hand over to the bundled CLI.
import module from 'node:module';
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const pkg = new URL('../package.json', import.meta.url);
const version = () => JSON.parse(readFileSync(pkg, 'utf8')).version;

// --version is answered without loading the CLI at all.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${version()}\n`);
} else {
  try {
    module.enableCompileCache?.();
  } catch {
    // best effort: a cache folder that cannot be written only costs speed
  }
  const { run } = await import('../dist/main.js');
  process.exitCode = await run(argv, {
    cwd: process.cwd(),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    version: version(),
  });
}
