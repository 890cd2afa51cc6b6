/** Error codes; main.ts maps them to exit codes (2 for all of them but E_CANCELLED, 130: the user's Ctrl-C). */
export type ErrorCode = 'E_USAGE' | 'E_NOT_FOUND' | 'E_IO' | 'E_EXISTS' | 'E_CONFIG' | 'E_INVALID' | 'E_CANCELLED';

/** An expected failure: what was wrong, where, and what to do (hint). */
export class SkillsError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;
  constructor(code: ErrorCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SkillsError';
    this.code = code;
    this.hint = options.hint;
  }
}

/** True for SkillsError: the build holds one copy of this class (test/e2e/package.test.ts), so instanceof works. */
export function isSkillsError(err: unknown): err is SkillsError {
  return err instanceof SkillsError;
}

/**
 * `v` (an option's or a variable's value, as typed) as a whole number from `min` to `max`; else a usage error that
 * names `what`.
 */
export function wholeNumber(what: string, v: string | number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof v === 'number' ? v : Number(v);
  // A whole number past the largest is not "not a whole number": say it is too large, and what the largest is.
  if (Number.isInteger(n) && n > max)
    throw new SkillsError('E_USAGE', `${what} is too large: "${v}"; the largest allowed is ${max}`);
  if (!Number.isInteger(n) || n < min) {
    throw new SkillsError(
      'E_USAGE',
      `${what} must be a whole number of at least ${min}${max < Number.MAX_SAFE_INTEGER ? ` and at most ${max}` : ''}, not "${v}"`,
    );
  }
  return n;
}
