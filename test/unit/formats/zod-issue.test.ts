import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueMessage, issuePath } from '../../../src/formats/zod-issue.js';

const issueOf = (schema: z.ZodTypeAny, value: unknown) => schema.safeParse(value).error!.issues[0]!;

describe('issueMessage: one zod issue, one message, worded as the document asks', () => {
  const fields = z.object({ scripts: z.array(z.string()), kind: z.enum(['a', 'b']) }).strict();

  it("words a skill's fields plainly, with bracketed indexes", () => {
    expect(issueMessage(issueOf(fields, { scripts: [1], kind: 'a' }), { words: 'plain' })).toBe(
      'scripts[0] must be text, found a number',
    );
    expect(issueMessage(issueOf(fields, { kind: 'a' }), { words: 'plain' })).toBe('scripts is required');
    expect(issueMessage(issueOf(fields, { scripts: [], kind: 'c' }), { words: 'plain' })).toBe(
      'kind must be one of "a", "b"',
    );
    expect(issueMessage(issueOf(fields, { scripts: [], kind: 'c' }), { words: 'plain', booleanEnum: true })).toBe(
      'kind must be true or false, found "c"',
    );
    expect(issueMessage(issueOf(fields, { scripts: [], kind: 'a', x: 1, y: 2 }), { words: 'plain' })).toBe(
      'the entry has unknown keys "x", "y"',
    );
  });

  it("keeps zod's type names or its whole message when asked, with dotted paths and a name for the root", () => {
    expect(issueMessage(issueOf(fields, { scripts: 'x', kind: 'a' }), { words: 'named', dots: true })).toBe(
      'scripts must be array, found string',
    );
    expect(issueMessage(issueOf(fields, { scripts: [1], kind: 'a' }), { words: 'zod', dots: true })).toBe(
      'scripts.0: Expected string, received number',
    );
    expect(issueMessage(issueOf(z.string(), 1), { words: 'zod', root: 'the file' })).toBe(
      'the file: Expected string, received number',
    );
    expect(
      issueMessage(issueOf(fields, { scripts: [], kind: 'a', x: 1 }), { words: 'named', knownKeys: 'scripts, kind' }),
    ).toBe('unknown key "x" (expected scripts, kind)');
    expect(
      issueMessage(issueOf(z.object({ r: z.union([z.string(), z.number()]) }), { r: true }), {
        words: 'named',
        union: 'text or a number',
      }),
    ).toBe('r must be text or a number');
  });

  it('writes paths both ways', () => {
    expect(issuePath(['mcpServers', 1, 'url'])).toBe('mcpServers[1].url');
    expect(issuePath(['mcpServers', 1, 'url'], true)).toBe('mcpServers.1.url');
  });
});
