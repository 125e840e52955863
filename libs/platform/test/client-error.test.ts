import { connect } from 'node:net';
import { ERROR_CODES } from '@bm/contracts';
import { createHttpApp, createLogger, startHttpServer } from '../src';

/** Sends raw bytes and reads the whole answer (the server closes the connection). */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('requests the HTTP parser refuses', () => {
  it('answer in the envelope with a documented code: bad request line 400 BAD_REQUEST, huge headers 431', async () => {
    const app = createHttpApp({
      logger: createLogger('client-error-test', 'silent'),
      routes: () => undefined,
    });
    const server = await startHttpServer(app, 0, '127.0.0.1');
    try {
      const bad = await raw(server.port, 'GET /\x01 HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(bad).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(bad.slice(bad.indexOf('\r\n\r\n') + 4))).toEqual({
        success: false,
        error: { code: 'BAD_REQUEST', message: ERROR_CODES.BAD_REQUEST.message },
      });
      const huge = await raw(
        server.port,
        `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(huge).toMatch(/^HTTP\/1\.1 431 /);
      expect(huge).toContain('"code":"HEADERS_TOO_LARGE"');
      expect(huge).toMatch(/X-Request-Id: \w+/);
    } finally {
      await server.close();
    }
  });
});
