// Who uses a skill, as the registry's usedBy records it: a name (an agent, a project: content-creator), or the
// absolute path of a project's folder, which an install that places copies records. Consumers are shown in lists
// and refusals, so they are short, printable, and never a relative path.
import { isAbsolute } from 'node:path';

/** The longest consumer name, in characters. */
export const CONSUMER_MAX = 100;
/** The longest project path a consumer can be, in characters. */
export const CONSUMER_PATH_MAX = 1024;

/** What a consumer is, for messages. */
export const CONSUMER_RULE = `a name of at most ${CONSUMER_MAX} characters without "/", "\\" or control characters (content-creator, claude-code), or the absolute path of a project's folder`;

/** Why `who` (trimmed) cannot be a consumer, or undefined when it can. */
export function consumerProblem(who: string): string | undefined {
  if (who === '') return 'is empty';
  if (/[\p{Cc}\p{Cf}]/u.test(who)) return 'holds a control or formatting character';
  const length = [...who].length;
  if (isAbsolute(who)) {
    if (length > CONSUMER_PATH_MAX) return `is a path of ${length} characters (the limit is ${CONSUMER_PATH_MAX})`;
    if (who.split(/[\\/]/).some((s) => s === '..')) return 'is a path with a ".." segment';
    return undefined;
  }
  if (length > CONSUMER_MAX) return `is ${length} characters long (the limit is ${CONSUMER_MAX})`;
  const sep = /[\\/]/.exec(who);
  if (sep) return `holds "${sep[0]}", a path separator (a project is recorded by its absolute path)`;
  if (/^\.+$/.test(who)) return 'is made of dots alone';
  return undefined;
}

/** A consumer as a message quotes it: at most 40 characters of it. */
export function quoteConsumer(who: string): string {
  const chars = [...who];
  return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : who);
}
