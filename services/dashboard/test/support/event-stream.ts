import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for GET /api/v1/conversations/events (built elsewhere): a server-sent event stream on 127.0.0.1 that
 * the test pushes events into, with the contract's event names and bodies. A page reaches it through a route.
 */
export async function startEventStream() {
  const clients = new Set<ServerResponse>();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(': open\n\n');
    clients.add(res);
    res.on('close', () => clients.delete(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let id = 0;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
    clients,
    push(event: 'message' | 'conversation', data: unknown) {
      id += 1;
      for (const c of clients) c.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    /** Ends every open stream, as a restarting gateway would. */
    drop() {
      for (const c of clients) c.end();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
