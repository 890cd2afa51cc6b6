import { escapeChar, replaceUnsafe } from '../formats/unsafe-text.js';

// Every human-readable printer passes what came from a skill (names, descriptions, messages that quote them,
// paths) through here, so a skill cannot write escape sequences to the user's terminal: control, bidirectional and
// invisible characters (formats/unsafe-text.ts) are shown as escapes (\x1b, \u202e) instead.

/** Text for a terminal: each unsafe character written as a visible escape. */
export function forTerminal(text: string): string {
  return replaceUnsafe(text, (c) => escapeChar(c.cp));
}

/**
 * Text for one line of a terminal (a path, a name, a finding's message): forTerminal, and a line break or a tab
 * written as \n and \t too, so that a file named `x\n✔ forged-skill` cannot print a line of its own.
 */
export function forTerminalLine(text: string): string {
  const safe = forTerminal(text);
  return /[\n\t]/.test(safe) ? safe.replace(/\n/g, '\\n').replace(/\t/g, '\\t') : safe;
}

/**
 * A JSON document whose text carries no unsafe character: JSON.stringify escapes C0 controls but passes C1
 * controls, DEL and bidirectional overrides through raw. The same data, written with \u escapes.
 */
export function safeJson(value: unknown, indent = 2): string {
  return replaceUnsafe(JSON.stringify(value, null, indent), (c) =>
    c.length === 2 ? `${u(0xd800 + ((c.cp - 0x10000) >> 10))}${u(0xdc00 + ((c.cp - 0x10000) & 0x3ff))}` : u(c.cp),
  );
}

const u = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;

/** Where writeSafeJson writes: a stream (whose write returns false when the reader lags behind), or a test's sink. */
export interface JsonSink {
  write(s: string): unknown;
  once?(event: 'drain', listener: () => void): unknown;
}

/**
 * safeJson(value) + '\n', written in pieces of about 64 KiB: each element of an array at the top level of `value`
 * (the skills of a report) is turned into text in turn, so that 100,000 skills never make one string of the whole
 * document; when the reader lags (a pipe), the next piece waits for it to drain. The bytes are those of safeJson.
 */
export async function writeSafeJson(out: JsonSink, value: unknown): Promise<void> {
  let buffer = '';
  const flush = async () => {
    const s = buffer;
    buffer = '';
    if (out.write(s) === false && out.once) await new Promise<void>((resolve) => out.once!('drain', resolve));
  };
  const put = async (s: string) => {
    buffer += s;
    if (buffer.length >= 65_536) await flush();
  };
  const nested = (v: unknown, depth: number) => safeJson(v).replace(/\n/g, `\n${'  '.repeat(depth)}`);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) await put(safeJson(value));
  else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).filter((k) => {
      const v = record[k];
      return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
    });
    if (keys.length === 0) await put('{}');
    else {
      await put('{');
      for (const [i, k] of keys.entries()) {
        const v = record[k];
        await put(`${i > 0 ? ',' : ''}\n  ${safeJson(k)}: `);
        if (Array.isArray(v) && v.length > 0) {
          await put('[');
          for (const [j, e] of v.entries())
            await put(`${j > 0 ? ',' : ''}\n    ${e === undefined ? 'null' : nested(e, 2)}`);
          await put('\n  ]');
        } else await put(nested(v, 1));
      }
      await put('\n}');
    }
  }
  await put('\n');
  if (buffer !== '') await flush();
}
