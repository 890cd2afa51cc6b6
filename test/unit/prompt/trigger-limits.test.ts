import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { MAX_PATTERN_COST, patternCost } from '../../../src/formats/trigger-limits.js';
import { requiredLiteral, toRe2 } from '../../../src/prompt/trigger-patterns.js';

describe('patternCost', () => {
  it.each([
    ['scrap(e|ing)\\s+\\w+', 20],
    ['\\d{4}-\\d{2}-\\d{2}', 20],
    ['prices?', 10],
    ['[a-z]{2,50}', 60],
  ])('a common pattern %s stays small (under %i)', (p, under) => {
    expect(patternCost(p)).toBeLessThan(under);
  });

  it.each([
    ['[\\s\\S]{1000}q{1000}', 2000],
    ['(?:[a-z]{1,100}){1,100}', 10_000],
    ['((a{10}){10}){10}', 1000],
    ['(?:x{0,999})', 999],
  ])('a large or nested repetition %s costs at least %i', (p, atLeast) => {
    expect(patternCost(p)).toBeGreaterThanOrEqual(atLeast);
  });

  it('is never more than 1e9, however deep the nesting', () => {
    expect(patternCost('(((((a{1000}){1000}){1000}){1000}){1000})')).toBe(1e9);
  });

  it('grows with what RE2 compiles: a pattern over the limit takes longer to compile and match', () => {
    const cheap = '[a-z]{1,50}x';
    const dear = '[a-z]{1,900}x{1,900}';
    expect(patternCost(cheap)).toBeLessThan(MAX_PATTERN_COST);
    expect(patternCost(dear)).toBeGreaterThan(MAX_PATTERN_COST);
    const time = (p: string) => {
      const start = performance.now();
      for (let i = 0; i < 5; i++) RE2JS.compile(`${p}${i}`).matcher('ab '.repeat(600)).find();
      return performance.now() - start;
    };
    expect(time(dear)).toBeGreaterThan(time(cheap));
  });
});

describe('requiredLiteral reads escapes as one character, never as letters', () => {
  it.each([
    ['\\x24\\d+', undefined],
    ['price\\x24', 'price'],
    ['\\x2410', '10'],
    ['\\u0024abc', 'abc'],
    ['\\u{1F600}ab', 'ab'],
    ['\\x{24}cd', 'cd'],
    ['\\p{Lu}xy', 'xy'],
    ['\\pLxy', 'xy'],
    ['\\cJok', 'ok'],
    ['[\\x5d]]ab', 'ab'],
    ['[[:alpha:]]+zz', 'zz'],
    ['\\d\\w\\s\\bword', 'word'],
  ])('%s → %s', (pattern, literal) => {
    expect(requiredLiteral(pattern)).toBe(literal);
  });
});

describe('toRe2', () => {
  it.each([
    ['\\u0024\\d', '\\x{0024}\\d', '$4'],
    ['\\u{1F600}', '\\x{1F600}', '😀'],
    ['\\ud83d\\ude00', '\\x{1f600}', '😀'],
    ['a\\cJb', 'a\\x{a}b', 'a\nb'],
    ['\\\\u0024', '\\\\u0024', '\\u0024'],
  ])('%s → %s, which matches what JavaScript matches', (js, re2, text) => {
    expect(toRe2(js)).toBe(re2);
    expect(RE2JS.compile(toRe2(js)).matcher(text).find()).toBe(true);
  });
});
