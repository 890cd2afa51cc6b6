import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKS } from '../../../src/model/checks.js';
import { ROOT } from '../../helpers/cli.js';

describe('check catalogue', () => {
  it('has unique ids of the form SK0nn', () => {
    const ids = Object.values(CHECKS).map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^SK0\d\d$/);
  });

  it('is documented in the README, every id with its name', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const [name, c] of Object.entries(CHECKS)) expect(readme).toContain(`| ${c.id} | ${name} |`);
  });
});
