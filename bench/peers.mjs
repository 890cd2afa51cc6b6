// Peers measured side by side: npm packages installed once into a cache folder outside the repository
// (~/.cache/skills-bench/peers, or $SKILLS_BENCH_PEERS), at pinned versions, so that a ratio to a peer is measured
// in the same run as our own row. A peer that cannot be installed (no registry, no network) is reported as
// missing with the reason: its rows say so in the table instead of being skipped in silence.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { firstLines, log } from './lib.mjs';

/** The peers: npm package, pinned version, and the file of its command inside the package. */
export const PEERS = {
  'skill-check': { pkg: 'skill-check', version: '1.2.0', bin: 'bin/skill-check.js' },
  openskills: { pkg: 'openskills', version: '1.5.0', bin: 'dist/cli.js' },
};

const cache = new Map();

function peersDir() {
  return process.env.SKILLS_BENCH_PEERS || join(homedir(), '.cache', 'skills-bench', 'peers');
}

/**
 * The peer's command as `{ file, args, label, version }` (run with node), or `{ missing: reason }`.
 * Installs every peer on first use with `npm install --prefix`, once per cache folder.
 */
export function peer(name) {
  if (cache.has(name)) return cache.get(name);
  const spec = PEERS[name];
  if (!spec) throw new Error(`unknown peer ${name}; known: ${Object.keys(PEERS).join(', ')}`);
  const dir = peersDir();
  const pkgDir = join(dir, 'node_modules', spec.pkg);
  const installed = () => {
    try {
      return JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version === spec.version;
    } catch {
      return false;
    }
  };
  let result;
  if (!installed()) {
    mkdirSync(dir, { recursive: true });
    const all = Object.values(PEERS).map((p) => `${p.pkg}@${p.version}`);
    log(`installing the peers ${all.join(', ')} into ${dir} …`);
    const r = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', ...all], {
      encoding: 'utf8',
    });
    if (r.error || r.status !== 0)
      result = {
        missing: `npm install ${spec.pkg}@${spec.version} failed: ${r.error?.message ?? firstLines(r.stderr, 3)}`,
      };
  }
  if (!result)
    result =
      installed() && existsSync(join(pkgDir, spec.bin))
        ? {
            file: process.execPath,
            args: [join(pkgDir, spec.bin)],
            label: `${spec.pkg}@${spec.version}`,
            version: spec.version,
          }
        : { missing: `${spec.pkg}@${spec.version} is not in ${dir} after npm install` };
  cache.set(name, result);
  return result;
}

/**
 * The reference validator (skills-ref, Python, from agentskills/agentskills): not on the npm registry, and its
 * dependencies (strictyaml, click) come from PyPI or Debian (python3-strictyaml, python3-click). Point
 * SKILLS_REF_SRC at its `skills-ref/src` folder (a checkout; never committed here). Returns
 * `{ python, src, label }`, or `{ missing: reason }`.
 */
export function referencePeer(env = process.env) {
  if (cache.has('reference')) return cache.get('reference');
  let result;
  const src = env.SKILLS_REF_SRC;
  if (!src)
    result = {
      missing:
        'the reference validator: set SKILLS_REF_SRC to the skills-ref/src folder of a checkout of agentskills/agentskills (with python3-strictyaml and python3-click installed)',
    };
  else if (!existsSync(join(src, 'skills_ref', 'validator.py')))
    result = { missing: `the reference validator: no skills_ref/validator.py in SKILLS_REF_SRC=${src}` };
  else {
    const candidates = [env.SKILLS_REF_PYTHON, 'python3', '/usr/bin/python3'].filter(Boolean);
    const python = candidates.find(
      (p) =>
        spawnSync(p, ['-c', 'import strictyaml, click, skills_ref.validator'], {
          env: { ...process.env, PYTHONPATH: src },
        }).status === 0,
    );
    result = python
      ? { python, src, label: 'skills-ref (Python reference)' }
      : {
          missing: `the reference validator: no Python among ${candidates.join(', ')} imports strictyaml, click and skills_ref (apt install python3-strictyaml python3-click)`,
        };
  }
  cache.set('reference', result);
  return result;
}
