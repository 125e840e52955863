import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '@bm/client/webhooks';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether libs/client's verifyWebhookSignature accepted it with the secret the receiver holds. */
  verified: boolean;
}

/**
 * A client's webhook endpoint on 127.0.0.1: verifies each delivery's signature with libs/client, as an
 * integrator would, and answers 200, or 500 while told to fail.
 */
export async function startSigningReceiver() {
  const received: ReceivedWebhook[] = [];
  const state = { secret: '', failing: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const verified = state.secret !== '' && verifyWebhookSignature(state.secret, req.headers, body);
      received.push({ headers: req.headers, body: body.toString('utf8'), verified });
      res.writeHead(state.failing ? 500 : 200, { 'content-type': 'text/plain' });
      res.end(state.failing ? 'receiver is down for the test' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
