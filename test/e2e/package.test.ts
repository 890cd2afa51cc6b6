// What `npm pack` ships: the built CLI as one copy of each module, no source maps, at most 2 MB packed.
import { execa } from 'execa';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );

describe('the package (npm pack)', () => {
  it('is at most 2 MB packed and ships no source maps', async () => {
    const r = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      env: { npm_config_update_notifier: 'false' },
    });
    const [pack] = JSON.parse(r.stdout) as { size: number; unpackedSize: number; files: { path: string }[] }[];
    expect(pack!.size).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(pack!.files.filter((f) => f.path.endsWith('.map'))).toEqual([]);
    expect(pack!.files.map((f) => f.path)).toContain('dist/main.cjs');
    expect(pack!.files.map((f) => f.path)).toContain('bin/skills.js');
  });

  it('holds one SkillsError class, shared by every command, so instanceof works across them', () => {
    const dist = join(ROOT, 'dist');
    const defining = files(dist).filter((f) => /name\s*=\s*"SkillsError"/.test(readFileSync(f, 'utf8')));
    expect(defining).toHaveLength(1);
    // Every command is built once: in a file of its own, or (the hot path: validate) folded into main.cjs.
    const main = readFileSync(join(dist, 'main.cjs'), 'utf8');
    const own = new Set(readdirSync(join(dist, 'commands')));
    for (const file of readdirSync(join(ROOT, 'src/commands'))) {
      const name = file.replace(/\.ts$/, '.cjs');
      const folded = main.includes(`"commands/${name}":function`);
      expect(own.has(name) !== folded, `${name}: its own file ${own.has(name)}, in main.cjs ${folded}`).toBe(true);
    }
    expect(main).toContain('"commands/validate.cjs":function');
  });
});
