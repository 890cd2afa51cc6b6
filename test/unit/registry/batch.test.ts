import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { loadSkill } from '../../../src/skill/load.js';
import { walkSkill, walkedWhole } from '../../../src/fs/walk.js';
import { digest, digestKeeping, skillFiles } from '../../../src/registry/integrity.js';
import { readReleases } from '../../../src/registry/index-io.js';
import { registerSkill, registerSkills } from '../../../src/registry/register.js';
import { tempFolders } from '../../helpers/cli.js';
import { describeTree, skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-batch-');
afterAll(cleanup);

const NOW = new Date('2024-01-01T00:00:00Z');

/** `n` skill folders below a new folder, with scripts, nested references and a link inside. */
function skills(n: number): string[] {
  const parent = fresh();
  return Array.from({ length: n }, (_, i) => {
    const name = `skill-${String(i).padStart(3, '0')}`;
    const dir = join(parent, name);
    writeTree(dir, {
      'SKILL.md': skillMd(
        `name: ${name}\ndescription: Does ${name} things. Use when testing.\nmetadata:\n  version: "1.${i}.0"\n`,
      ),
      'scripts/run.sh': { content: `#!/bin/sh\necho ${i}\n`, mode: 0o755 },
      'references/deep/a.md': `# ${i}\n`,
      'assets/to-a.md': { symlink: '../references/deep/a.md' },
      '.env': 'SECRET=1\n',
    });
    return dir;
  });
}

describe('a batch of many skills (copies written by a thread)', () => {
  it('leaves the same registry as the skills registered one by one on the main thread', async () => {
    const dirs = skills(40);
    const together = join(fresh(), 'reg');
    const results = await registerSkills(
      together,
      dirs.map((d) => ({ skill: loadSkill(d), opts: { now: NOW } })),
    );
    expect(results.every((r) => !(r instanceof Error) && r.status === 'added')).toBe(true);
    const oneByOne = join(fresh(), 'reg');
    for (const d of dirs) await registerSkill(oneByOne, loadSkill(d), { now: NOW });
    const want = describeTree(oneByOne, (rel) => rel.startsWith('index.json.bak'));
    expect(want['built-in/skill-007@1.7.0/scripts/run.sh']).toBe('file 555 #!/bin/sh\necho 7\n');
    // A link inside the skill is stored as the file it leads to.
    expect(want['built-in/skill-007@1.7.0/assets/to-a.md']).toBe('file 444 # 7\n');
    expect(want['built-in/skill-007@1.7.0/.env']).toBeUndefined();
    const got = describeTree(together, (rel) => rel.startsWith('index.json.bak'));
    expect(Object.keys(got).filter((k) => k.includes('.staging-'))).toEqual([]);
    // The stored copies, releases files and index alike (resolve-index keys files by inode and time: not compared).
    for (const [k, v] of Object.entries(want)) if (k !== 'resolve-index') expect([k, got[k]]).toEqual([k, v]);
    expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  });

  it('registers nothing and leaves no staging folder when a skill fails midway (the thread stopped first)', async () => {
    const dirs = skills(40);
    const reg = join(fresh(), 'reg');
    const loaded = dirs.map((d) => loadSkill(d));
    // A file gone since the load walked the folder: its copy cannot be made, which stops the whole batch.
    rmSync(join(dirs[35]!, 'references/deep/a.md'));
    const err = (await registerSkills(
      reg,
      loaded.map((skill) => ({ skill, opts: { walked: true } })),
    ).then(
      () => undefined,
      (e: unknown) => e,
    )) as Error & { code: string };
    expect(err.code).toBe('E_IO');
    expect(err.message).toMatch(/cannot read .*skill-035\/references\/deep\/a\.md: ENOENT/);
    expect(existsSync(join(reg, 'index.json'))).toBe(false);
    expect(readdirSync(join(reg, 'built-in'))).toEqual([]);
  });
});

describe('a batch of many new skills and some known ones', () => {
  it('lists the releases folder once the new ones are many, and still reads the known ones and a crash leftover', async () => {
    const reg = join(fresh(), 'reg');
    const parent = fresh();
    const make = (name: string, version: string) => {
      const dir = join(parent, `${name}-${version}`, name);
      writeTree(dir, {
        'SKILL.md': skillMd(
          `name: ${name}\ndescription: Does ${name} things. Use when testing.\nmetadata:\n  version: "${version}"\n`,
        ),
      });
      return loadSkill(dir);
    };
    const known = ['known-a', 'known-b'];
    for (const id of known) await registerSkill(reg, make(id, '1.0.0'));
    // A releases file a crash left before index.json named its skill: read, and pruned to what the index lists.
    writeFileSync(
      join(reg, 'releases', 'leftover.json'),
      readFileSync(join(reg, 'releases', 'known-a.json'), 'utf8').replaceAll('known-a', 'leftover'),
    );
    const fresh20 = Array.from({ length: 20 }, (_, i) => make(`new-${String(i).padStart(2, '0')}`, '1.0.0'));
    const results = await registerSkills(reg, [
      ...fresh20.map((skill) => ({ skill })),
      ...known.map((id) => ({ skill: make(id, '2.0.0') })),
      { skill: make('leftover', '3.0.0') },
    ]);
    expect(results.map((r) => (r instanceof Error ? r.message : r.status))).toEqual([
      ...fresh20.map(() => 'added'),
      'updated',
      'updated',
      'added',
    ]);
    for (const id of known) expect(Object.keys(readReleases(reg, id))).toEqual(['2.0.0', '1.0.0']);
    expect(Object.keys(JSON.parse(readFileSync(join(reg, 'releases', 'leftover.json'), 'utf8')).releases)).toEqual([
      '3.0.0',
    ]);
    expect(Object.keys(readReleases(reg, 'new-19'))).toEqual(['1.0.0']);
  });
});

describe('skillFiles from the walk of a load', () => {
  it('takes the same files as a listing of the folders: links in and out, dangling, .env, .git, leftovers', () => {
    const outside = fresh();
    const dir = join(fresh(), 'walked');
    writeTree(dir, {
      'SKILL.md': skillMd('name: walked\ndescription: Walked. Use when testing.\n'),
      'scripts/x.sh': { content: '#!/bin/sh\n', mode: 0o755 },
      'references/a/b/c.md': 'c\n',
      '.env': 'A=1\n',
      '.env.example': 'A=\n',
      '.DS_Store': 'x',
      '.git/config': 'x',
      'node_modules/m/index.js': '1\n',
      'references/.a.md.tmp-w.1.0000abcd': 'left over',
      'in.md': { symlink: 'references/a/b/c.md' },
      indir: { symlink: 'references' },
      'out.md': { symlink: join(outside, 'x.md') },
      self: { symlink: '.' },
      'dangling.md': { symlink: 'nowhere.md' },
    });
    writeTree(outside, { 'x.md': 'x\n' });
    const skill = loadSkill(dir);
    expect(walkedWhole(skill.entries)).toBe(true);
    const listed = skillFiles(dir);
    expect(listed.map((f) => `${f.rel} ${f.kind} ${f.link ?? f.mode.toString(8)}`)).toEqual([
      '.env.example file 644',
      'SKILL.md file 644',
      'in.md file 644',
      'indir/a/b/c.md file 644',
      'references/a/b/c.md file 644',
      'scripts/x.sh file 755',
    ]);
    // Files from the walk are not stat'ed: their modes come with their bytes, so the same once hashed.
    const walked = skillFiles(dir, skill.entries);
    expect(walked.filter((f) => !f.via).every((f) => f.unstatted && f.mode === 0)).toBe(true);
    expect(digest(walked)).toBe(digest(listed));
    expect(walked).toEqual(listed);
  });

  it('refuses a file of the walk replaced since by a link, a folder or a FIFO, and bounds the bytes before reading', () => {
    const make = (name: string) => {
      const dir = join(fresh(), name);
      writeTree(dir, {
        'SKILL.md': skillMd(`name: ${name}\ndescription: Swapped. Use when testing.\n`),
        'references/a.md': 'a\n',
      });
      return { dir, skill: loadSkill(dir) };
    };
    const secret = join(fresh(), 'secret.txt');
    writeFileSync(secret, 'not yours\n');
    const cases: [string, (file: string) => void, RegExp][] = [
      // Said as what it is, not as open()'s raw ELOOP ("too many symbolic links").
      [
        'link',
        (f) => symlinkSync(secret, f),
        /a\.md is a symbolic link now, where a regular file was found; it was refused \(not followed\), nothing was written$/,
      ],
      ['folder', (f) => mkdirSync(f), /a\.md is no longer a regular file; nothing was written/],
      ['fifo', (f) => execFileSync('mkfifo', [f]), /a\.md is no longer a regular file; nothing was written/],
    ];
    for (const [name, swap, message] of cases) {
      const { dir, skill } = make(name);
      const file = join(dir, 'references', 'a.md');
      rmSync(file);
      swap(file);
      const files = skillFiles(dir, skill.entries);
      expect(() => digest(files), name).toThrow(message);
    }
    // 300 MiB (sparse: nothing is written) past the store's bound of a skill: refused from its size, unread.
    const { dir, skill } = make('huge');
    truncateSync(join(dir, 'references', 'a.md'), 300 * 1024 * 1024);
    const files = skillFiles(dir, skill.entries);
    expect(() => digestKeeping(files, { bytes: 1 << 30 })).toThrow(
      /add up to more than 256 MiB \(at references\/a\.md\)/,
    );
    expect(files.find((f) => f.rel === 'references/a.md')!.content).toBeUndefined();
  });

  it('lists the folders again when the walk did not see them all (too deep)', () => {
    const dir = join(fresh(), 'deep');
    const deep = 'a/b/c/d/e/f/g/h/i/j.md';
    writeTree(dir, { 'SKILL.md': skillMd('name: deep\ndescription: Deep. Use when testing.\n'), [deep]: 'j\n' });
    const skill = loadSkill(dir);
    expect(walkedWhole(skill.entries)).toBe(false);
    expect(skillFiles(dir, skill.entries).map((f) => f.rel)).toEqual(['SKILL.md', deep]);
  });

  it('counts a walk that could not list a folder as not whole', () => {
    const dir = join(fresh(), 'unread');
    writeTree(dir, { 'SKILL.md': 'x\n', 'sub/a.md': 'a\n' });
    expect(walkedWhole(walkSkill(dir).entries)).toBe(true);
    // A listing that names a folder gone since (removed between the listing and the walk): it cannot be read.
    const listing = readdirSync(dir, { withFileTypes: true });
    rmSync(join(dir, 'sub'), { recursive: true });
    const { entries } = walkSkill(dir, listing);
    expect(entries.map((e) => e.path).sort()).toEqual(['SKILL.md', 'sub']);
    expect(walkedWhole(entries)).toBe(false);
  });
});
