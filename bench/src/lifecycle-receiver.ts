import { createServer } from 'node:http';

// The client's webhook receiver of the lifecycle benchmark, its own process: answers 200 to every delivery and notes
// when each message's `read` arrived. Asked over IPC (`report`), it sends what it saw and forgets it.
const readAt = new Map<number, number>();
const counts: Record<string, number> = {};
let deliveries = 0;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    const body = Buffer.concat(chunks).toString('utf8');
    deliveries += 1;
    const status = /"status":"(\w+)"/.exec(body)?.[1] ?? 'other';
    counts[status] = (counts[status] ?? 0) + 1;
    const id = /"message_log_id":(\d+)/.exec(body);
    if (status === 'read' && id && !readAt.has(Number(id[1]))) readAt.set(Number(id[1]), at);
    res.end('ok');
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('message', (m: string) => {
  if (m === 'count') {
    process.send?.({ read: readAt.size, deliveries });
  } else if (m === 'report') {
    process.send?.({ readAt: [...readAt.entries()], counts, deliveries });
  } else if (m === 'reset') {
    readAt.clear();
    for (const k of Object.keys(counts)) delete counts[k];
    deliveries = 0;
    process.send?.({ reset: true });
  }
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
