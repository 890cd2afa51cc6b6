import { afterAll, describe, expect, it } from 'vitest';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Header } from 'tar';
import { loadSkill } from '../../../src/skill/load.js';
import { PACK_MTIME, SIZE_WARNING_BYTES, gzipTar, packSkill, planPack, tarEntries } from '../../../src/pack/pack.js';
import { extractArchive } from '../../../src/fs/archive.js';
import { npmPackage } from '../../../src/pack/npm-package.js';
import { isSkillsError, type SkillsError } from '../../../src/errors.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-pack-unit-');
afterAll(cleanup);

function makeSkill(
  parent: string,
  name = 'packed',
  extra: Record<string, string | { content: string; mode?: number } | { symlink: string }> = {},
): string {
  const dir = join(parent, name);
  writeTree(dir, {
    'SKILL.md': skillMd(
      `name: ${name}\ndescription: Packs things. Use when testing pack.\nmetadata:\n  version: "1.2.3"`,
    ),
    'references/b.md': '# B\n',
    'references/a.md': '# A\n',
    'scripts/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
    ...extra,
  });
  return dir;
}

/** Every entry of a .tgz: path, type, mode, mtime, uid, gid, uname, gname (decoded with node-tar's Header). */
function entries(tgz: Buffer) {
  const tar = gunzipSync(tgz);
  const out: {
    path: string;
    type: string;
    mode: number;
    mtime: number;
    uid: number;
    gid: number;
    uname: string;
    gname: string;
  }[] = [];
  for (let off = 0; off + 512 <= tar.length;) {
    const block = tar.subarray(off, off + 512);
    if (block.every((b) => b === 0)) break;
    const h = new Header(block);
    out.push({
      path: h.path!,
      type: h.type!,
      mode: h.mode!,
      mtime: h.mtime!.getTime(),
      uid: h.uid ?? 0,
      gid: h.gid ?? 0,
      uname: h.uname ?? '',
      gname: h.gname ?? '',
    });
    off += 512 + Math.ceil((h.size ?? 0) / 512) * 512;
  }
  return out;
}

describe('pack: reproducible archives', () => {
  it('packs two copies made at different times, with other mtimes and another umask, into identical bytes', async () => {
    const first = makeSkill(fresh('a'));
    writeFileSync(join(first, 'references/new-mtime.md'), 'x\n');
    const old = process.umask(0o077);
    let second: string;
    try {
      second = join(fresh('b'), 'packed');
      cpSync(first, second, { recursive: true });
      // The copy gets other mtimes and, through the umask, other group/other bits.
      rmSync(join(second, 'references/new-mtime.md'));
      writeFileSync(join(second, 'references/new-mtime.md'), 'x\n');
    } finally {
      process.umask(old);
    }
    utimesSync(join(second, 'SKILL.md'), new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
    utimesSync(join(first, 'references/a.md'), new Date(), new Date());
    expect(statSync(join(second, 'references/new-mtime.md')).mode & 0o077).toBe(0);
    expect(statSync(join(first, 'references/new-mtime.md')).mode & 0o077).not.toBe(0);

    const a = await packSkill(loadSkill(first), { outDir: fresh('out-a') });
    const b = await packSkill(loadSkill(second), { outDir: fresh('out-b') });
    const bytesA = readFileSync(a.file);
    expect(bytesA.equals(readFileSync(b.file))).toBe(true);
    expect(a.integrity).toBe(b.integrity);
    expect(a.integrity).toBe(`sha512-${createHash('sha512').update(bytesA).digest('base64')}`);
    expect(a.file.endsWith('packed-1.2.3.tgz')).toBe(true);
    expect(a.size).toBe(bytesA.length);
  });

  it('refuses a skill that install would refuse for its size or its file count, writing nothing', async () => {
    const dir = makeSkill(fresh());
    const out = fresh('out');
    for (const limits of [
      { maxBytes: 10, maxEntries: 1000 },
      { maxBytes: 1 << 30, maxEntries: 2 },
    ]) {
      const err = await packSkill(loadSkill(dir), { outDir: out, limits }).then(
        () => undefined,
        (e: unknown) => e as SkillsError,
      );
      expect(err?.code).toBe('E_INVALID');
      expect(err?.message).toMatch(/skills install reads at most \d+ entries and [\d.]+ MiB; nothing was packed$/);
    }
    expect(readdirSync(out)).toEqual([]);
  });

  it('writes sorted entries under <id>/, one fixed mtime, modes 644/755, no owner, and a portable gzip header', async () => {
    const dir = makeSkill(fresh());
    const r = await packSkill(loadSkill(dir), { outDir: fresh('out') });
    const bytes = readFileSync(r.file);
    expect(bytes.readUInt32LE(4)).toBe(0); // gzip MTIME
    expect(bytes[9]).toBe(0xff); // gzip OS: unknown
    const list = entries(bytes);
    expect(list.map((e) => e.path)).toEqual([
      'packed/SKILL.md',
      'packed/references/',
      'packed/references/a.md',
      'packed/references/b.md',
      'packed/scripts/',
      'packed/scripts/run.sh',
    ]);
    for (const e of list) {
      expect(e.mtime).toBe(PACK_MTIME.getTime());
      expect({ uid: e.uid, gid: e.gid, uname: e.uname, gname: e.gname }).toEqual({
        uid: 0,
        gid: 0,
        uname: '',
        gname: '',
      });
      expect(e.mode).toBe(e.type === 'Directory' || e.path.endsWith('.sh') ? 0o755 : 0o644);
    }
  });

  it('leaves out .git, node_modules, .DS_Store, AppleDouble ._ files, secrets and what .skillignore names; keeps .env.example', async () => {
    const dir = makeSkill(fresh(), 'packed', {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'node_modules/x/index.js': '1\n',
      '.DS_Store': 'x',
      '._SKILL.md': '\u0000\u0005\u0016\u0007',
      'references/._notes.md': '\u0000\u0005\u0016\u0007',
      '.env': 'TOKEN=secret\n',
      '.env.local': 'TOKEN=secret\n',
      '.env.example': 'TOKEN=\n',
      '.skillignore': '# drafts\ndrafts/\n*.log\n!keep.log\n',
      'drafts/todo.md': 'later\n',
      'debug.log': 'noise\n',
      'keep.log': 'kept\n',
    });
    const plan = await planPack(dir);
    expect(plan.files.map((f) => f.path)).toEqual([
      '.env.example',
      'SKILL.md',
      'keep.log',
      'references/a.md',
      'references/b.md',
      'scripts/run.sh',
    ]);
    expect(plan.secrets).toEqual(['.env', '.env.local']);
    expect(plan.ignored).toEqual(['debug.log', 'drafts']);
    const r = await packSkill(loadSkill(dir), { outDir: fresh('out') });
    expect(r.warnings).toEqual([
      '.env left out: secrets are never packed',
      '.env.local left out: secrets are never packed',
    ]);
    expect(entries(readFileSync(r.file)).map((e) => e.path)).not.toContain('packed/.env');
  });

  it("leaves out what the skill's own .gitignore files name (not the repository's above it); a folder's .skillignore replaces its .gitignore", async () => {
    const parent = fresh();
    // The repository's rules above the skill are not the skill's: its references stay in.
    writeFileSync(join(parent, '.gitignore'), '*.md\n');
    const dir = makeSkill(parent, 'packed', {
      '.gitignore': 'credentials.json\ntoken.json\n',
      'credentials.json': '{"installed":{"client_secret":"x"}}\n',
      'token.json': '{"refresh_token":"x"}\n',
      'data/.gitignore': '*.csv\n!keep.csv\n',
      'data/a.csv': 'a\n',
      'data/keep.csv': 'k\n',
      'data/deep/b.csv': 'b\n',
      // .skillignore replaces .gitignore in its folder, as .npmignore does: b.bin is packed, c.txt is not.
      'assets/.gitignore': '*.bin\n',
      'assets/.skillignore': 'c.txt\n',
      'assets/b.bin': 'b\n',
      'assets/c.txt': 'c\n',
    });
    const plan = await planPack(dir);
    expect(plan.files.map((f) => f.path)).toEqual([
      '.gitignore',
      'SKILL.md',
      'assets/.gitignore',
      'assets/b.bin',
      'data/.gitignore',
      'data/keep.csv',
      'references/a.md',
      'references/b.md',
      'scripts/run.sh',
    ]);
    expect(plan.ignored).toEqual(['assets/c.txt', 'credentials.json', 'data/a.csv', 'data/deep/b.csv', 'token.json']);
    const r = await packSkill(loadSkill(dir), { outDir: fresh('out') });
    const packed = entries(readFileSync(r.file)).map((e) => e.path);
    expect(packed).not.toContain('packed/token.json');
    expect(packed).not.toContain('packed/credentials.json');
    expect(packed).toContain('packed/data/keep.csv');
  });

  it('refuses (E_CONFIG) an ignore rule that would leave out the skill file or a declared script, naming the rule', async () => {
    const dir = makeSkill(fresh(), 'needy', { '.gitignore': '# generated\n*.md\n' });
    const err = (await packSkill(loadSkill(dir), { outDir: fresh('out') }).catch((e) => e)) as SkillsError;
    expect(err.code).toBe('E_CONFIG');
    expect(err.message).toBe(
      `${join(dir, 'SKILL.md')} is needed by the skill, and ${join(dir, '.gitignore')}:2 ("*.md") leaves it out of the archive; nothing was packed`,
    );
    expect(err.hint).toBe('take it back with a line "!/SKILL.md" after the rule in .gitignore, or narrow the rule');

    const scripted = join(fresh(), 'scripted');
    writeTree(scripted, {
      'SKILL.md': skillMd(
        'name: scripted\ndescription: Runs a script. Use when testing pack.\nmetadata:\n  version: "1.0.0"\nscripts:\n  - scripts/run.py',
      ),
      'scripts/run.py': 'print(1)\n',
      'scripts/.skillignore': '*.py\n',
    });
    const e2 = (await packSkill(loadSkill(scripted), { outDir: fresh('out') }).catch((e) => e)) as SkillsError;
    expect(e2.code).toBe('E_CONFIG');
    expect(e2.message).toBe(
      `${join(scripted, 'scripts/run.py')} is needed by the skill, and ${join(scripted, 'scripts/.skillignore')}:1 ("*.py") leaves it out of the archive; nothing was packed`,
    );
    expect(e2.hint).toContain('"!/run.py" after the rule in scripts/.skillignore');
  });

  it('stores a symlink inside the skill as the file it points to, and refuses one that leads out', async () => {
    const parent = fresh();
    writeFileSync(join(parent, 'outside.txt'), 'secret\n');
    const dir = makeSkill(parent, 'packed', { 'alias.md': { symlink: 'references/a.md' } });
    const r = await packSkill(loadSkill(dir), { outDir: fresh('out') });
    const out = fresh('x');
    await extractArchive(r.file, join(out, 'x'));
    expect(readFileSync(join(out, 'x/packed/alias.md'), 'utf8')).toBe('# A\n');
    expect(entries(readFileSync(r.file)).find((e) => e.path === 'packed/alias.md')?.type).toBe('File');

    const leaky = makeSkill(fresh(), 'leaky', { 'leak.txt': { symlink: join(parent, 'outside.txt') } });
    const err = await packSkill(loadSkill(leaky), { outDir: fresh('out') }).catch((e) => e);
    expect(isSkillsError(err) && err.code).toBe('E_INVALID');
    expect(err.message).toBe(
      `${join(leaky, 'leak.txt')} is a symlink that leads out of the skill (to ${join(parent, 'outside.txt')}); nothing was packed`,
    );
    // Every link out is named in one run, not one a run: fixing them took as many runs as there were links.
    const links = Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => [`scripts/${n}.py`, { symlink: join(parent, 'outside.txt') }]),
    );
    const leakier = makeSkill(fresh(), 'leakier', links);
    const all = await packSkill(loadSkill(leakier), { outDir: fresh('out') }).catch((e) => e);
    expect(isSkillsError(all) && all.code).toBe('E_INVALID');
    expect(all.message).toBe(
      `${join(leakier, 'scripts/a.py')} is a symlink that leads out of the skill (to ${join(parent, 'outside.txt')}), and so do scripts/b.py, scripts/c.py, scripts/d.py, scripts/e.py, scripts/f.py and 1 more; nothing was packed`,
    );
    expect(all.hint).toBe('copy the files into the skill instead, or list the links in .skillignore');
  });

  it('leaves out a link inside the skill whose target is left out: a secret, an ignored file or folder, a .git (tgz, .skill, npm package)', async () => {
    const dir = makeSkill(fresh(), 'linky', {
      '.env': 'API_KEY=sk-live-123\n',
      'secrets/token.json': '{"refresh_token":"tok"}\n',
      'credentials.json': '{"client_secret":"c"}\n',
      '.git/config': '[core]\n',
      '.skillignore': 'secrets/\ncredentials.json\n',
      'settings.txt': { symlink: '.env' },
      alias: { symlink: 'secrets' },
      'creds-copy.json': { symlink: 'credentials.json' },
      'deep/token.json': { symlink: '../secrets/token.json' },
      'repo-config': { symlink: '.git/config' },
      'alias.md': { symlink: 'references/a.md' },
    });
    const plan = await planPack(dir);
    expect(plan.files.map((f) => f.path)).toEqual([
      'SKILL.md',
      'alias.md',
      'references/a.md',
      'references/b.md',
      'scripts/run.sh',
    ]);
    expect(plan.secrets).toEqual(['.env', 'settings.txt']);
    expect(plan.ignored).toEqual(['alias', 'credentials.json', 'creds-copy.json', 'deep/token.json', 'secrets']);
    expect(plan.linked).toEqual([
      { path: 'alias', target: 'secrets', reason: 'which .skillignore:1 ("secrets/") leaves out' },
      {
        path: 'creds-copy.json',
        target: 'credentials.json',
        reason: 'which .skillignore:2 ("credentials.json") leaves out',
      },
      { path: 'deep/token.json', target: 'secrets', reason: 'which .skillignore:1 ("secrets/") leaves out' },
      { path: 'repo-config', target: '.git', reason: 'which is never packed' },
      { path: 'settings.txt', target: '.env', reason: 'and secrets are never packed' },
    ]);
    const r = await packSkill(loadSkill(dir), { outDir: fresh('out') });
    expect(r.warnings).toEqual([
      'alias left out: it leads to secrets, which .skillignore:1 ("secrets/") leaves out',
      'creds-copy.json left out: it leads to credentials.json, which .skillignore:2 ("credentials.json") leaves out',
      'deep/token.json left out: it leads to secrets, which .skillignore:1 ("secrets/") leaves out',
      'repo-config left out: it leads to .git, which is never packed',
      'settings.txt left out: it leads to .env, and secrets are never packed',
      '.env left out: secrets are never packed',
    ]);
    expect(entries(readFileSync(r.file)).map((e) => e.path)).toEqual([
      'linky/SKILL.md',
      'linky/alias.md',
      'linky/deep/',
      'linky/references/',
      'linky/references/a.md',
      'linky/references/b.md',
      'linky/scripts/',
      'linky/scripts/run.sh',
    ]);
    const zip = await packSkill(loadSkill(dir), { outDir: fresh('out'), format: 'skill' });
    const out = join(fresh('x'), 'x');
    await extractArchive(zip.file, out);
    expect((readdirSync(join(out, 'linky'), { recursive: true }) as string[]).sort()).toEqual([
      'SKILL.md',
      'alias.md',
      'references',
      'references/a.md',
      'references/b.md',
      'scripts',
      'scripts/run.sh',
    ]);
    const pkg = await npmPackage(loadSkill(dir), 'acme');
    expect(pkg.files).toEqual([
      'SKILL.md',
      'alias.md',
      'package.json',
      'references/a.md',
      'references/b.md',
      'scripts/run.sh',
    ]);
  });

  it('streams the same bytes the in-memory writer makes: files over a read chunk, empty ones, long and non-ASCII paths', async () => {
    const dir = makeSkill(fresh(), 'streamed', {
      'assets/empty.txt': '',
      [`references/${'long-name-'.repeat(12)}ü.md`]: '# long\n',
    });
    // Over two read chunks (1 MiB), and not a multiple of 512: padding after the last chunk.
    writeFileSync(join(dir, 'assets/big.bin'), randomBytes(2 * 1024 * 1024 + 777));
    mkdirSync(join(dir, 'empty-folder'));
    const skill = loadSkill(dir);
    const r = await packSkill(skill, { outDir: fresh('out') });
    const streamed = readFileSync(r.file);
    const inMemory = await gzipTar(tarEntries(await planPack(dir), 'streamed/'));
    expect(streamed.equals(inMemory)).toBe(true);
    expect(r.integrity).toBe(`sha512-${createHash('sha512').update(inMemory).digest('base64')}`);
    expect(streamed[9]).toBe(0xff);
  });

  it('warns above the size threshold, and --dry-run writes nothing', async () => {
    const dir = makeSkill(fresh(), 'packed', { 'assets/big.bin': 'x'.repeat(SIZE_WARNING_BYTES + 1) });
    const outDir = fresh('out');
    const r = await packSkill(loadSkill(dir), { outDir, dryRun: true });
    expect(r.warnings.some((w) => w.startsWith('the files add up to 10.0 MiB, more than 10 MiB'))).toBe(true);
    expect(r.integrity).toBeUndefined();
    expect(readdirSync(outDir)).toEqual([]);
  });

  it('--format skill: a zip with entries under the folder name, the same bytes from two copies', async () => {
    const first = makeSkill(fresh('a'));
    const second = join(fresh('b'), 'packed');
    cpSync(first, second, { recursive: true });
    utimesSync(join(second, 'SKILL.md'), new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
    const a = await packSkill(loadSkill(first), { outDir: fresh('out'), format: 'skill' });
    const b = await packSkill(loadSkill(second), { outDir: fresh('out'), format: 'skill' });
    expect(a.file.endsWith('/packed.skill')).toBe(true);
    expect(readFileSync(a.file).equals(readFileSync(b.file))).toBe(true);
    const out = join(fresh('x'), 'x');
    const got = await extractArchive(a.file, out);
    expect(got).toMatchObject({ kind: 'zip', files: 4 });
    expect(statSync(join(out, 'packed/scripts/run.sh')).mode & 0o777).toBe(0o755);
    expect(existsSync(join(out, 'packed/SKILL.md'))).toBe(true);
  });
});
