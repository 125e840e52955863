import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type FakeAnswer = (call: RecordedCall) => { status: number; body: unknown };

export interface FakeService {
  url: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

/** A stand-in internal service over real HTTP: records each call and answers with the envelope. */
export async function startFakeService(
  answer: FakeAnswer = () => ({
    status: 200,
    body: { success: true, data: { ok: true } },
  }),
): Promise<FakeService> {
  const calls: RecordedCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      calls.push(call);
      const { status, body } = answer(call);
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'from-service' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
