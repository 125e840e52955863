import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy to a local port that a test can cut, as a network partition or a dependency's outage would: `cut()`
 * drops every connection through it and refuses new ones until `restore()`.
 */
export async function startCuttableProxy(targetPort: number) {
  const sockets = new Set<Socket>();
  let open = true;
  const server = createServer((client) => {
    if (!open) return void client.destroy();
    const target = connect(targetPort, '127.0.0.1');
    for (const s of [client, target]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => (s === client ? target : client).destroy());
    }
    client.pipe(target).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut(): void {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore(): void {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
