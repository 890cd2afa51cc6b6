import { StringDecoder } from 'node:string_decoder';
import type { Flow } from '../proc/process-group.js';
import { StreamMasker } from './mask.js';

/** Output kept (and passed through) per stream; the rest is read and dropped. */
export const MAX_OUTPUT_BYTES = 1024 * 1024;

/** Where the script's (masked) output goes live; `write` returning false pauses the script's stream until 'drain'. */
export interface Sink {
  write(text: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/** Collects one stream: caps it, masks it, passes it through, keeps it. */
export class Capture {
  private readonly decoder = new StringDecoder('utf8');
  private readonly masker: StreamMasker;
  private readonly parts: string[] = [];
  bytes = 0;
  dropped = 0;
  constructor(
    mask: string[],
    private readonly sink: Sink | undefined,
  ) {
    this.masker = new StreamMasker(mask);
  }
  add(chunk: Buffer, flow: Flow): void {
    const room = MAX_OUTPUT_BYTES - this.bytes;
    if (room <= 0) {
      this.dropped += chunk.length;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.dropped += chunk.length - kept.length;
    this.bytes += kept.length;
    this.emit(this.masker.push(this.decoder.write(kept)), flow);
  }
  finish(): void {
    this.emit(this.masker.push(this.decoder.end()));
    this.emit(this.masker.end());
  }
  private emit(text: string, flow?: Flow): void {
    if (text === '') return;
    this.parts.push(text);
    if (this.sink && !this.sink.write(text) && flow) {
      flow.pause();
      this.sink.once('drain', flow.resume);
    }
  }
  get text(): string {
    return this.parts.join('');
  }
}
