import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import yazl from 'yazl';
import {
  extractArchive,
  isLitter,
  skillFoldersIn,
  type ArchiveLimits,
  type ExtractOptions,
} from '../../../src/fs/archive.js';
import { isSkillFolder } from '../../../src/skill/discover.js';
import { isSkillsError } from '../../../src/errors.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-archive-unit-');
afterAll(cleanup);

interface TarEntry {
  path: string;
  type?:
    | 'File'
    | 'Directory'
    | 'SymbolicLink'
    | 'Link'
    | 'CharacterDevice'
    | 'BlockDevice'
    | 'FIFO'
    | 'ExtendedHeader'
    | 'SparseFile'
    | 'ContinuationFile';
  content?: string;
  /** Declared size, when it should differ from the content's (a header that promises more than it holds). */
  size?: number;
  linkpath?: string;
  mode?: number;
}

/** A tar made block by block with node-tar's Header, so the tests can write what no honest tool would. */
function tarOf(list: TarEntry[], trailer: Buffer = Buffer.alloc(1024)): Buffer {
  const blocks: Buffer[] = [];
  for (const e of list) {
    const body = Buffer.from(e.content ?? '');
    const block = Buffer.alloc(512);
    new Header({
      path: e.path,
      type: e.type ?? 'File',
      size: e.size ?? body.length,
      mode: e.mode ?? 0o644,
      mtime: new Date(0),
      linkpath: e.linkpath ?? '',
    }).encode(block);
    blocks.push(block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(trailer);
  return Buffer.concat(blocks);
}

function write(name: string, bytes: Buffer): string {
  const file = join(fresh('archives'), name);
  writeFileSync(file, bytes);
  return file;
}

const tgz = (list: TarEntry[], trailer?: Buffer) => write('hostile.tgz', gzipSync(tarOf(list, trailer)));

/** A zip made with yazl; `rename` swaps a placeholder name for a hostile one of the same length afterwards. */
async function zipOf(
  files: { name: string; content?: string; mode?: number }[],
  rename?: [string, string],
): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const f of files)
    zip.addBuffer(Buffer.from(f.content ?? 'x'), f.name, { mode: f.mode ?? 0o100644, mtime: new Date(2000, 0, 1) });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  let bytes = Buffer.concat(chunks);
  if (rename) {
    expect(rename[0].length).toBe(rename[1].length);
    bytes = Buffer.from(bytes.toString('latin1').split(rename[0]).join(rename[1]), 'latin1');
  }
  return write('hostile.zip', bytes);
}

async function refused(
  file: string,
  limits?: ArchiveLimits,
  options: ExtractOptions = {},
): Promise<{ message: string; dest: string }> {
  const dest = join(fresh('dest'), 'unpacked');
  const err = await extractArchive(file, dest, limits, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isSkillsError(err)).toBe(true);
  expect((err as { code: string }).code).toBe('E_INVALID');
  // Nothing is left behind: the extraction folder is gone.
  expect(existsSync(dest)).toBe(false);
  return { message: (err as Error).message, dest };
}

const SKILL = { path: 'ok/SKILL.md', content: '---\nname: ok\n---\n' };

for (const threaded of [false, true])
  describe(`extractArchive: tar${threaded ? ', its files written on a thread of their own' : ''}`, () => {
    const opts: ExtractOptions = threaded ? { threadFrom: 0 } : {};
    it('extracts regular files and folders, with 755 only for executables', async () => {
      const file = tgz([
        { path: 'ok/', type: 'Directory', mode: 0o700 },
        SKILL,
        { path: 'ok/run.sh', content: '#!/bin/sh\n', mode: 0o700 },
        { path: './ok/x/deep.md', content: 'deep' },
      ]);
      const dest = join(fresh('dest'), 'unpacked');
      expect(await extractArchive(file, dest, undefined, opts)).toEqual({ kind: 'tgz', files: 3, bytes: 31 });
      expect(readFileSync(join(dest, 'ok/x/deep.md'), 'utf8')).toBe('deep');
      expect(statSync(join(dest, 'ok/run.sh')).mode & 0o777).toBe(0o755);
      expect(statSync(join(dest, 'ok/SKILL.md')).mode & 0o777).toBe(0o644);
    });

    it('places a name with an empty or "." segment where its plain spelling goes, and refuses the two as one path', async () => {
      const file = tgz([SKILL, { path: 'ok//a.md', content: 'a' }, { path: 'ok/./b/c.md', content: 'c' }]);
      const dest = join(fresh('dest'), 'unpacked');
      const r = await extractArchive(file, dest, undefined, { record: true, ...opts });
      expect(r.written!.map((f) => f.rel)).toEqual(['ok/SKILL.md', 'ok/a.md', 'ok/b/c.md']);
      expect(readFileSync(join(dest, 'ok/b/c.md'), 'utf8')).toBe('c');
      const twice = tgz([SKILL, { path: 'ok/a.md', content: 'a' }, { path: 'ok/.//a.md', content: 'b' }]);
      expect((await refused(twice, undefined, opts)).message).toContain('entry "ok/.//a.md" appears twice');
    });

    it('reads an archive made with `tar czf x.tgz -C skill .` (the folder itself stored as "./")', async () => {
      const src = fresh('src');
      writeFileSync(join(src, 'SKILL.md'), '---\nname: ok\ndescription: d\n---\n');
      const file = join(fresh('tar'), 'dot.tgz');
      execFileSync('tar', ['czf', file, '-C', src, '.']);
      const dest = join(fresh('dest'), 'unpacked');
      expect((await extractArchive(file, dest, undefined, opts)).files).toBe(1);
      expect(readFileSync(join(dest, 'SKILL.md'), 'utf8')).toContain('name: ok');
    });

    it.each([
      ['an absolute path', { path: '/etc/cron.d/evil', content: 'x' }, 'entry "/etc/cron.d/evil" is an absolute path'],
      ['a ".." path', { path: 'ok/../../evil.sh', content: 'x' }, 'entry "ok/../../evil.sh" contains ".."'],
      [
        'a symbolic link',
        { path: 'ok/link', type: 'SymbolicLink', linkpath: '/etc/passwd' },
        'entry "ok/link" is a symbolic link (links are refused)',
      ],
      [
        'a hard link',
        { path: 'ok/hard', type: 'Link', linkpath: '/etc/passwd' },
        'entry "ok/hard" is a hard link (links are refused)',
      ],
      ['a character device', { path: 'ok/tty', type: 'CharacterDevice' }, 'entry "ok/tty" is a character device'],
      ['a block device', { path: 'ok/sda', type: 'BlockDevice' }, 'entry "ok/sda" is a block device'],
      ['a FIFO', { path: 'ok/pipe', type: 'FIFO' }, 'entry "ok/pipe" is a FIFO'],
      // node-tar skips these without a word: the file would be missing from the skill and from its integrity.
      [
        'an old GNU sparse file',
        { path: 'ok/big', type: 'SparseFile', content: 'x' },
        'entry "ok/big" is a sparse file (GNU sparse format), which is not unpacked',
      ],
      [
        'an entry of a type no unpacker here knows',
        { path: 'ok/part', type: 'ContinuationFile', content: 'x' },
        'entry "ok/part" has the unsupported type ContinuationFile',
      ],
      ['a Windows drive path', { path: 'C:/evil', content: 'x' }, 'entry "C:/evil" is an absolute path'],
      ['a backslash path', { path: 'ok\\..\\..\\evil', content: 'x' }, 'has a backslash in its name'],
    ] as [string, TarEntry, string][])(
      'refuses %s, naming the archive and the entry, and leaves nothing',
      async (_what, entry, text) => {
        const file = tgz([SKILL, entry]);
        const { message } = await refused(file, undefined, opts);
        expect(message).toContain(`${file}: refused: `);
        expect(message).toContain(text);
        expect(message).toContain('expected regular files and folders inside one skill folder');
      },
    );

    it('refuses a pax sparse file (GNU 1.0), whose data is a map and pieces, not the file', async () => {
      const record = (kv: string) => {
        // "<length> key=value\n", the length counting itself.
        let n = kv.length + 3;
        while (`${n} ${kv}\n`.length !== n) n++;
        return `${n} ${kv}\n`;
      };
      const pax = ['GNU.sparse.major=1', 'GNU.sparse.minor=0', 'GNU.sparse.name=ok/big', 'GNU.sparse.realsize=1048576']
        .map(record)
        .join('');
      const file = tgz([
        SKILL,
        { path: 'ok/PaxHeaders/big', type: 'ExtendedHeader', content: pax },
        { path: 'ok/GNUSparseFile.1/big', content: '1\n0\n512\n' },
      ]);
      const { message } = await refused(file, undefined, opts);
      expect(message).toContain(`${file}: refused: entry "ok/big" is a sparse file (GNU sparse format)`);
    });

    it('refuses a symlink even before a file written through it (no file lands outside)', async () => {
      const outside = fresh('outside');
      const file = tgz([
        { path: 'ok/escape', type: 'SymbolicLink', linkpath: outside },
        { path: 'ok/escape/owned.txt', content: 'x' },
      ]);
      await refused(file, undefined, opts);
      expect(existsSync(join(outside, 'owned.txt'))).toBe(false);
    });

    it('stops a bomb at the header that passes the byte limit, before its data is read', async () => {
      // The header promises 300 MiB; the data is not even there.
      const file = write(
        'bomb.tgz',
        gzipSync(
          Buffer.concat([
            tarOf([SKILL], Buffer.alloc(0)),
            (() => {
              const b = Buffer.alloc(512);
              new Header({
                path: 'ok/huge.bin',
                type: 'File',
                size: 300 * 1024 * 1024,
                mode: 0o644,
                mtime: new Date(0),
              }).encode(b);
              return b;
            })(),
          ]),
        ),
      );
      const { message } = await refused(file, undefined, opts);
      expect(message).toBe(
        `${file}: refused: its files add up to more than 256 MiB (stopped at entry "ok/huge.bin"); the limits are 256 MiB unpacked and 20000 entries. Nothing was installed`,
      );
    });

    it('stops at the entry limit and at the byte limit while streaming', async () => {
      const many = tgz(Array.from({ length: 30 }, (_, i) => ({ path: `ok/f${i}.md`, content: 'x' })));
      expect((await refused(many, { maxBytes: 1e6, maxEntries: 10 }, opts)).message).toContain(
        'it holds more than 10 entries (stopped at entry "ok/f10.md")',
      );
      const big = tgz([
        SKILL,
        { path: 'ok/a.bin', content: 'a'.repeat(4000) },
        { path: 'ok/b.bin', content: 'b'.repeat(4000) },
      ]);
      expect((await refused(big, { maxBytes: 5000, maxEntries: 10 }, opts)).message).toContain(
        'its files add up to more than 5000 bytes (stopped at entry "ok/b.bin")',
      );
    });

    it('bounds the decompressed stream too: a flood of extended headers (no files) stops early', async () => {
      const flood = Array.from({ length: 200 }, () => ({
        path: 'PaxHeader/x',
        type: 'ExtendedHeader',
        content: `${'9'.repeat(5)} comment=${'z'.repeat(99_980)}\n`,
      }));
      const file = write('flood.tgz', gzipSync(tarOf([SKILL, ...(flood as TarEntry[])])));
      const { message } = await refused(file, { maxBytes: 1024, maxEntries: 4 }, opts);
      expect(message).toBe(
        `${file}: refused: it unpacks to more than 11264 bytes of tar data; the limits are 1024 bytes unpacked and 4 entries. Nothing was installed`,
      );
    });

    it('refuses a corrupt or truncated archive, and what is no archive', async () => {
      const whole = gzipSync(tarOf([SKILL, { path: 'ok/a.md', content: 'a'.repeat(3000) }]));
      const cut = write('cut.tgz', whole.subarray(0, whole.length - 40));
      expect((await refused(cut, undefined, opts)).message).toMatch(
        /^.*cut\.tgz: not a readable archive: .*Nothing was installed$/,
      );
      const text = write('notes.tgz', Buffer.from('just text, not an archive\n'));
      const err = await extractArchive(text, join(fresh('dest'), 'x')).catch((e) => e);
      expect(err.message).toBe(
        `${text}: not an archive skills can read; expected a gzip tar (.tgz, made by skills pack), a .skill or a .zip`,
      );
    });

    it('a name too long for the file system: E_IO naming the entry, the files before it removed too', async () => {
      const long = `ok/${'n'.repeat(300)}.md`;
      // A pax header gives the next entry its long name (a ustar header holds 100 bytes of it).
      const body = ` path=${long}\n`;
      const pax = `${body.length + String(body.length + 3).length}${body}`;
      const file = tgz([
        SKILL,
        { path: 'ok/a.md', content: 'a' },
        { path: 'PaxHeader/long', type: 'ExtendedHeader', content: pax },
        { path: 'ok/short.md', content: 'x' },
        { path: 'ok/z.md' },
      ]);
      const dest = join(fresh('dest'), 'unpacked');
      const err = await extractArchive(file, dest, undefined, opts).catch((e: unknown) => e);
      expect(isSkillsError(err) && err.code).toBe('E_IO');
      expect((err as Error).message).toContain(`cannot write entry "${long}" into ${dest}`);
      expect((err as Error).message).toContain('(ENAMETOOLONG)');
      expect(existsSync(dest)).toBe(false);
    });

    it('writes every byte where it belongs: many files, empty ones, and files larger than what is sent at a time', async () => {
      const list: TarEntry[] = [SKILL, { path: 'ok/empty.md' }];
      for (let i = 0; i < 300; i++) list.push({ path: `ok/d${i % 7}/f${i}.md`, content: `${i} `.repeat(i * 7) });
      list.push({ path: 'ok/big.bin', content: 'abcdefg'.repeat(400_000) }, { path: 'ok/last.md', content: 'last' });
      const dest = join(fresh('dest'), 'unpacked');
      const r = await extractArchive(tgz(list), dest, undefined, { record: true, ...opts });
      expect(r.files).toBe(list.length);
      for (const e of list) expect(readFileSync(join(dest, e.path), 'utf8')).toBe(e.content ?? '');
      expect(r.written!.map((f) => f.rel)).toEqual(list.map((e) => e.path));
    });

    it('refuses the same path twice', async () => {
      const file = tgz([SKILL, { path: 'ok/a.md', content: 'one' }, { path: 'ok/a.md', content: 'two' }]);
      expect((await refused(file, undefined, opts)).message).toContain('entry "ok/a.md" appears twice');
    });
  });

describe('extractArchive: zip (.skill, .zip)', () => {
  it('extracts a zip with its execute bits', async () => {
    const file = await zipOf([
      { name: 'ok/SKILL.md', content: 'x' },
      { name: 'ok/run.sh', content: '#!/bin/sh\n', mode: 0o100755 },
    ]);
    const dest = join(fresh('dest'), 'unpacked');
    expect(await extractArchive(file, dest)).toMatchObject({ kind: 'zip', files: 2 });
    expect(statSync(join(dest, 'ok/run.sh')).mode & 0o777).toBe(0o755);
  });

  it('refuses a symlink entry', async () => {
    const file = await zipOf([{ name: 'ok/SKILL.md' }, { name: 'ok/link', content: '/etc/passwd', mode: 0o120777 }]);
    expect((await refused(file)).message).toContain('entry "ok/link" is a symbolic link (links are refused)');
  });

  it('refuses ".." and absolute names (written into the zip after yazl, which would not write them)', async () => {
    const dots = await zipOf(
      [{ name: 'ok/SKILL.md' }, { name: 'ok/aa/aa/evil.sh' }],
      ['ok/aa/aa/evil.sh', 'ok/../../evil.sh'],
    );
    expect((await refused(dots)).message).toContain('entry "ok/../../evil.sh" contains ".."');
    const abs = await zipOf([{ name: 'ok/SKILL.md' }, { name: 'xtmp/evil.sh' }], ['xtmp/evil.sh', '/tmp/evil.sh']);
    expect((await refused(abs)).message).toContain('entry "/tmp/evil.sh" is an absolute path');
  });

  it('stops at the byte and entry limits', async () => {
    const big = await zipOf([{ name: 'ok/SKILL.md' }, { name: 'ok/zeros.bin', content: '\0'.repeat(100_000) }]);
    expect((await refused(big, { maxBytes: 50_000, maxEntries: 10 })).message).toContain(
      'its files add up to more than 50000 bytes (stopped at entry "ok/zeros.bin")',
    );
    const many = await zipOf(Array.from({ length: 12 }, (_, i) => ({ name: `ok/f${i}` })));
    expect((await refused(many, { maxBytes: 1e6, maxEntries: 10 })).message).toContain('it holds 12 entries');
  });

  it('refuses an entry that unpacks to more than it declares (validateEntrySizes)', async () => {
    // Declared size patched down to 1 byte in both headers: the stream yields more, and yauzl stops it.
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('x'), 'ok/SKILL.md', { compress: false });
    zip.addBuffer(Buffer.alloc(4096, 0x42), 'ok/a.bin', { compress: true });
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    // Central directory record of ok/a.bin: uncompressed size at offset 24.
    const cd = bytes.lastIndexOf(Buffer.from('ok/a.bin')) - 46;
    expect(bytes.readUInt32LE(cd)).toBe(0x02014b50);
    bytes.writeUInt32LE(1, cd + 24);
    const file = write('liar.zip', bytes);
    expect((await refused(file)).message).toMatch(/not a readable archive: .*(too many bytes|size)/);
  });
});

describe('extractArchive: macOS litter', () => {
  it('does not write __MACOSX/, AppleDouble ._ files or .DS_Store from a tar (macOS tar puts ._ files next to each file)', async () => {
    const file = tgz([
      SKILL,
      { path: 'ok/._SKILL.md', content: 'resource fork' },
      { path: 'ok/.DS_Store', content: 'finder' },
      { path: '__MACOSX/', type: 'Directory' },
      { path: '__MACOSX/ok/._SKILL.md', content: 'resource fork' },
      { path: 'ok/notes.md', content: 'kept' },
    ]);
    const dest = join(fresh('dest'), 'unpacked');
    expect(await extractArchive(file, dest)).toMatchObject({ files: 2 });
    expect(readdirSync(dest)).toEqual(['ok']);
    expect(readdirSync(join(dest, 'ok')).sort()).toEqual(['SKILL.md', 'notes.md']);
  });

  it('does not write them from a zip either', async () => {
    const file = await zipOf([
      { name: 'ok/SKILL.md' },
      { name: 'ok/.DS_Store' },
      { name: '__MACOSX/ok/._SKILL.md' },
      { name: '__MACOSX/._ok' },
    ]);
    const dest = join(fresh('dest'), 'unpacked');
    expect(await extractArchive(file, dest)).toMatchObject({ files: 1 });
    expect(readdirSync(dest)).toEqual(['ok']);
    expect(readdirSync(join(dest, 'ok'))).toEqual(['SKILL.md']);
  });

  it('still checks litter entries like any other: a ".." name or a link is refused, and they count against the limits', async () => {
    expect((await refused(tgz([SKILL, { path: '__MACOSX/../../evil.sh', content: 'x' }]))).message).toContain(
      'entry "__MACOSX/../../evil.sh" contains ".."',
    );
    expect(
      (await refused(tgz([SKILL, { path: 'ok/._link', type: 'SymbolicLink', linkpath: '/etc/passwd' }]))).message,
    ).toContain('entry "ok/._link" is a symbolic link');
    const many = tgz(Array.from({ length: 12 }, (_, i) => ({ path: `__MACOSX/ok/._f${i}`, content: 'x' })));
    expect((await refused(many, { maxBytes: 1e6, maxEntries: 10 })).message).toContain('it holds more than 10 entries');
  });

  it.each([
    ['__MACOSX', true],
    ['__MACOSX/ok/._SKILL.md', true],
    ['./ok/.DS_Store', true],
    ['ok/._run.sh', true],
    ['ok/SKILL.md', false],
    ['ok/.env.example', false],
    ['ok/_MACOSX/x.md', false],
  ])('isLitter(%j) is %s', (name, litter) => {
    expect(isLitter(name)).toBe(litter);
  });
});

describe('skillFoldersIn: the skills of an extracted archive', () => {
  const tree = (files: string[]) => {
    const dest = fresh('unpacked');
    for (const f of files) {
      mkdirSync(join(dest, f, '..'), { recursive: true });
      writeFileSync(join(dest, f), f.endsWith('SKILL.md') ? '---\nname: x\n---\n' : 'x');
    }
    return dest;
  };

  it('finds the skill at the top, in the one folder, or every skill below (not inside a skill), sorted by path', () => {
    const top = tree(['SKILL.md', 'sub/SKILL.md']);
    expect(skillFoldersIn(top, 'a.zip', isSkillFolder)).toEqual([{ dir: top, inner: '' }]);
    const release = tree(['pdf-1.2.0/SKILL.md', 'pdf-1.2.0/scripts/inner/SKILL.md']);
    expect(skillFoldersIn(release, 'a.zip', isSkillFolder)).toEqual([
      { dir: join(release, 'pdf-1.2.0'), inner: 'pdf-1.2.0' },
    ]);
    const repo = tree([
      'repo-main/README.md',
      'repo-main/skills/pdf/SKILL.md',
      'repo-main/skills/docx/SKILL.md',
      'repo-main/node_modules/dep/SKILL.md',
      'repo-main/.git/x/SKILL.md',
    ]);
    expect(skillFoldersIn(repo, 'a.zip', isSkillFolder).map((f) => f.inner)).toEqual([
      'repo-main/skills/docx',
      'repo-main/skills/pdf',
    ]);
  });

  it("looks as deep as discovery does below the archive's top folder, and no deeper", () => {
    const deep = tree(['r/1/2/3/4/5/6/SKILL.md', 'r/1/2/3/4/5/6/7/SKILL.md', 'q/1/2/3/4/5/6/7/SKILL.md']);
    expect(skillFoldersIn(deep, 'a.zip', isSkillFolder).map((f) => f.inner)).toEqual(['r/1/2/3/4/5/6']);
  });

  it('names the archive and what it holds when there is no skill', () => {
    expect(() => skillFoldersIn(tree(['repo-main/README.md']), 'x.zip', isSkillFolder)).toThrow(
      'x.zip: holds no skill: expected SKILL.md or manifest.json at its top, in a folder ("my-skill/SKILL.md"), or in folders below one ("repo-main/skills/my-skill/SKILL.md"); found "repo-main" with no skill in it. Nothing was installed',
    );
    expect(() => skillFoldersIn(fresh('empty'), 'x.zip', isSkillFolder)).toThrow(
      'x.zip: holds no skill: expected SKILL.md or manifest.json at its top, in a folder ("my-skill/SKILL.md"), or in folders below one ("repo-main/skills/my-skill/SKILL.md"); found nothing. Nothing was installed',
    );
  });
});

describe('extractArchive: a path that is both a file and a folder', () => {
  it('is refused naming the entry and the path, before the file system complains, and dest is removed', async () => {
    for (const threaded of [false, true])
      for (const list of [
        [{ path: 's/a' }, { path: 's/a/b' }],
        [{ path: 's/a/b' }, { path: 's/a' }],
        [{ path: 's/a' }, { path: 's/a/', type: 'Directory' as const }],
      ]) {
        const dir = fresh();
        const file = join(dir, 'x.tgz');
        writeFileSync(file, gzipSync(tarOf(list)));
        const dest = join(dir, 'out');
        const err = await extractArchive(file, dest, undefined, threaded ? { threadFrom: 0 } : {}).catch(
          (e: unknown) => e,
        );
        expect(isSkillsError(err) && err.code).toBe('E_INVALID');
        expect((err as Error).message).toContain(`entry "${list[1]!.path}" makes "s/a" both a file and a folder`);
        expect(existsSync(dest)).toBe(false);
      }
  });
});
