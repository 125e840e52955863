import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP balancer in front of a service's replicas, as a Kubernetes Service would be. */
export interface Balancer {
  port: number;
  close(): Promise<void>;
}

/**
 * Hands each new connection to the next replica in turn; a replica that refuses (killed, not started yet) is
 * skipped, so callers only see an error when every replica is away.
 */
export async function startBalancer(targets: number[]): Promise<Balancer> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  let next = 0;
  const server: Server = createServer((client) => {
    track(client);
    // Bytes the caller sends before a replica answers wait in the paused socket.
    client.pause();
    client.on('error', () => client.destroy());
    const tryReplica = (left: number) => {
      if (left === 0 || client.destroyed) {
        client.destroy();
        return;
      }
      const target = targets[next % targets.length];
      next += 1;
      const upstream = connect(target, '127.0.0.1');
      track(upstream);
      upstream.once('error', () => tryReplica(left - 1));
      upstream.once('connect', () => {
        upstream.removeAllListeners('error');
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
    };
    tryReplica(targets.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
