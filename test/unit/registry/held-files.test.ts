// The bytes a skill's load read (LoadOptions.held) are what install and registry sync hash and copy, instead of
// reading those files again: the integrity, the files and their modes must be exactly what a fresh read of the
// folder gives, for every layout and every kind of file the load reads or leaves.
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HeldFile } from '../../../src/fs/read-held.js';
import { loadSkill } from '../../../src/skill/load.js';
import { digest, digestKeeping, folderIntegrity, skillFiles } from '../../../src/registry/integrity.js';
import { copyFiles } from '../../../src/registry/store.js';
import { tempFolders } from '../../helpers/cli.js';
import { seeded } from '../../helpers/seeded.js';

const { fresh, cleanup } = tempFolders('skills-held-files-');
afterAll(cleanup);

function put(root: string, rel: string, content: string | Buffer, mode = 0o644): void {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
  chmodSync(abs, mode);
}

/**
 * One generated skill of either layout: context files (some missing, some links, some outside), .env.example (or a
 * link to one), scripts, references, skipped files (.env, .git/), a skill file that is sometimes a link, non-ASCII.
 * Returns the paths the load reads from a regular file, which are the ones it must hold.
 */
function writeSkill(root: string, next: (n: number) => number, i: number): string[] {
  const reads: string[] = [];
  const text = (n: number) =>
    Array.from({ length: n }, () => ['word', 'ünï', 'x\ty', 'line\n', '—', 'a'][next(6)]).join(' ');
  mkdirSync(root, { recursive: true });
  const id = `held-${i}`;
  const modes = [0o644, 0o600, 0o755, 0o444];
  if (next(2) === 0) {
    const body = `---\nname: ${id}\ndescription: Use when testing held bytes ${i}.\n---\n\n${text(next(40))}\n`;
    if (next(6) === 0) {
      put(root, 'real/SKILL.src', body);
      symlinkSync('real/SKILL.src', join(root, 'SKILL.md'));
    } else {
      put(root, 'SKILL.md', body, modes[next(4)]);
      reads.push('SKILL.md');
    }
  } else {
    const context: string[] = [];
    for (let c = 0; c < next(4); c++) {
      const rel = ['context/instructions.md', 'context/more.md', 'notes.md', 'context/deep/x.md'][next(4)]!;
      context.push(rel);
      const kind = next(6);
      if (kind === 0) continue; // missing
      if (kind === 1) {
        put(root, `${rel}.real`, text(5));
        try {
          symlinkSync(`${rel.split('/').pop()}.real`, join(root, rel));
        } catch {
          /* already there */
        }
        continue;
      }
      put(root, rel, text(next(30)), modes[next(4)]);
      if (!reads.includes(rel)) reads.push(rel);
    }
    if (next(8) === 0) context.push('../outside.md');
    const manifest = { id, name: id, description: `Use when testing held bytes ${i}.`, version: '1.0.0', context };
    put(root, 'manifest.json', JSON.stringify(manifest, null, next(2) === 0 ? 2 : undefined), modes[next(4)]);
    reads.unshift('manifest.json');
  }
  const env = next(4);
  if (env === 1) {
    put(root, '.env.example', 'API_KEY=\nOTHER=1\n', modes[next(4)]);
    reads.push('.env.example');
  } else if (env === 2) {
    put(root, 'env.real', 'LINKED=\n');
    symlinkSync('env.real', join(root, '.env.example'));
  }
  if (next(2) === 0) put(root, 'scripts/run.sh', '#!/bin/sh\necho hi\n', 0o755);
  if (next(3) === 0) put(root, 'references/r.md', text(10));
  if (next(4) === 0) put(root, '.env', 'SECRET=1\n');
  if (next(5) === 0) put(root, '.git/HEAD', 'ref: refs/heads/main\n');
  if (next(5) === 0) put(root, 'assets/blob.bin', Buffer.from([0, 1, 2, 255, 0]));
  return reads;
}

describe('held bytes: the load reads, the registry hashes and copies', () => {
  it('on 400 generated skills: held are the regular files the load read; the integrity, files and copies are a fresh read’s', () => {
    const base = fresh();
    const next = seeded(4242);
    for (let i = 0; i < 400; i++) {
      const root = join(base, `s${i}`);
      const reads = writeSkill(root, next, i);
      const held = new Map<string, HeldFile>();
      const skill = loadSkill(root, { held });
      // The load answers as it does without holding anything.
      const plain = loadSkill(root);
      expect(JSON.stringify({ ...skill, positions: skill.positions }), `skill ${i}`).toBe(
        JSON.stringify({ ...plain, positions: plain.positions }),
      );
      expect([...held.keys()].sort(), `skill ${i}`).toEqual([...new Set(reads)].sort());
      for (const [rel, h] of held) {
        expect(h.bytes.equals(readFileSync(join(root, rel))), `${i} ${rel}`).toBe(true);
        expect(h.mode, `${i} ${rel}`).toBe(statSync(join(root, rel)).mode & 0o7777);
      }
      const files = skillFiles(root, skill.entries, held);
      // Every file held is taken from the load, none read again.
      expect(files.filter((f) => f.held).length, `skill ${i}`).toBe(held.size);
      const walked = skillFiles(root);
      const integrity = digestKeeping(files, { bytes: 1 << 30 });
      expect(integrity, `skill ${i}`).toBe(folderIntegrity(root));
      // The same files with the same modes and sizes, once read, as a walk that stats each.
      expect(
        files.map(({ rel, kind, mode, link, size }) => ({ rel, kind, mode, link, size })),
        `skill ${i}`,
      ).toEqual(walked.map(({ rel, kind, mode, link, size }) => ({ rel, kind, mode, link, size })));
      const copy = join(base, `copy${i}`);
      expect(copyFiles(files, copy, false, integrity)).toBe(integrity);
      expect(folderIntegrity(copy), `copy ${i}`).toBe(integrity);
    }
  });

  it('a held file is not read again: what is hashed is what the load read, though the file changed since', () => {
    const root = fresh();
    put(root, 'SKILL.md', '---\nname: changed\ndescription: Use when testing.\n---\n\nAs loaded.\n');
    put(root, 'references/r.md', 'reference\n');
    const held = new Map<string, HeldFile>();
    const skill = loadSkill(root, { held });
    const loaded = folderIntegrity(root);
    writeFileSync(join(root, 'SKILL.md'), '---\nname: changed\ndescription: Use when testing.\n---\n\nChanged!!\n');
    expect(digest(skillFiles(root, skill.entries, held))).toBe(loaded);
    // Without the held bytes, the file is read as it is now.
    expect(digest(skillFiles(root, skill.entries))).not.toBe(loaded);
  });

  it('held bytes count towards the store’s bound on a skill’s bytes', () => {
    const root = fresh();
    put(root, 'SKILL.md', '---\nname: big\ndescription: Use when testing.\n---\n\nBody.\n');
    const held = new Map<string, HeldFile>();
    const skill = loadSkill(root, { held });
    // As if the file had been 300 MiB when the load read it.
    held.set('SKILL.md', { ...held.get('SKILL.md')!, size: 300 * 1024 * 1024 });
    expect(() => digest(skillFiles(root, skill.entries, held))).toThrow(/more than 256 MiB \(at SKILL\.md\)/);
  });
});

describe('registerSkills with the load’s held bytes (registry sync)', () => {
  it('stores the bytes the load read and validated, not a second read of a file changed since', async () => {
    const { registerSkills } = await import('../../../src/registry/register.js');
    const base = fresh();
    const root = join(base, 'src', 'kept');
    put(root, 'SKILL.md', '---\nname: kept\ndescription: Use when testing.\n---\n\nAs loaded.\n');
    put(root, 'scripts/run.sh', '#!/bin/sh\necho hi\n', 0o755);
    const held = new Map<string, HeldFile>();
    const skill = loadSkill(root, { held });
    const loaded = folderIntegrity(root);
    writeFileSync(join(root, 'SKILL.md'), '---\nname: kept\ndescription: Use when testing.\n---\n\nChanged!!!\n');
    const [r] = await registerSkills(join(base, 'reg'), [{ skill, opts: { walked: true, held } }]);
    expect(r).toMatchObject({ status: 'added', integrity: loaded });
    const stored = join(base, 'reg', (r as { path: string }).path);
    expect(readFileSync(join(stored, 'SKILL.md'), 'utf8')).toContain('As loaded.');
    expect(folderIntegrity(stored)).toBe(loaded);
    // Let go once staged: the batch does not keep every skill's bytes.
    expect(held.size).toBe(0);
  });
});
