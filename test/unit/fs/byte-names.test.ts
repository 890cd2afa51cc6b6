import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../../src/fs/byte-names.js';

describe('escapeBytes', () => {
  it.each([
    [[0x62, 0x61, 0x64, 0xff], 'bad\\xff'],
    // A valid character stays itself; a lead byte without its continuation is escaped alone.
    [[0x63, 0x61, 0x66, 0xc3, 0xa9, 0xe9], 'café\\xe9'],
    [[0xe2, 0x82], '\\xe2\\x82'],
    [[0xf0, 0x9f, 0x98, 0x80, 0x80], '😀\\x80'],
    // An overlong form (C0 80) is not UTF-8.
    [[0xc0, 0x80], '\\xc0\\x80'],
  ])('%j is shown as %s', (raw, shown) => {
    expect(escapeBytes(Buffer.from(raw))).toBe(shown);
  });
});
