import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, runCli, tempFolders, testEnv } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// A file or folder name that is not UTF-8 reaches Node as a string with U+FFFD for the bad bytes, so the path joined
// from it names nothing. Such a skill folder was passed over in silence (validate, lint and list: all valid, exit 0)
// while an agent that reads names as bytes would load it; a file so named inside a skill made pack and install fail
// with "no such file" and a hint about a folder removed meanwhile. The names are made from bytes, as the tests must.

const bytes = (dir: string, ...parts: (string | number[])[]) =>
  Buffer.concat([Buffer.from(dir), ...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))]);

const t = tempFolders('skills-non-utf8-');
afterAll(t.cleanup);

/** A project with a good skill and a skill in `skills/bad\xff`. */
function project(): string {
  const dir = t.fresh('p');
  writeTree(dir, { 'skills/good/SKILL.md': skillMd('name: good\ndescription: A good skill. Use when testing names.') });
  const bad = bytes(dir, '/skills/bad', [0xff]);
  mkdirSync(bad);
  writeFileSync(bytes(dir, '/skills/bad', [0xff], '/SKILL.md'), skillMd('name: bad\ndescription: Use when testing.'));
  return dir;
}

/** A valid skill folder holding, besides SKILL.md, one entry whose name has the byte 0xfe. */
function skillWithBadEntry(kind: 'file' | 'folder'): string {
  const dir = t.fresh('s');
  const skill = join(dir, 'notes');
  writeTree(skill, { 'SKILL.md': skillMd('name: notes\ndescription: Notes. Use when testing names.') });
  if (kind === 'file') writeFileSync(bytes(skill, '/caf', [0xfe], '.txt'), 'x\n');
  else {
    mkdirSync(bytes(skill, '/dir', [0xfe]));
    writeFileSync(bytes(skill, '/dir', [0xfe], '/f.txt'), 'x\n');
  }
  return skill;
}

describe.skipIf(process.platform === 'darwin' || process.platform === 'win32')(
  'names that are not UTF-8 (built CLI)',
  () => {
    it.each(['validate', 'lint'])(
      '%s names a skill folder whose name is not UTF-8, escaped, and exits 1',
      async (cmd) => {
        const dir = project();
        const r = await runCli([cmd], { cwd: dir });
        expect(r.stderr).toContain(
          `warning: ${join(dir, 'skills')}/bad\\xff: cannot read the folder: its name is not UTF-8`,
        );
        expect(r.stderr).toContain("a skill's name must be lowercase ASCII letters, digits and hyphens");
        expect(r.stdout).toContain('skills/good');
        expect(r.exitCode).toBe(1);
      },
    );

    it('validate --json lists it under "unread"', async () => {
      const dir = project();
      const r = await runCli(['validate', '--json'], { cwd: dir });
      expect(r.exitCode).toBe(1);
      const doc = JSON.parse(r.stdout) as { unread: { path: string; message: string }[] };
      expect(doc.unread.map((u) => u.path)).toEqual([`${join(dir, 'skills')}/bad\\xff`]);
    });

    it('list skips it with the warning', async () => {
      const dir = project();
      const r = await runCli(['list'], { cwd: dir });
      expect(r.stderr).toContain(
        `${join(dir, 'skills')}/bad\\xff: skipped: cannot read the folder: its name is not UTF-8`,
      );
      expect(r.stdout).toContain('good');
    });

    it('two such folders that read alike are each named once', async () => {
      const dir = project();
      mkdirSync(bytes(dir, '/skills/bad', [0xfe]));
      const r = await runCli(['validate'], { cwd: dir });
      const said = r.stderr.split('\n').filter((l) => l.startsWith('warning: '));
      expect(said.map((l) => l.slice(9, l.indexOf(': cannot')))).toEqual(
        expect.arrayContaining([`${join(dir, 'skills')}/bad\\xff`, `${join(dir, 'skills')}/bad\\xfe`]),
      );
      expect(said).toHaveLength(2);
    });

    // Node reads the bytes of argv as UTF-8 too: the path given names nothing, and is told as not UTF-8.
    it.each(['validate', 'install'])('%s given such a folder says its name is not UTF-8', async (cmd) => {
      const dir = project();
      const r = await execa(
        'bash',
        ['-c', 'exec "$0" "$1" "$2" "skills/bad$(printf \'\\377\')"', process.execPath, BIN, cmd],
        { cwd: dir, env: testEnv(dir), extendEnv: false, reject: false, stdin: 'ignore' },
      );
      expect(r.stderr).toContain(`${join(dir, 'skills')}/bad\\xff: its name is not UTF-8`);
      expect(r.exitCode).toBe(2);
    });

    it.each(['file', 'folder'] as const)('pack refuses a skill with a %s whose name is not UTF-8', async (kind) => {
      const skill = skillWithBadEntry(kind);
      const out = t.fresh('out');
      const r = await runCli(['pack', skill, '--out', out]);
      const shown = kind === 'file' ? 'caf\\xfe.txt' : 'dir\\xfe';
      expect(r.stderr).toContain(`${skill}/${shown}: its name is not UTF-8 (bytes shown escaped)`);
      expect(r.stderr).toContain('nothing was packed');
      expect(r.exitCode).not.toBe(0);
      expect(readdirSync(out)).toEqual([]);
    });

    it.each(['validate', 'lint'])(
      '%s warns of a file and a folder inside a skill whose names are not UTF-8, escaped, as pack names them',
      async (cmd) => {
        const skill = skillWithBadEntry('file');
        mkdirSync(bytes(skill, '/dir', [0xfe]));
        writeFileSync(bytes(skill, '/dir', [0xfe], '/f.txt'), 'x\n');
        const r = await runCli([cmd, skill]);
        const said = 'its name is not UTF-8 (bytes shown escaped): skills pack and install refuse the skill for it';
        expect(r.stdout).toContain(`notes/caf\\xfe.txt  warning  ${said}`);
        expect(r.stdout).toContain(`notes/dir\\xfe  warning  ${said}`);
        expect(r.stdout).toContain('SK039 file-name-encoding');
        expect(r.stdout).toContain(
          'hint: rename it with a UTF-8 name, or list it in .skillignore (pack leaves it out then)',
        );
        expect(r.exitCode).toBe(0);
        const j = await runCli([cmd, '--json', skill]);
        const doc = JSON.parse(j.stdout) as { skills: { diagnostics: { ruleId: string; file: string }[] }[] };
        expect(doc.skills[0]!.diagnostics.filter((d) => d.ruleId === 'SK039').map((d) => d.file)).toEqual([
          `${skill}/caf\\xfe.txt`,
          `${skill}/dir\\xfe`,
        ]);
      },
    );

    it('pack says what validate says, and packs the skill once .skillignore lists the file', async () => {
      const skill = skillWithBadEntry('file');
      const out = t.fresh('out');
      const r = await runCli(['pack', skill, '--out', out]);
      expect(r.stderr).toContain(
        'hint: rename it with a UTF-8 name, or list it in .skillignore (pack leaves it out then)',
      );
      writeFileSync(join(skill, '.skillignore'), 'caf*.txt\n');
      const ok = await runCli(['pack', skill, '--out', out]);
      expect(ok.exitCode).toBe(0);
      expect(readdirSync(out)).toEqual(['notes-0.0.0.tgz']);
    });

    it.each(['file', 'folder'] as const)('install refuses a skill with a %s whose name is not UTF-8', async (kind) => {
      const skill = skillWithBadEntry(kind);
      const proj = t.fresh('proj');
      const r = await runCli(['install', skill], { cwd: proj });
      const shown = kind === 'file' ? 'caf\\xfe.txt' : 'dir\\xfe';
      expect(r.stderr).toContain(`${skill}/${shown}: its name is not UTF-8 (bytes shown escaped)`);
      expect(r.stderr).not.toContain('removed meanwhile');
      expect(r.exitCode).toBe(2);
      expect(readdirSync(proj)).toEqual([]);
    });
  },
);
