// `skills serve`'s work: the skill set, the watcher that keeps it current and tells clients, and the transport.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Readable, Writable } from 'node:stream';
import { serveHttp, type HttpOptions } from './http.js';
import { notifyChanged, serveStdio, type ServeOptions } from './server.js';
import { SkillSet } from './skill-set.js';
import type { SkillSource } from './source.js';
import { watchFolders, type Watched } from './watch.js';

export interface ServeRequest extends ServeOptions {
  /** Streamable HTTP instead of stdio. */
  http?: HttpOptions;
  /** The folders to watch (none: no live updates). */
  watched?: Watched;
  /** Ends the server (the CLI wires SIGINT and SIGTERM to it). */
  signal: AbortSignal;
  /** Told once the server is ready: the HTTP URL, or undefined for stdio. */
  ready?(url: string | undefined, skills: number): void;
}

export interface ServeIO {
  stdin: Readable;
  stdout: Writable;
}

export interface ServeResult {
  /** The skills served at the start. */
  skills: number;
  url?: string;
}

/** Serve the skills until the client goes (stdio) or the signal aborts; nothing is printed but through `warn`. */
export async function serveSkills(source: SkillSource, request: ServeRequest, io: ServeIO): Promise<ServeResult> {
  const set = new SkillSet(source, request.warn);
  const first = set.current();
  // The skills served are those whose entry reads (SkillSet.current leaves out, with a warning, the others).
  const served = first.listed.length;
  const servers = new Set<Server>();
  const stopWatching = request.watched
    ? watchFolders(request.watched, (paths) => {
        set.invalidate(paths);
        for (const s of servers) void notifyChanged(s, request);
      })
    : () => {};
  try {
    if (request.http) {
      let url: string | undefined;
      await serveHttp(set, request, request.http, request.signal, servers, (u) => {
        url = u;
        request.ready?.(u, served);
      });
      return { skills: served, url };
    }
    await serveStdio(set, request, io, request.signal, (s) => {
      if (s) {
        servers.add(s);
        request.ready?.(undefined, served);
      } else servers.clear();
    });
    return { skills: served };
  } finally {
    stopWatching();
  }
}
