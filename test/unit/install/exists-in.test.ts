// existsIn answers existsSync from a folder's listing where it can: on 600 generated folders (names in any case,
// links dangling or not, folders by a file's name, non-ASCII names) it must answer as existsSync does.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { existsIn } from '../../../src/install/remote.js';
import { tempFolders } from '../../helpers/cli.js';
import { seeded } from '../../helpers/seeded.js';

const { fresh, cleanup } = tempFolders('skills-exists-in-');
afterAll(cleanup);

const NAMES = ['manifest.json', 'SKILL.md', 'skill.md', 'Skill.md', 'MANIFEST.json', 'ſkill.md', 'notes.md', 'context'];

describe('existsIn', () => {
  it('answers as existsSync on 600 generated folders, with their listing or without', () => {
    const base = fresh();
    const next = seeded(77);
    for (let i = 0; i < 600; i++) {
      const dir = join(base, `d${i}`);
      mkdirSync(dir);
      for (const name of NAMES) {
        const kind = next(7);
        const abs = join(dir, name);
        if (kind === 1 || kind === 2) writeFileSync(abs, '{}');
        else if (kind === 3) mkdirSync(abs);
        else if (kind === 4) symlinkSync('nowhere', abs);
        else if (kind === 5) symlinkSync(`target${i}`, abs);
      }
      if (next(2) === 0) writeFileSync(join(dir, `target${i}`), 'x');
      const listing = readdirSync(dir, { withFileTypes: true });
      for (const name of ['manifest.json', 'SKILL.md', 'skill.md']) {
        const want = existsSync(join(dir, name));
        expect(existsIn(dir, name, listing), `${i} ${name}`).toBe(want);
        expect(existsIn(dir, name), `${i} ${name} unlisted`).toBe(want);
      }
    }
  });
});
