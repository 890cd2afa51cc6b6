import { describe, expect, it } from 'vitest';
import { forTerminal, forTerminalLine, safeJson, writeSafeJson } from '../../../src/ui/terminal-text.js';
import { isSafeText, stripUnsafe, unsafeChars } from '../../../src/formats/unsafe-text.js';

const tag = (s: string) => [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');

describe('forTerminal', () => {
  it.each([
    ['OSC 52 clipboard write', '\u001b]52;c;aGk=\u0007', '\\x1b]52;c;aGk=\\x07'],
    ['window title', 'a\u001b]0;owned\u001b\\b', 'a\\x1b]0;owned\\x1b\\b'],
    ['cursor move and clear', '\u001b[2J\u001b[1;1H', '\\x1b[2J\\x1b[1;1H'],
    ['C1 CSI and DEL', 'x\u009b31m\u007f', 'x\\x9b31m\\x7f'],
    ['carriage return and backspace', 'ok\rno\b', 'ok\\x0dno\\x08'],
    ['right-to-left override', 'txt\u202eexe.doc', 'txt\\u202eexe.doc'],
    ['isolates', '\u2066a\u2069', '\\u2066a\\u2069'],
    ['zero-width space and word joiner', 'a\u200bb\u2060c', 'a\\u200bb\\u2060c'],
    ['tag characters', `hi${tag('ab')}`, 'hi\\u{e0061}\\u{e0062}'],
    ['a run of variation selectors', 'a\ufe0f\ufe0f', 'a\ufe0f\\ufe0f'],
    ['line separator', 'a\u2028b', 'a\\u2028b'],
  ])('escapes %s', (_what, input, output) => {
    expect(forTerminal(input)).toBe(output);
  });

  it.each([
    ['tabs and newlines', 'a\tb\nc'],
    ['Persian with a zero-width non-joiner', 'می‌خواهم'],
    ['an emoji sequence', '👩‍💻 and ❤️'],
    ['a subdivision flag', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
    ['accents and CJK', 'résumé 日本語'],
  ])('leaves %s alone', (_what, text) => {
    expect(forTerminal(text)).toBe(text);
    expect(isSafeText(text)).toBe(true);
    expect(stripUnsafe(text)).toBe(text);
  });

  it('classifies what it finds', () => {
    expect(unsafeChars('\u001b\u202e\u200b').map((c) => c.kind)).toEqual(['control', 'bidi', 'invisible']);
    // A flag's tags end with the cancel tag; without it they are hidden text.
    expect(unsafeChars(`🏴${tag('gbsct')}\u{e007f}`)).toHaveLength(0);
    expect(unsafeChars(`🏴${tag('gbsct')}`)).toHaveLength(5);
    expect(unsafeChars(`x${tag('gbsct')}\u{e007f}`)).toHaveLength(6);
  });
});

describe('safeJson', () => {
  it('writes C1, DEL, bidi and tag characters as \\u escapes, and keeps the data', () => {
    const value = { d: `a\u009b2J\u007f\u202e${tag('x')}\u001b` };
    const text = safeJson(value);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]|\udb40/);
    expect(text).toContain('\\u009b');
    expect(text).toContain('\\udb40\\udc78');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('writeSafeJson', () => {
  const written = async (value: unknown) => {
    const chunks: string[] = [];
    await writeSafeJson({ write: (s: string) => chunks.push(s) }, value);
    return chunks;
  };

  it('writes the bytes of safeJson and a newline, in pieces of about 64 KiB', async () => {
    const skills = Array.from({ length: 3000 }, (_, i) => ({
      path: `/p/s${i}`,
      id: `s${i}\u202e`,
      valid: i % 2 === 0,
      diagnostics: i % 3 ? [] : [{ message: 'm\u0085', line: i, nested: { a: [1, { b: null }], e: {} } }],
      skip: undefined,
    }));
    const doc = { skills, errorCount: 1, none: [], empty: {}, nothing: undefined, text: 'a\nb' };
    const chunks = await written(doc);
    expect(chunks.join('')).toBe(`${safeJson(doc)}\n`);
    expect(chunks.length).toBeGreaterThan(3);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(70_000);
  });

  it('writes other values whole, as safeJson does', async () => {
    for (const v of [null, 3, 'x\u009b', [1, [2]], {}, { a: undefined }])
      expect((await written(v)).join('')).toBe(`${safeJson(v)}\n`);
  });

  it('waits for a lagging reader to drain before the next piece', async () => {
    const events: string[] = [];
    let drain: (() => void) | undefined;
    const sink = {
      write: (s: string) => (events.push(`write ${s.length > 100 ? 'piece' : s.trim()}`), false),
      once: (_e: 'drain', listener: () => void) => void (drain = listener),
    };
    const doc = { skills: Array.from({ length: 2000 }, (_, i) => ({ id: `skill-${i}`, text: 'x'.repeat(40) })) };
    const done = writeSafeJson(sink, doc);
    await new Promise((r) => setTimeout(r, 10));
    expect(events).toEqual(['write piece']);
    drain!();
    await new Promise((r) => setTimeout(r, 10));
    expect(events).toHaveLength(2);
    for (let i = 0; i < 10 && drain; i++) {
      const d = drain;
      drain = undefined;
      d();
      await new Promise((r) => setTimeout(r, 1));
    }
    await done;
  });
});

describe('forTerminalLine', () => {
  it('writes a line break and a tab as \\n and \\t, and everything forTerminal escapes as it does', () => {
    expect(forTerminalLine('x.md\n✔ forged\tskill')).toBe('x.md\\n✔ forged\\tskill');
    expect(forTerminalLine('a\rb\u001b[2Jc')).toBe(forTerminal('a\rb\u001b[2Jc'));
    expect(forTerminalLine('plain name')).toBe('plain name');
  });
});
