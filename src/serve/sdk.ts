// The MCP SDK, loaded on first use: only `skills serve` and an install from an MCP server need it, and start-up
// time is a feature of every other command.
import type * as ServerModule from '@modelcontextprotocol/sdk/server/index.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';

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
