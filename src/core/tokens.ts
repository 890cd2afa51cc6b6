// Token counts with gpt-tokenizer's o200k_base (Claude's tokenizer is not public; o200k_base is a close,
// real BPE). Its tables take a while to load, so it is loaded only when there is something to count.

export type CountTokens = (text: string) => number;

// BPE time grows with the square of a pre-token's length: one 100 KB run without a break (a data URI, a line of
// spaces) takes seconds, and a skill file may hold 4 MiB. Longer runs are counted in slices of this many characters,
// which can put the count off by about a token per slice, on text that is far over any budget anyway.
const RUN = 1000;

const isSpace = (c: number) =>
  (c >= 9 && c <= 13) || c === 32 || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;

/** The pieces a text is counted in: itself, or around runs longer than RUN, those runs cut into slices of RUN. */
function pieces(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  let runStart = 0;
  let runSpace = false;
  for (let i = 0; i <= text.length; i++) {
    const space = i < text.length && isSpace(text.charCodeAt(i));
    if (i < text.length && space === runSpace) continue;
    if (i - runStart > RUN) {
      out.push(text.slice(from, runStart));
      for (let j = runStart; j < i; ) {
        let end = Math.min(i, j + RUN);
        // Never cut a surrogate pair in two.
        if (end < i && (text.charCodeAt(end) & 0xfc00) === 0xdc00) end++;
        out.push(text.slice(j, end));
        j = end;
      }
      from = i;
    }
    runStart = i;
    runSpace = space;
  }
  out.push(text.slice(from));
  return out;
}

let loaded: CountTokens | undefined;

/** The o200k_base counter (loaded on first call); any text is safe to give it, however long its runs. */
export async function tokenCounter(): Promise<CountTokens> {
  if (!loaded) {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    // Special tokens such as <|endoftext|> in a skill are counted as the plain text they are, never thrown on.
    const plain = { disallowedSpecial: new Set<string>() };
    loaded = (text) => {
      let n = 0;
      for (const p of pieces(text)) if (p !== '') n += countTokens(p, plain);
      return n;
    };
  }
  return loaded;
}
