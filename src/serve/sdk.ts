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

/** The SDK's Server and its types (schemas, McpError, ErrorCode). */
export function loadSdk(): Promise<Sdk> {
  loaded ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([server, types]) => ({ Server: server.Server, types }));
  return loaded;
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
