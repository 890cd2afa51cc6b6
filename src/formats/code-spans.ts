// Code spans in one line of Markdown (CommonMark's backtick runs, paired by length), blanked so that what they hold
// is not read as links or paths.

/** The line with the contents of its code spans blanked, so links inside code are not read as links. */
export function maskCodeSpans(line: string): string {
  if (!line.includes('`')) return line;
  const runs: [number, number][] = [];
  for (let i = 0; i < line.length;) {
    if (line[i] === '\\' && line[i + 1] === '`') {
      i += 2;
      continue;
    }
    if (line[i] !== '`') {
      i++;
      continue;
    }
    let j = i;
    while (j < line.length && line[j] === '`') j++;
    runs.push([i, j - i]);
    i = j;
  }
  // Pair each run with the next run of the same length; pointers only move forward, so this is linear.
  const byLen = new Map<number, number[]>();
  runs.forEach(([, n], k) => {
    const l = byLen.get(n);
    if (l) l.push(k);
    else byLen.set(n, [k]);
  });
  const ptr = new Map<number, number>();
  const masks: [number, number][] = [];
  for (let k = 0; k < runs.length;) {
    const [start, n] = runs[k]!;
    const list = byLen.get(n)!;
    let p = ptr.get(n) ?? 0;
    while (p < list.length && list[p]! <= k) p++;
    ptr.set(n, p);
    if (p === list.length) {
      k++;
      continue;
    }
    const close = list[p]!;
    masks.push([start + n, runs[close]![0]]);
    k = close + 1;
  }
  return maskRanges(line, masks);
}

/** The line with each range's characters blanked. */
export function maskRanges(line: string, ranges: [number, number][]): string {
  if (ranges.length === 0) return line;
  let s = '';
  let at = 0;
  for (const [a, b] of ranges) {
    s += line.slice(at, a) + ' '.repeat(b - a);
    at = b;
  }
  return s + line.slice(at);
}
