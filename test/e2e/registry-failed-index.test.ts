// A registry change whose index.json write fails, through the built CLI with a real cause (the file size limit,
// ulimit -f): the store is left as it was (no `<id>@<version>` folder the index does not list, no stored copy
// lost), and the next sync does the work. A failure once index.json is written (the releases files pruned after it)
// is a warning: the change is made.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempFolders, withSmallFileLimit } from '../helpers/cli.js';
import { skillMd, snapshot, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-failed-index-e2e-');
afterAll(cleanup);

const IDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];

/** Skills `IDS` at `version`, each with a description long enough that index.json passes 1 KiB (a release does not). */
const skills = (dir: string, version: string, body = '# Skill\n\nDo it.\n', how = 'carefully') => {
  writeTree(
    dir,
    Object.fromEntries(
      IDS.map((id) => [
        `${id}/SKILL.md`,
        skillMd(
          `name: ${id}\ndescription: Does ${id} things to the files it is given, ${how}. Use when asked about ${id}.\nmetadata:\n  version: ${version}\n`,
          body,
        ),
      ]),
    ),
  );
  return dir;
};

describe.skipIf(process.platform === 'win32')('registry sync whose index.json write fails', () => {
  it('leaves the store as it was: no new version folder, the replaced copies intact; the next sync does it', async () => {
    const base = fresh();
    const home = fresh('home');
    const reg = join(base, 'reg');
    const sync = (dir: string, ...more: string[]) =>
      runCli(['registry', 'sync', dir, '--registry', reg, ...more], { cwd: base, env: { HOME: home } });
    expect((await sync(skills(join(base, 'v1'), '1.0.0'))).exitCode).toBe(0);
    expect(readFileSync(join(reg, 'index.json')).length).toBeGreaterThan(1024);
    const store = () => readdirSync(join(reg, 'built-in')).sort();
    const before = {
      store: store(),
      copies: snapshot(join(reg, 'built-in')),
      index: readFileSync(join(reg, 'index.json'), 'utf8'),
    };

    // New versions: their folders were renamed into the store before the index write failed.
    const v2 = skills(join(base, 'v2'), '2.0.0');
    const r = await withSmallFileLimit(['registry', 'sync', v2, '--registry', reg], base, home);
    expect(r.exitCode, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('(EFBIG)');
    expect(store()).toEqual(before.store);
    expect(readFileSync(join(reg, 'index.json'), 'utf8')).toBe(before.index);

    // The same versions with other content (and description, so the index changes), --force: the registered copies
    // were replaced before it failed.
    const changed = skills(join(base, 'v1b'), '1.0.0', '# Skill\n\nDo it otherwise.\n', 'quickly');
    const f = await withSmallFileLimit(['registry', 'sync', changed, '--registry', reg, '--force'], base, home);
    expect(f.exitCode, f.stdout + f.stderr).toBe(2);
    expect(snapshot(join(reg, 'built-in'))).toEqual(before.copies);
    expect(readFileSync(join(reg, 'index.json'), 'utf8')).toBe(before.index);

    // Nothing wrong to say, and the next sync registers what the failed one did not.
    const list = await runCli(['registry', 'list', '--registry', reg], { cwd: base, env: { HOME: home } });
    expect(list.exitCode).toBe(0);
    expect(list.stderr).toBe('');
    const again = await sync(v2);
    expect(again.exitCode, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain(`${IDS.length} skills synced into ${reg}: ${IDS.length} updated`);
    expect(store()).toEqual(IDS.flatMap((id) => [`${id}@1.0.0`, `${id}@2.0.0`]).sort());
  });
});

describe.skipIf(process.platform === 'win32')('a registry change that fails once index.json is written', () => {
  it('registry remove: a releases file that cannot be pruned is a warning, exit 0; the version is gone', async () => {
    const base = fresh();
    const home = fresh('home');
    const reg = join(base, 'reg');
    // Four versions of one skill: its releases file passes 1 KiB, index.json (one entry) does not.
    for (const v of ['1.0.0', '2.0.0', '3.0.0', '4.0.0']) {
      const src = join(base, `v${v}`);
      writeTree(src, {
        'x/SKILL.md': skillMd(
          `name: x\ndescription: Does x things with a description long enough to take its room in each release. Use when x.\nmetadata:\n  version: ${v}\n`,
        ),
      });
      expect(
        (await runCli(['registry', 'sync', src, '--registry', reg], { cwd: base, env: { HOME: home } })).exitCode,
      ).toBe(0);
    }
    expect(readFileSync(join(reg, 'index.json')).length).toBeLessThan(1024);
    expect(readFileSync(join(reg, 'releases/x.json')).length).toBeGreaterThan(1500);

    const r = await withSmallFileLimit(['registry', 'remove', 'x@1.0.0', '--registry', reg], base, home);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`removed x@1.0.0 from ${reg}; still registered: 4.0.0, 3.0.0, 2.0.0`);
    expect(r.stderr).toMatch(
      /^warning: the change is made, but \S+releases\/x\.json still lists versions index\.json does not \(.*\(EFBIG\).*\): they are ignored, and pruned at the next change of x$/m,
    );
    expect(readdirSync(join(reg, 'built-in')).sort()).toEqual(['x@2.0.0', 'x@3.0.0', 'x@4.0.0']);
    const gone = await runCli(['resolve', 'x@1.0.0', '--registry', reg], { cwd: base, env: { HOME: home } });
    expect(gone.exitCode).not.toBe(0);
    // The next change of x prunes it.
    const again = await runCli(['registry', 'remove', 'x@2.0.0', '--registry', reg], {
      cwd: base,
      env: { HOME: home },
    });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(Object.keys(JSON.parse(readFileSync(join(reg, 'releases/x.json'), 'utf8')).releases).sort()).toEqual([
      '3.0.0',
      '4.0.0',
    ]);
  });
});
