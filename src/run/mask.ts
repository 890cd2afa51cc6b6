// Secret values masked in everything run-script hands back: the script's output, live and kept, and its messages.

/** A value shorter than this is not masked: masking "a" or "1" would garble every line and hide nothing. */
export const MIN_SECRET_LENGTH = 4;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The strings to mask for some secret values: each of at least MIN_SECRET_LENGTH, also as JSON escapes it; longest
 * first.
 */
export function maskList(values: string[]): string[] {
  const set = new Set<string>();
  for (const v of values) {
    if (v.length < MIN_SECRET_LENGTH) continue;
    set.add(v);
    const escaped = JSON.stringify(v).slice(1, -1);
    if (escaped !== v) set.add(escaped);
  }
  return [...set].sort((a, b) => b.length - a.length);
}

/** Replace every secret in a finished text with ***. */
export function maskText(text: string, secrets: string[]): string {
  if (secrets.length === 0) return text;
  return text.replace(new RegExp(secrets.map(escapeRe).join('|'), 'g'), '***');
}

/**
 * A masker for a stream of text: a secret split across two chunks is still masked, because the end of a chunk
 * that could be the start of a secret is held back until the next chunk (or `end`) tells.
 */
export class StreamMasker {
  private pending = '';
  private readonly re: RegExp | undefined;
  private readonly longest: number;
  constructor(private readonly secrets: string[]) {
    this.re = secrets.length > 0 ? new RegExp(secrets.map(escapeRe).join('|'), 'g') : undefined;
    this.longest = Math.max(0, ...secrets.map((s) => s.length));
  }

  /** Masked text that is safe to emit now. */
  push(chunk: string): string {
    if (!this.re) return chunk;
    const text = this.pending + chunk;
    let out = '';
    let last = 0;
    for (const m of text.matchAll(this.re)) {
      out += `${text.slice(last, m.index)}***`;
      last = m.index! + m[0].length;
    }
    // Hold back the earliest tail that is a proper prefix of a secret: from there a secret may still complete.
    let hold = text.length;
    for (let p = Math.max(last, text.length - this.longest + 1); p < text.length; p++) {
      const tail = text.slice(p);
      if (this.secrets.some((s) => s.length > tail.length && s.startsWith(tail))) {
        hold = p;
        break;
      }
    }
    this.pending = text.slice(hold);
    return out + text.slice(last, hold);
  }

  /** The rest, at the end of the stream. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return maskText(rest, this.secrets);
  }
}
