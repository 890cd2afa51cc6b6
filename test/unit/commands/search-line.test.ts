import { expect, it } from 'vitest';
import { shortened } from '../../../src/commands/search.js';

it("keeps a search line's description to 200 characters, cut with an ellipsis, never inside a character", () => {
  expect(shortened('Sort invoices by date.')).toBe('Sort invoices by date.');
  expect(shortened('x'.repeat(200))).toBe('x'.repeat(200));
  const long = shortened('y'.repeat(100_000));
  expect(long).toBe(`${'y'.repeat(199)}…`);
  // Characters outside the BMP count as one each and are not split.
  const emoji = shortened('😀'.repeat(300));
  expect([...emoji]).toHaveLength(200);
  expect(emoji.endsWith('😀…')).toBe(true);
});
