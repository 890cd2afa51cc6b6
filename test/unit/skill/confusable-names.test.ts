import { describe, expect, it } from 'vitest';
import {
  confusableGroups,
  isMixedScript,
  latinLookalike,
  lookalikeProblem,
  scriptsOf,
  skeleton,
} from '../../../src/skill/confusable-names.js';
import { CONFUSABLE_LETTERS } from '../../../src/skill/confusables-data.js';

describe('the confusables table', () => {
  it('maps single non-ASCII lowercase letters to one ASCII letter, never to themselves', () => {
    for (const [from, to] of Object.entries(CONFUSABLE_LETTERS)) {
      expect([...from], from).toHaveLength(1);
      expect(from.codePointAt(0)!, from).toBeGreaterThan(0x7f);
      expect(to).toMatch(/^[a-z]$/);
      expect(from.normalize('NFKC').toLowerCase(), `${from} survives NFKC and lower case`).toBe(from);
      expect(/\p{L}/u.test(from), `${from} is a letter`).toBe(true);
    }
  });
});

describe('look-alike names', () => {
  it.each([
    ['рdf', /mixes scripts \(Cyrillic, Latin\): it reads as "pdf" but holds Cyrillic р \(U\+0440\)/],
    ['dοcs', /mixes scripts \(Latin, Greek\): it reads as "docs"/],
    ['сор', /written in Cyrillic letters that look like Latin ones: it reads as "cop"/],
    ['ꮪꭺꮇ', /Cherokee letters .* reads as "sam"/],
    ['ѕlack-һelper', /reads as "slack-helper"/],
    ['данные-рdf', /mixes scripts \(Cyrillic, Latin\)/],
  ])('%s is reported', (name, says) => {
    expect(lookalikeProblem(name)?.message).toMatch(says);
  });

  it.each([
    'pdf',
    'web-scraping',
    'данные',
    'δεδομένα',
    '日本語-notes',
    'データ分析',
    '한국어-notes',
    'résumé',
    'tool-2',
  ])('%s is fine', (name) => {
    expect(lookalikeProblem(name)).toBeUndefined();
  });

  it('knows the scripts of a name and which mixes real writing uses', () => {
    expect(scriptsOf('日本語-notes')).toEqual(['Han', 'Latin']);
    expect(isMixedScript(scriptsOf('日本語-notes'))).toBe(false);
    expect(isMixedScript(scriptsOf('данные-data'))).toBe(true);
    expect(latinLookalike('ｐｄｆ')).toBe('pdf');
    // ASCII reads as itself, lower-cased; one look-alike letter in it is still replaced.
    expect(latinLookalike('PDF-Tools_1 ~')).toBe('pdf-tools_1 ~');
    expect(latinLookalike('PDF-Tооls')).toBe('pdf-tools');
  });

  it('groups names whose skeletons are the same', () => {
    expect(skeleton('rnail-1')).toBe('mail-l');
    expect(confusableGroups(['pdf', 'рdf', 'docs', 'pdf', 'mail', 'rnail', 'tool-2'])).toEqual([
      ['pdf', 'рdf'],
      ['mail', 'rnail'],
    ]);
  });
});
