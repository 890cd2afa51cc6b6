// One MCP server over the skills served: the extension, the tools, and the notice of a change. stdio is one
// client; HTTP (http.ts) makes one server per session over the same skill set.
import { SkillsError } from '../errors.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { EXTENSION, registerExtension } from './extension.js';
import { loadSdk, unreadRequestAnswer, type Sdk } from './sdk.js';
import type { AllowScripts } from './script-tools.js';
import type { SkillSet } from './skill-set.js';
import { registerTools } from './tools.js';

export interface ServeOptions {
  name: string;
  version: string;
  allow?: AllowScripts;
  timeoutSeconds: number;
  warn(line: string): void;
}

const INSTRUCTIONS =
  'This server serves agent skills: folders of instructions (SKILL.md) with references, assets and scripts. ' +
  "Call list_skills (with the user's request as query to pick the skills that fit), then load_skill to read a " +
  "skill's instructions before acting on it, and read_skill_file for the files it mentions. Clients with the " +
  'io.modelcontextprotocol/skills extension use skills/list, skills/get and resources/read of skill:// URIs.';

/** A server for one client. */
export function createServer(set: SkillSet, sdk: Sdk, options: ServeOptions): Server {
  const server = new sdk.Server(
    { name: options.name, version: options.version },
    {
      capabilities: {
        resources: { listChanged: true },
        tools: { listChanged: true },
        extensions: { [EXTENSION]: { directoryRead: true } },
      },
      instructions: INSTRUCTIONS,
    },
  );
  registerExtension(server, set, sdk, { warn: options.warn });
  registerTools(server, set, sdk, { allow: options.allow, timeoutSeconds: options.timeoutSeconds, warn: options.warn });
  return server;
}

/** Tell a client the skills changed: the resources always, the tools when scripts are tools. */
export async function notifyChanged(server: Server, options: Pick<ServeOptions, 'allow'>): Promise<void> {
  try {
    await server.sendResourceListChanged();
    if (options.allow) await server.sendToolListChanged();
  } catch {
    /* not connected (yet, or any more): nothing to tell */
  }
}

export interface StdioIO {
  stdin: Readable;
  stdout: Writable;
}

/**
 * Serve one client over stdio until its end of stdin closes (or `signal` aborts). `onServer` gets the server, to
 * notify it of changes.
 */
export async function serveStdio(
  set: SkillSet,
  options: ServeOptions,
  io: StdioIO,
  signal: AbortSignal,
  onServer: (server: Server | undefined) => void,
): Promise<void> {
  const sdk = await loadSdk();
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = createServer(set, sdk, options);
  const transport = new StdioServerTransport(io.stdin, io.stdout, { maxBufferSize: STDIO_MAX_MESSAGE });
  // What the SDK's transport cannot read is told on stderr: a line that is not JSON-RPC is skipped (the first few are
  // told), and a message longer than its buffer ends the connection, which ends the run with an error.
  let overflow: Error | undefined;
  let told = 0;
  server.onerror = (err) => {
    if (/ReadBuffer exceeded/.test(err.message)) overflow = err;
    else if (told < MAX_TOLD)
      options.warn(
        `warning: a line from the client was not read (${err.message.split('\n')[0]!.slice(0, 200)})${++told === MAX_TOLD ? '; further ones are not told' : ''}`,
      );
  };
  answerUnreadRequests(sdk, transport);
  await server.connect(transport);
  onServer(server);
  await new Promise<void>((done) => {
    const end = () => done();
    io.stdin.once('end', end).once('close', end);
    server.onclose = end;
    signal.addEventListener('abort', end, { once: true });
  });
  onServer(undefined);
  await server.close().catch(() => {});
  if (overflow)
    throw new SkillsError(
      'E_INVALID',
      `a message from the client was longer than ${STDIO_MAX_MESSAGE} bytes, the most serve reads over stdio; the connection was closed`,
      { hint: 'send large data as a file the skill reads, not inside a request', cause: overflow },
    );
}

/**
 * Answer a request line the SDK's reader cannot read instead of dropping it (see unreadRequestAnswer). The reader
 * is the SDK's; this looks at the line it is about to read, and when it throws, answers that line and reads on.
 */
function answerUnreadRequests(sdk: Sdk, transport: StdioServerTransport): void {
  const reader = (transport as unknown as { _readBuffer: { _buffer?: Buffer; readMessage(): JSONRPCMessage | null } })
    ._readBuffer;
  const read = reader.readMessage.bind(reader);
  reader.readMessage = () => {
    for (;;) {
      const end = reader._buffer?.indexOf('\n') ?? -1;
      const line = end < 0 ? undefined : reader._buffer!.toString('utf8', 0, end);
      try {
        return read();
      } catch (err) {
        const answer = line === undefined ? undefined : unreadRequestAnswer(sdk, parseOrUndefined(line));
        if (!answer) throw err;
        void transport.send(answer);
      }
    }
  };
}

function parseOrUndefined(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** The SDK's read buffer over stdio: a message longer than this closes the connection. */
const STDIO_MAX_MESSAGE = 10 * 1024 * 1024;
/** Unreadable lines told on stderr, at most. */
const MAX_TOLD = 5;

export type { Sdk };
