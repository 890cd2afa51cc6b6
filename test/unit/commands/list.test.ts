import { describe, expect, it } from 'vitest';
import { formatList } from '../../../src/commands/list.js';
import type { ListRow } from '../../../src/registry/list.js';
import { paint } from '../../../src/ui/color.js';

const row = (id: string, description: string): ListRow => ({
  id,
  versions: [],
  layout: 'skill-md',
  scope: 'project',
  usedBy: [],
  description,
  path: `/p/${id}`,
  valid: true,
});

describe('formatList', () => {
  it('shows each description on one line, its whitespace flattened, cut to the width', () => {
    const descriptions = [
      'Plain one line.',
      'Two  spaces,\ta tab,\nand a newline.',
      ' Leading and trailing ',
      'No\u00a0break\u00a0\u00a0space.',
      `${'long '.repeat(40)}end`,
    ];
    const out = formatList(
      descriptions.map((d, i) => row(`s${i}`, d)),
      { long: false, width: 80, c: paint(false) },
    ).split('\n');
    const shown = out.slice(1, -1).map((l) => l.split(/ {2,}/).at(-1));
    expect(shown).toEqual([
      'Plain one line.',
      'Two spaces, a tab, and a newlin…',
      'Leading and trailing',
      'No break space.',
      `${'long '.repeat(6)}l…`,
    ]);
  });
});
