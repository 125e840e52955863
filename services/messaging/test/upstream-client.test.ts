import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInTrace, parseTraceparent, ServiceMetrics } from '@bm/platform';
import { uniqueSuffix } from '@bm/platform/testing';
import { CloudApiClient } from '../src/data-access/upstream/cloud-api.client';
import { upstreamMetrics } from '../src/data-access/upstream/upstream-metrics';

const TRACE_ID = '5c1ef2b1d8a64e0f9a3b7c2d1e0f4a6b';

/**
 * A recording stand-in for the Cloud API: answers a send with an id, or with error 131049 for `to: "capped…"`;
 * resets the connection for `to: "reset"` and never answers `to: "slow"`.
 */
async function startRecordingUpstream(): Promise<{
  url: string;
  seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push(req.headers);
      const to = (JSON.parse(body) as { to?: string }).to;
      // The request was read in full, then the answer is lost (or never comes before the client's timeout).
      if (to === 'reset') return req.socket.destroy();
      if (to === 'slow') return;
      const capped = to === 'capped' || to === 'capped-as-string';
      // Another stand-in of the network may write the code as a string: the same code.
      const code = to === 'capped-as-string' ? '131049' : 131049;
      res.writeHead(capped ? 400 : 200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          capped ? { error: { code, message: 'frequency cap' } } : { messages: [{ id: 'wamid.1' }] },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the Cloud API client: trace and metrics of upstream calls', () => {
  it('when a send runs inside a trace, then the upstream gets its traceparent and the call is timed and its error code counted', async () => {
    const upstream = await startRecordingUpstream();
    const metrics = new ServiceMetrics(`messaging-${uniqueSuffix()}`);
    const client = new CloudApiClient(upstream.url, 'v21.0', 2_000, upstreamMetrics(metrics));
    try {
      const ok = await runInTrace(`00-${TRACE_ID}-00f067aa0ba902b7-01`, () =>
        client.sendMessage('123', 'token', { to: '15550001111' }),
      );
      const refused = await client.sendMessage('123', 'token', { to: 'capped' });

      expect(ok).toEqual({ ok: true, providerMessageId: 'wamid.1', held: false });
      expect(refused).toMatchObject({ ok: false, code: 131049 });
      expect(parseTraceparent(upstream.seen[0].traceparent)?.traceId).toBe(TRACE_ID);
      expect(upstream.seen[1].traceparent).toBeUndefined();
      const text = (await metrics.expose()).body;
      const value = (name: string, ...labels: string[]) =>
        text
          .split('\n')
          .filter((l) => l.startsWith(`${name}{`) && labels.every((x) => l.includes(x)))
          .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
      const send = 'operation="send_message"';
      expect(value('bm_upstream_request_duration_seconds_count', send, 'status_class="2xx"')).toEqual([1]);
      expect(value('bm_upstream_request_duration_seconds_count', send, 'status_class="4xx"')).toEqual([1]);
      expect(value('bm_upstream_errors_total', send, 'code="131049"')).toEqual([1]);
    } finally {
      await upstream.close();
    }
  });

  it('when the upstream writes its error code as a numeric string, then the failure carries the numeric code', async () => {
    const upstream = await startRecordingUpstream();
    const client = new CloudApiClient(upstream.url, 'v21.0', 2_000);
    try {
      expect(await client.sendMessage('123', 'token', { to: 'capped-as-string' })).toMatchObject({
        ok: false,
        code: 131049,
        retryable: false,
      });
    } finally {
      await upstream.close();
    }
  });

  it('when the answer is lost after the request was written, then the outcome is unknown; when the connection is refused, then a retry is safe', async () => {
    const upstream = await startRecordingUpstream();
    const client = new CloudApiClient(upstream.url, 'v21.0', 500);
    const refused = new CloudApiClient('http://127.0.0.1:1', 'v21.0', 500);
    try {
      const reset = await client.sendMessage('123', 'token', { to: 'reset' });
      const timedOut = await client.sendMessage('123', 'token', { to: 'slow' });
      const notSent = await refused.sendMessage('123', 'token', { to: 'x' });

      expect(reset).toMatchObject({ ok: false, unknown: true });
      expect(timedOut).toMatchObject({ ok: false, unknown: true });
      expect(notSent).toMatchObject({ ok: false, retryable: true });
      expect(notSent).not.toHaveProperty('unknown', true);
    } finally {
      await upstream.close();
    }
  });
});
