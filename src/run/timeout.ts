import { SkillsError } from '../errors.js';

export const DEFAULT_TIMEOUT_SECONDS = 60;

const MAX_TIMER_MS = 2 ** 31 - 1;

/** --timeout in seconds: DEFAULT_TIMEOUT_SECONDS when not given. */
export function parseTimeout(v: string | number | undefined): number {
  if (v === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const n = typeof v === 'number' ? v : Number(v.trim() === '' ? NaN : v);
  // Node's timers hold at most 2^31-1 ms (about 24.8 days); a longer one would fire at once.
  if (!Number.isFinite(n) || n <= 0 || n * 1000 > MAX_TIMER_MS) {
    throw new SkillsError(
      'E_USAGE',
      `--timeout must be a number of seconds greater than 0 and at most ${Math.floor(MAX_TIMER_MS / 1000)}, not "${v}"`,
      { hint: 'e.g. --timeout 30 (the default is 60)' },
    );
  }
  return n;
}
