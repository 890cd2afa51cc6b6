// lint --concurrency (built CLI, real worker threads): the same output, byte for byte, as one thread, for every
// format and for --fix, on a tree of ~200 skills with findings of every kind; "auto" keeps a few skills on the main
// thread (worker_threads is not even loaded); bad values are refused by name.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, EXAMPLES, FIXTURES, ROOT, runCli, tempDir } from '../helpers/cli.js';
import { skillMd, snapshot, writeTree, type TreeSpec } from '../helpers/tree.js';

const SKILLS = 200;

/** One skill of kind k % 12: each kind gives findings of other rules, fixable ones among them. */
function skillOf(k: number): TreeSpec {
  const n = `s${String(k).padStart(3, '0')}`;
  const desc = `Checks ${n} tables against a schema. Use when the user asks to check a table.`;
  const md = (front: string, body: string) => ({ [`${n}/SKILL.md`]: skillMd(front, body) });
  switch (k % 12) {
    case 0:
      return md(`name: ${n}\ndescription: ${desc}`, `# ${n}\n\nRun \`scripts/run.sh\`.\n`);
    case 1:
      // A missing reference, a README, a placeholder, an unreferenced file.
      return {
        ...md(`name: ${n}\ndescription: ${desc}`, `# ${n}\n\nRead [the guide](references/missing.md). TODO: fill in\n`),
        [`${n}/README.md`]: '# readme\n',
        [`${n}/notes.txt`]: 'stray\n',
      };
    case 2:
      // Fixable YAML slip (a colon in a plain value), and a long body.
      return md(
        `name: ${n}\ndescription: Scrapes pages. Use when: the user wants prices`,
        Array.from({ length: 600 }, (_, i) => `line ${i}`).join('\n'),
      );
    case 3:
      // A duplicate name (tree rule), with a disable comment for another rule.
      return md(
        `name: dup\ndescription: ${desc}`,
        '<!-- skills-lint-disable name-matches-folder -->\n# dup\n\nSteps.\n',
      );
    case 4: {
      // A manifest with a script lacking a shebang and set -e, a secret, env drift (fixable .env.example).
      const manifest = {
        id: n,
        name: n.toUpperCase(),
        version: '1.0.0',
        description: desc,
        owner: 'built-in',
        context: ['context/instructions.md'],
        envVars: ['API_KEY', 'API_SECRET'],
        scripts: ['scripts/post.sh'],
        usedBy: ['x'],
      };
      return {
        [`${n}/manifest.json`]: JSON.stringify(manifest, null, 2),
        [`${n}/.env.example`]: 'API_KEY=\n',
        [`${n}/context/instructions.md`]: `# ${n}\n\nRun \`scripts\\post.sh\`.\n`,
        [`${n}/scripts/post.sh`]: { content: 'echo "$API_KEY $OTHER_TOKEN"\n', mode: 0o644 },
        [`${n}/config.env`]: 'API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ\n',
      };
    }
    case 5:
      // Invalid: bad name, a vague, short description.
      return md(`name: Bad_${n}\ndescription: Helps`, '# x\n');
    case 6:
      return { [`${n}/SKILL.md`]: '# no frontmatter at all\n' };
    case 7:
      // A script run by path without its execute bit (fixable), and an empty folder.
      return {
        ...md(`name: ${n}\ndescription: ${desc}`, `# ${n}\n\nRun \`scripts/go.sh\`.\n`),
        [`${n}/scripts/go.sh`]: { content: '#!/bin/sh\nset -e\necho go\n', mode: 0o644 },
        [`${n}/assets/.keep`]: '',
      };
    case 8:
      // A deep reference chain and a backslash reference (fixable).
      return {
        ...md(`name: ${n}\ndescription: ${desc}`, `# ${n}\n\nSee references\\a.md and [b](references/b.md).\n`),
        [`${n}/references/a.md`]: '# a\n',
        [`${n}/references/b.md`]: '# b\n\nSee [c](c.md).\n',
        [`${n}/references/c.md`]: '# c\n\nSee [d](d.md).\n',
        [`${n}/references/d.md`]: Array.from({ length: 150 }, (_, i) => `## part ${i}\n\ntext`).join('\n'),
      };
    case 9:
      // Bidirectional and control characters, unknown keys, a number where text is expected.
      return md(`name: ${n}\ndescription: ${desc}\ncolour: blue\nversion: 1.0`, `# ${n}\n\nSafe \u202Etext\u202C.\n`);
    case 10:
      // Ignored by the configuration: no report at all.
      return { [`vendor/${n}/SKILL.md`]: '# ignored, and broken\n' };
    default:
      // Long instructions in tokens (the tokenizer, through the user's token cache).
      return md(
        `name: ${n}\ndescription: ${desc}`,
        `# ${n}\n\n${Array.from({ length: 2500 }, (_, i) => `word${i} table schema check`).join(' ')}\n`,
      );
  }
}

let root: string;
let cleanup: () => void;

beforeAll(() => {
  ({ dir: root, cleanup } = tempDir('skills-lint-par-'));
  const tree: TreeSpec = {
    'skills.config.json': JSON.stringify({
      rules: { 'instructions-max-lines': ['warning', { maxLines: 400 }], 'description-too-short': 'error' },
      ignores: ['vendor/**'],
    }),
  };
  for (let k = 0; k < SKILLS; k++) Object.assign(tree, skillOf(k));
  writeTree(root, tree);
  // Real shapes too: the examples and the invalid fixtures.
  cpSync(EXAMPLES, join(root, 'examples'), { recursive: true });
  cpSync(join(FIXTURES, 'invalid'), join(root, 'invalid'), { recursive: true });
});
afterAll(() => cleanup());

const lint = (args: string[], cwd = root) => runCli(['lint', ...args], { cwd, timeout: 120_000 });

describe('skills lint --concurrency (built CLI)', () => {
  it('prints what one thread prints, byte for byte, in every format, on 200 skills with every kind of finding', async () => {
    const one = await lint(['--format', 'json', '--concurrency', 'off', '.']);
    expect(one.exitCode).toBe(1);
    const doc = JSON.parse(one.stdout) as { skills: { id: string; diagnostics: { ruleId: string }[] }[] };
    // The tree is what it should be: many skills, many rules, the tree rule and the ignores at work.
    expect(doc.skills.length).toBeGreaterThan(SKILLS * 0.85);
    const ids = new Set(doc.skills.flatMap((s) => s.diagnostics.map((d) => d.ruleId)));
    expect(ids.size).toBeGreaterThanOrEqual(25);
    for (const id of ['SK127', 'SK101', 'SK003', 'SK100']) expect(ids).toContain(id);
    expect(doc.skills.some((s) => s.id.startsWith('vendor'))).toBe(false);
    for (const format of ['json', 'sarif', 'stylish']) {
      const serial = format === 'json' ? one : await lint(['--format', format, '--concurrency', 'off', '.']);
      for (const c of ['2', '4', 'auto']) {
        const r = await lint(['--format', format, '--concurrency', c, '.']);
        expect(r.exitCode, `${format} --concurrency ${c}`).toBe(serial.exitCode);
        expect(r.stdout, `${format} --concurrency ${c}`).toBe(serial.stdout);
        expect(r.stderr).toBe(serial.stderr);
      }
    }
    const quiet = await lint(['--quiet', '--verbose', '--concurrency', '3', '.']);
    expect(quiet.exitCode).toBe(2);
  }, 300_000);

  it('fixes the same files the same way on threads as on one', async () => {
    const a = tempDir('skills-lint-par-fix-');
    const b = tempDir('skills-lint-par-fix-');
    try {
      cpSync(root, a.dir, { recursive: true });
      cpSync(root, b.dir, { recursive: true });
      const one = await lint(['--fix', '--concurrency', 'off', '.'], a.dir);
      const par = await lint(['--fix', '--concurrency', '3', '.'], b.dir);
      expect(one.stdout).toMatch(/fixed {2}/);
      // Messages name other skills by absolute path: the two copies differ only in their folder.
      expect(par.stdout.replaceAll(b.dir, a.dir)).toBe(one.stdout);
      expect(par.exitCode).toBe(one.exitCode);
      expect(snapshot(b.dir)).toEqual(snapshot(a.dir));
    } finally {
      a.cleanup();
      b.cleanup();
    }
  }, 300_000);

  it('keeps a few skills on the main thread with auto: worker_threads is never loaded', async () => {
    const t = tempDir('skills-lint-par-few-');
    try {
      const probe = join(t.dir, 'probe.cjs');
      const out = join(t.dir, 'loaded.txt');
      // Written at exit: whether this process loaded worker_threads (what starting a worker takes).
      writeFileSync(
        probe,
        `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, String(process.moduleLoadList.includes('NativeModule worker_threads'))));`,
      );
      const { execa } = await import('execa');
      for (const args of [['examples/basic-tools'], ['examples']]) {
        const r = await execa(process.execPath, ['-r', probe, BIN, 'lint', ...args], {
          cwd: root,
          reject: false,
          env: { NO_COLOR: '1', HOME: t.dir },
        });
        expect(r.exitCode, r.stderr).toBeLessThanOrEqual(1);
        expect(readFileSync(out, 'utf8'), args.join(' ')).toBe('false');
      }
      // And a forced run does load it, so the probe can tell.
      await execa(process.execPath, ['-r', probe, BIN, 'lint', '--concurrency', '2', 'examples'], {
        cwd: root,
        reject: false,
        env: { NO_COLOR: '1', HOME: t.dir },
      });
      expect(readFileSync(out, 'utf8')).toBe('true');
    } finally {
      t.cleanup();
    }
  }, 60_000);

  it('runs its workers from the packed package (npm pack, unpacked elsewhere): dist/lint-worker.cjs ships', async () => {
    const t = tempDir('skills-lint-par-pack-');
    try {
      const { execa } = await import('execa');
      const packed = await execa('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', t.dir], {
        cwd: ROOT,
        env: { npm_config_update_notifier: 'false' },
      });
      const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
      expect(info!.files.map((f) => f.path)).toContain('dist/lint-worker.cjs');
      await execa('tar', ['xzf', join(t.dir, info!.filename), '-C', t.dir]);
      const bin = join(t.dir, 'package/bin/skills.js');
      const serial = await execa(process.execPath, [bin, 'lint', '--format', 'json', '--concurrency', 'off', '.'], {
        cwd: root,
        reject: false,
        env: { NO_COLOR: '1', HOME: t.dir },
      });
      const par = await execa(process.execPath, [bin, 'lint', '--format', 'json', '--concurrency', '2', '.'], {
        cwd: root,
        reject: false,
        env: { NO_COLOR: '1', HOME: t.dir },
      });
      expect(par.stderr).toBe('');
      expect(par.exitCode).toBe(1);
      expect(par.stdout).toBe(serial.stdout);
    } finally {
      t.cleanup();
    }
  }, 120_000);

  it('refuses a --concurrency that is no number of threads, auto or off, and documents it in --help', async () => {
    for (const bad of ['0', '-1', 'many', '1.5', '65', '99999']) {
      const r = await lint(['--concurrency', bad, 'examples']);
      expect(r.exitCode, bad).toBe(2);
      expect(r.stderr).toContain(`--concurrency takes a number of threads from 1 to 64, auto or off, not "${bad}"`);
    }
    const help = await runCli(['lint', '--help'], { env: { COLUMNS: '200' } });
    expect(help.stdout).toMatch(/--concurrency <n>\s+threads to lint on/);
  }, 60_000);
});
