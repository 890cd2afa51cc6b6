// What a YAML reader that types plain scalars (YAML 1.1, as PyYAML; or 1.2's core schema) takes a value for, where
// skills reads every scalar as text (SK017).

// A YAML 1.1 timestamp (2024-01-01, 2024-01-01T10:00:00Z, 2024-01-01 10:00:00 +2): a date to PyYAML and others.
const TIMESTAMP =
  /^\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?$/;
// The words are typed in these three spellings only (PyYAML's resolver and YAML 1.2's core schema): `TRUE` and `Null`
// are, `tRUE` is text. Numbers: decimal, YAML 1.1's binary (0b), octal (0o, or a leading 0), hexadecimal, and base 60
// (`1:30` is 90 to PyYAML).
const WORDS = ['true', 'false', 'yes', 'no', 'on', 'off', 'null']
  .flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1), w.toUpperCase()])
  .join('|');
const LOOKS_TYPED = new RegExp(
  `^(?:${WORDS}|~|[-+]?(?:\\d[\\d_]*)(?:\\.\\d*)?(?:[eE][-+]?\\d+)?|[-+]?\\.\\d+|0x[0-9a-fA-F_]+|0o[0-7]+|0b[01_]+|` +
    `[-+]?[1-9][\\d_]*(?::[0-5]?\\d)+(?:\\.[\\d_]*)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$`,
);

/** Whether a plain scalar whose first word is `word` can be typed at all (a cheap test before its whole token). */
export function mayBeTyped(word: string): boolean {
  return LOOKS_TYPED.test(word) || /^\d{4}-\d\d?-\d\d?(?:[Tt]|$)/.test(word);
}

/** What such a reader takes the plain scalar `token` for ("a boolean", "a number" …), or undefined: text. */
export function typedAs(token: string): string | undefined {
  if (TIMESTAMP.test(token)) return 'a date (a YAML 1.1 timestamp)';
  if (!LOOKS_TYPED.test(token)) return undefined;
  if (/^(?:true|false|yes|no|on|off)$/i.test(token)) return 'a boolean';
  if (/^(?:null|~)$/i.test(token)) return "YAML's null (no value)";
  return 'a number';
}
