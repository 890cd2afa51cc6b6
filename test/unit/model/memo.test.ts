import { describe, expect, it } from 'vitest';
import { onceEach } from '../../../src/model/memo.js';

describe('onceEach', () => {
  it('works a key out once and gives the same value after', () => {
    const cache = new Map<string, { n: number } | null>();
    let calls = 0;
    const work = (k: string) => ({ n: (calls++, k.length) });
    const a = onceEach(cache, 'abc', work);
    expect(a).toEqual({ n: 3 });
    expect(onceEach(cache, 'abc', work)).toBe(a);
    expect(onceEach(cache, 'de', work)).toEqual({ n: 2 });
    expect(calls).toBe(2);
  });

  it('keeps a failure as null and does not try it again', () => {
    const cache = new Map<string, number | null>();
    let calls = 0;
    const work = (): number => {
      calls++;
      throw new Error('no');
    };
    expect(onceEach(cache, 'x', work)).toBeNull();
    expect(onceEach(cache, 'x', work)).toBeNull();
    expect(calls).toBe(1);
    expect(cache.get('x')).toBeNull();
  });
});
