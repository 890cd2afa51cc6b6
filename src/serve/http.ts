// Streamable HTTP: one MCP session per client (a server and a transport each, over the one skill set), on
// 127.0.0.1 unless --host says otherwise. Every request is checked before the SDK sees it: the path (/mcp), the
// Host and Origin headers against DNS rebinding (the SDK's own options for this are deprecated in favour of such
// a check in front of it), and the bearer token when one is set.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SkillsError } from '../errors.js';
import { loadSdk, unreadRequestAnswer } from './sdk.js';
import { createServer, type ServeOptions } from './server.js';
import { Sessions } from './sessions.js';
import type { SkillSet } from './skill-set.js';

export interface HttpOptions {
  port: number;
  host: string;
  /** Required as `Authorization: Bearer <token>` on every request when set. */
  token?: string;
  /** More Host names to accept (a name the server is reached by besides its address and localhost). */
  allowHosts: string[];
  /** More Origins to accept (a browser page allowed to call it). */
  allowOrigins: string[];
  /** Close a session no request has used for this many milliseconds. */
  sessionIdleMs: number;
  /** At most this many open sessions; past it the one used least recently is closed. */
  maxSessions: number;
}

export const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How much of a body over MAX_BODY_BYTES is read and let go after the 413, before the connection is closed. */
const MAX_DRAIN_BYTES = 16 * 1024 * 1024;
/** How long a connection ended for a body past the drain is still read before it is closed. */
const LINGER_MS = 1000;
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/** True when a --host value keeps the server to this machine. */
export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
}

/**
 * Serve until `signal` aborts. `listening` gets the URL once the port is bound; `servers` is the live set of
 * per-session servers, to notify of changes.
 */
export async function serveHttp(
  set: SkillSet,
  options: ServeOptions,
  http: HttpOptions,
  signal: AbortSignal,
  servers: Set<Server>,
  listening: (url: string) => void,
): Promise<void> {
  const sdk = await loadSdk();
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const sessions = new Sessions<{ transport: StreamableHTTPServerTransport; server: Server }>(
    { idleMs: http.sessionIdleMs, max: http.maxSessions },
    (s) => void s.server.close().catch(() => {}),
  );
  const sweep = setInterval(() => sessions.expire(), Math.min(http.sessionIdleMs, 60_000));
  sweep.unref();
  let hosts = new Set<string>();
  let origins = new Set<string>();

  const reply = (
    res: ServerResponse,
    status: number,
    code: number,
    message: string,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) return reply(res, 404, -32000, `not found: the MCP endpoint is ${MCP_PATH}`);
    const host = req.headers.host;
    if (!host || !hosts.has(host.toLowerCase()))
      return reply(
        res,
        403,
        -32000,
        `Host ${JSON.stringify(host ?? '')} is not allowed (DNS rebinding protection); allowed: ${[...hosts].join(', ')}`,
      );
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase()))
      return reply(
        res,
        403,
        -32000,
        `Origin ${JSON.stringify(origin)} is not allowed; start the server with --allow-origin ${origin} to allow it`,
      );
    if (http.token !== undefined && !bearerMatches(req.headers.authorization, http.token))
      return reply(
        res,
        401,
        -32001,
        'a bearer token is required: send Authorization: Bearer <token> (the --token or SKILLS_SERVE_TOKEN of the server)',
        {
          'www-authenticate': 'Bearer realm="skills"',
        },
      );
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const s = sessions.get(id);
      if (!s)
        return reply(
          res,
          404,
          -32001,
          'Session not found (it was closed, or expired after being idle): initialize a new session',
        );
      // The listening GET stream stays open for as long as the client is connected: it neither uses nor keeps the
      // session, or no connected client would ever be idle.
      if (req.method !== 'GET') {
        sessions.begin(id);
        res.once('close', () => sessions.end(id));
      }
      if (req.method !== 'POST') return s.transport.handleRequest(req, res);
      const posted = await readJson(req, res);
      if (!posted) return;
      cancelOnDrop(posted.messages, res, s.transport);
      return s.transport.handleRequest(req, res, posted.body);
    }
    if (req.method !== 'POST') return reply(res, 400, -32000, 'no session: POST an initialize request first');
    const posted = await readJson(req, res);
    if (!posted) return;
    const { body, messages } = posted;
    if (!messages.some((m) => sdk.types.isInitializeRequest(m)))
      return reply(res, 400, -32000, 'no session: the first request of a session is initialize');
    if (!sessions.makeRoom())
      return reply(
        res,
        503,
        -32000,
        `too many sessions: all ${http.maxSessions} open sessions have a request running; try again when one ends, or start the server with a higher --max-sessions`,
        { 'retry-after': '5' },
      );
    const server = createServer(set, sdk, options);
    // The session is counted from its initialize on, so that concurrent ones cannot pass the limit together.
    const sid = randomUUID();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => sid,
      onsessioninitialized: () => {
        servers.add(server);
      },
    });
    sessions.add(sid, { transport, server });
    res.once('close', () => {
      sessions.end(sid);
      if (transport.sessionId === undefined) {
        sessions.delete(sid);
        void server.close().catch(() => {});
      }
    });
    transport.onclose = () => {
      sessions.delete(sid);
      servers.delete(server);
    };
    await server.connect(transport);
    cancelOnDrop(messages, res, transport);
    await transport.handleRequest(req, res, body);
  };

  /** The POSTed JSON and its messages; undefined when it was answered here (not JSON, too large, unreadable). */
  const readJson = async (
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ body: unknown; messages: unknown[] } | undefined> => {
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req)).toString('utf8'));
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        // Said before the rest is read. The rest is read and let go (up to MAX_DRAIN_BYTES, see readBody): a
        // connection closed while the client still sends is reset, and the client loses the answer with it.
        reply(res, 413, -32600, err.message);
      } else reply(res, 400, -32700, `the request body is not JSON: ${(err as Error).message}`);
      return undefined;
    }
    const messages = Array.isArray(body) ? body : [body];
    // A request the SDK cannot read (params an array, say) is answered here with its id, and nothing of the POST runs.
    const unread = messages.flatMap((m) => unreadRequestAnswer(sdk, m) ?? []);
    if (unread.length === 0) return { body, messages };
    res.writeHead(Array.isArray(body) ? 400 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(Array.isArray(body) ? unread : unread[0]));
    return undefined;
  };

  /**
   * A client that goes away while its session stays open (a fetch aborted, a tab closed) may send no
   * notifications/cancelled. When the answer's stream closes before the answer is written, the requests it carried
   * are cancelled as if the client had sent one: their handlers' signal aborts, which ends a running script.
   */
  const cancelOnDrop = (messages: unknown[], res: ServerResponse, transport: StreamableHTTPServerTransport) => {
    const ids = messages.flatMap((m) => (sdk.types.isJSONRPCRequest(m) ? [m.id] : []));
    if (ids.length === 0) return;
    res.once('close', () => {
      if (res.writableFinished) return;
      for (const requestId of ids)
        transport.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId, reason: 'the client closed the connection before the answer' },
        });
    });
  };

  const httpServer = createHttpServer((req, res) => {
    handle(req, res).catch((err) => {
      options.warn(`http: ${(err as Error).message}`);
      if (!res.headersSent) reply(res, 500, -32603, 'internal error');
      else res.end();
    });
  });
  await new Promise<void>((done, fail) => {
    httpServer.once('error', (err) =>
      fail(
        new SkillsError('E_IO', `cannot listen on ${http.host}:${http.port}: ${(err as Error).message}`, {
          cause: err,
        }),
      ),
    );
    httpServer.listen(http.port, http.host, () => done());
  });
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : http.port;
  const bound = http.host.includes(':') && !http.host.startsWith('[') ? `[${http.host}]` : http.host;
  const names = [...new Set([bound, ...LOOPBACK, ...http.allowHosts])].map((h) => h.toLowerCase());
  hosts = new Set(names.map((h) => `${h}:${port}`));
  origins = new Set([...names.map((h) => `http://${h}:${port}`), ...http.allowOrigins.map((o) => o.toLowerCase())]);
  listening(`http://${bound}:${port}${MCP_PATH}`);

  await new Promise<void>((done) => {
    if (signal.aborted) return done();
    signal.addEventListener('abort', () => done(), { once: true });
  });
  clearInterval(sweep);
  for (const s of sessions.values()) await s.server.close().catch(() => {});
  await new Promise<void>((done) => {
    httpServer.close(() => done());
    httpServer.closeAllConnections();
  });
}

/** The Authorization header carries this bearer token (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!.trim());
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A request body over MAX_BODY_BYTES: answered 413, not read further. */
class BodyTooLarge extends Error {
  constructor() {
    super(`the request body is over ${MAX_BODY_BYTES} bytes, the most serve reads; send large data as a file`);
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((done, fail) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    let closing = false;
    const onData = (c: Buffer) => {
      size += c.length;
      if (over) {
        // The rest is let go as it comes, so that the client reads the answer. A body that goes on past the drain
        // ends the connection: our side first (after the answer), read on a moment, then closed; a socket closed
        // at once with unread data is reset, which can take the answer from the client before it read it.
        if (size > MAX_BODY_BYTES + MAX_DRAIN_BYTES && !closing) {
          closing = true;
          req.socket.end();
          setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
        }
      } else if (size > MAX_BODY_BYTES) {
        over = true;
        parts.length = 0;
        fail(new BodyTooLarge());
      } else parts.push(c);
    };
    req.on('data', onData);
    req.on('end', () => done(Buffer.concat(parts)));
    req.on('error', fail);
  });
}
