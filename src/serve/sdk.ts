// The MCP SDK, loaded on first use: only `skills serve` and an install from an MCP server need it, and start-up
// time is a feature of every other command.
import type * as ServerModule from '@modelcontextprotocol/sdk/server/index.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export interface Sdk {
  Server: typeof ServerModule.Server;
  types: typeof TypesModule;
}

let loaded: Promise<Sdk> | undefined;

/** The SDK's Server and its types (schemas, ErrorCode). */
export function loadSdk(): Promise<Sdk> {
  loaded ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([server, types]) => ({ Server: server.Server, types }));
  return loaded;
}

/**
 * A JSON-RPC error answer: the SDK sends a thrown error's `code` and `message` as they are. Not the SDK's McpError,
 * whose message already says "MCP error -32602: ", so that a client (the SDK's own too) that puts that before the
 * message it is sent showed the code twice: "MCP error -32602: MCP error -32602: …".
 */
export class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

/**
 * A request schema that takes any params: they are checked by the handler, so that a missing or wrong one is -32602
 * with a message naming it, not the SDK's zod failure (a dump of zod's issues, reported as -32603 Internal error).
 */
export const anyParams = (method: string) => z.object({ method: z.literal(method), params: z.any().optional() });

/** What a JSON value is, for a message saying what was given instead: "an array", "a string", "nothing". */
export function kindOf(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (v === '') return 'an empty string';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * Register a tools/call handler on the protocol under the SDK's Server, which otherwise checks the params with zod
 * before any handler runs (and answers a wrong shape with zod's dump). The handler checks them itself; its results
 * are CallToolResults, which the Server's wrapper would check, and this server offers no tasks.
 */
export function setToolsCallHandler(
  sdk: Sdk,
  server: ServerModule.Server,
  handler: (req: { params?: unknown }, extra: { signal: AbortSignal }) => Promise<Record<string, unknown>>,
): void {
  const protocol = Object.getPrototypeOf(sdk.Server.prototype) as {
    setRequestHandler(this: ServerModule.Server, schema: unknown, h: typeof handler): void;
  };
  protocol.setRequestHandler.call(server, anyParams('tools/call'), handler);
}

type ErrorAnswer = TypesModule.JSONRPCErrorResponse;

/**
 * The answer to a request the SDK cannot read, which it drops over stdio (a client then waits forever on its id) and
 * answers over HTTP with a Parse error for no id. JSON-RPC lets params be an array or an object; MCP's methods take
 * an object, so an array (or any other value) is -32602 Invalid params; anything else wrong is -32600 Invalid
 * Request. Undefined when the value is a message the SDK reads, or has no id to answer.
 */
export function unreadRequestAnswer(sdk: Sdk, value: unknown): ErrorAnswer | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (sdk.types.JSONRPCMessageSchema.safeParse(value).success) return undefined;
  const message = value as Record<string, unknown>;
  const { id, method, params } = message;
  if (!sdk.types.RequestIdSchema.safeParse(id).success || 'result' in message || 'error' in message) return undefined;
  const answer = (code: number, text: string): ErrorAnswer => ({
    jsonrpc: '2.0',
    id: id as string | number,
    error: { code, message: text },
  });
  if (typeof method !== 'string')
    return answer(
      -32600,
      `Invalid Request: "method" must be a string naming the method, e.g. "tools/list"; got ${kindOf(method)}`,
    );
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params)))
    return answer(
      -32602,
      `${method}: params must be a JSON object of the request's parameters by name, e.g. {}; got ${kindOf(params)} (JSON-RPC allows positional params, MCP's methods take theirs by name)`,
    );
  if (message.jsonrpc !== '2.0')
    return answer(-32600, `Invalid Request: "jsonrpc" must be "2.0"; got ${kindOf(message.jsonrpc)}`);
  const extra = Object.keys(message).filter((k) => !['jsonrpc', 'id', 'method', 'params'].includes(k));
  if (extra.length > 0)
    return answer(
      -32600,
      `Invalid Request: ${extra.map((k) => JSON.stringify(k)).join(', ')} ${extra.length === 1 ? 'is not a member' : 'are not members'} of a JSON-RPC request (jsonrpc, id, method, params)`,
    );
  const meta = (params as Record<string, unknown>)._meta;
  return answer(
    -32602,
    `${method}: params._meta must be an object as MCP defines it, e.g. {"progressToken": 1}; got ${kindOf(meta)}`,
  );
}
