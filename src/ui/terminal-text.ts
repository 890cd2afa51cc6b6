import { escapeChar, replaceUnsafe } from '../formats/unsafe-text.js';

// Every human-readable printer passes what came from a skill (names, descriptions, messages that quote them,
// paths) through here, so a skill cannot write escape sequences to the user's terminal: control, bidirectional and
// invisible characters (formats/unsafe-text.ts) are shown as escapes (\x1b, \u202e) instead.

/** Text for a terminal: each unsafe character written as a visible escape. */
export function forTerminal(text: string): string {
  return replaceUnsafe(text, (c) => escapeChar(c.cp));
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
