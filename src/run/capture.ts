import type { Flow } from '../proc/process-group.js';
import { ByteMasker } from './mask.js';

/** Output kept (and passed through) per stream, after masking; the rest is read and dropped. */
export const MAX_OUTPUT_BYTES = 1024 * 1024;

/** A line of stdout longer than this is not read as a result line. */
export const MAX_RESULT_LINE_BYTES = MAX_OUTPUT_BYTES;

/** Where the script's (masked) output goes live; `write` returning false pauses the script's stream until 'drain'. */
export interface Sink {
  write(chunk: Uint8Array | string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/** Why a line that may be the result line was not read: over MAX_RESULT_LINE_BYTES, or over MAX_RESULT_DEPTH deep. */
export type UnreadResult = 'long' | 'deep';

export interface ScriptResultLine {
  success: boolean;
  result?: unknown;
  error?: unknown;
}

/**
 * How deep a result line's values may nest: as deep as Python's json module reads and writes (its recursion limit).
 * JSON.parse reads any depth, but what a run hands back is written again (JSON.stringify, the MCP transport), which
 * recurses and runs out of stack some thousands of levels down: a stranger's script must not crash the run.
 */
export const MAX_RESULT_DEPTH = 1000;

/** True when the JSON text nests arrays and objects more than MAX_RESULT_DEPTH deep (strings skipped). */
function tooDeep(line: string): boolean {
  // Most lines are shallow: fewer brackets than the limit cannot nest past it.
  let open = 0;
  for (let i = line.indexOf('[') + 1; i > 0 && open <= MAX_RESULT_DEPTH; i = line.indexOf('[', i) + 1) open++;
  for (let i = line.indexOf('{') + 1; i > 0 && open <= MAX_RESULT_DEPTH; i = line.indexOf('{', i) + 1) open++;
  if (open <= MAX_RESULT_DEPTH) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_RESULT_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A line read for a result: a JSON object with a boolean `success`, 'deep' (one that nests too deep), or neither. */
function readResultLine(text: string): ScriptResultLine | 'deep' | undefined {
  const line = text.trim();
  if (!line.startsWith('{') || !line.endsWith('}')) return undefined;
  // The key "success" is in the text as it is, or with \u escapes.
  if (!line.includes('success') && !line.includes('\\u')) return undefined;
  if (tooDeep(line)) return 'deep';
  try {
    const v = JSON.parse(line) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as ScriptResultLine).success === 'boolean')
      return v as ScriptResultLine;
  } catch {
    /* not JSON */
  }
  return undefined;
}

/** A line that is a JSON object with a boolean `success` (nesting at most MAX_RESULT_DEPTH deep), or undefined. */
export function resultLineOf(text: string): ScriptResultLine | undefined {
  const line = readResultLine(text);
  return line === 'deep' ? undefined : line;
}

/** The last line of stdout that parses as `{success: boolean, …}`. */
export function lastResultLine(stdout: string): ScriptResultLine | undefined {
  const lines = stdout.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = resultLineOf(lines[i]!);
    if (line) return line;
  }
  return undefined;
}

/**
 * Reads the result line from the whole of stdout as it streams, past the 1 MB that is kept, holding one line
 * (at most MAX_RESULT_LINE_BYTES) at a time. A longer line that may be a result line makes the result unknown,
 * until a later result line is read.
 */
export class ResultLineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private long = false;
  /** The last result line read (unmasked). */
  last: ScriptResultLine | undefined;
  /** A line that may be a result line came after `last` and was not read: too long, or nesting too deep. */
  unreadable: UnreadResult | undefined;

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl));
      this.line();
      start = nl + 1;
    }
    this.take(chunk.subarray(start));
  }

  end(): void {
    if (this.size > 0 || this.long) this.line();
  }

  private take(piece: Buffer): void {
    if (this.long || piece.length === 0) return;
    const room = MAX_RESULT_LINE_BYTES - this.size;
    if (piece.length > room) this.long = true;
    const kept = piece.subarray(0, room);
    this.parts.push(kept);
    this.size += kept.length;
  }

  private line(): void {
    const text = Buffer.concat(this.parts).toString('utf8');
    if (this.long) {
      const head = text.trimStart();
      if (head === '' || head.startsWith('{')) this.unreadable = 'long';
    } else {
      const line = readResultLine(text);
      if (line === 'deep') this.unreadable = 'deep';
      else if (line) {
        this.last = line;
        this.unreadable = undefined;
      }
    }
    this.parts = [];
    this.size = 0;
    this.long = false;
  }
}

/**
 * Collects one stream: masks it (on bytes, so binary output passes through unchanged), then caps it at
 * MAX_OUTPUT_BYTES, passes it through and keeps it. With `results`, reads the result line from all of it.
 */
export class Capture {
  private readonly masker: ByteMasker;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private readBytes = 0;
  readonly results: ResultLineReader | undefined;
  constructor(
    mask: readonly string[],
    private readonly sink: Sink | undefined,
    options: { results?: boolean } = {},
  ) {
    this.masker = new ByteMasker(mask);
    if (options.results) this.results = new ResultLineReader();
  }

  add(chunk: Buffer, flow: Flow): void {
    this.readBytes += chunk.length;
    this.results?.push(chunk);
    if (this.keptBytes < MAX_OUTPUT_BYTES) this.emit(this.masker.push(chunk, MAX_OUTPUT_BYTES - this.keptBytes), flow);
  }

  finish(): void {
    this.results?.end();
    if (this.keptBytes < MAX_OUTPUT_BYTES) this.emit(this.masker.end(MAX_OUTPUT_BYTES - this.keptBytes));
  }

  /** Bytes read and not kept (after `finish`): more than 0 when the stream was cut. */
  get dropped(): number {
    return this.readBytes - this.masker.consumed;
  }

  /** What was kept, masked. */
  get bytes(): Buffer {
    return Buffer.concat(this.kept);
  }

  private emit(bytes: Buffer, flow?: Flow): void {
    if (bytes.length === 0) return;
    this.kept.push(bytes);
    this.keptBytes += bytes.length;
    if (this.sink && !this.sink.write(bytes) && flow) {
      flow.pause();
      this.sink.once('drain', flow.resume);
    }
  }
}
