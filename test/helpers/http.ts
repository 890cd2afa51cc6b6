import { createServer, type RequestListener } from 'node:http';
import { freePort } from './git-repos.js';

/** An HTTP server on 127.0.0.1 answering with `handler`: its base URL (ending in /) and how to close it. */
export async function serveLocal(handler: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(handler);
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${port}/`,
    // Connections still open (a body being streamed to a client gone) are closed with it.
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
