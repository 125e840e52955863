import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createLogger, currentContext, runInTrace, type AmqpClient } from '@bm/platform';
import { uniqueSuffix, waitFor } from '@bm/platform/testing';
import { env, runAmqpClient } from './support/broker';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
  status?: { code?: number; message?: string };
}

/** What a collector received: every span with the service.name of its resource. */
function collector(): { server: Server; spans: Array<OtlpSpan & { service: string }>; paths: string[] } {
  const spans: Array<OtlpSpan & { service: string }> = [];
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        resourceSpans: Array<{
          resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
          scopeSpans: Array<{ spans: OtlpSpan[] }>;
        }>;
      };
      for (const rs of body.resourceSpans) {
        const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, service });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, spans, paths };
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? value?.intValue;
};

describe('OpenTelemetry span export (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  const received = collector();
  const key = `span.test.${uniqueSuffix()}`;
  let child: ChildProcess;
  let url: string;
  let publisher: AmqpClient;

  beforeAll(async () => {
    await new Promise<void>((resolve) => received.server.listen(0, '127.0.0.1', resolve));
    const { port } = received.server.address() as { port: number };
    child = spawn(process.execPath, [join(__dirname, 'fixtures', 'span-export-child.js')], {
      env: {
        ...process.env,
        ...env,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        SPAN_TEST_QUEUE: `span.${uniqueSuffix()}`,
        SPAN_TEST_KEY: key,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    url = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
      createInterface({ input: child.stdout! }).once('line', (l) =>
        resolve(`http://127.0.0.1:${(JSON.parse(l) as { port: string }).port}`),
      );
    });
    publisher = runAmqpClient(createLogger('span-test-publisher', 'silent'));
    await publisher.connect();
  }, 30_000);

  afterAll(async () => {
    await publisher?.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await new Promise((resolve) => received.server.close(resolve));
  });

  it('when a request is served, then the collector gets a SERVER span with the ids the logs carry', async () => {
    const ask = (flags: string, id: number) =>
      fetch(`${url}/things/${id}`, { headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-${flags}` } });
    expect((await ask('01', 42)).status).toBe(200);
    expect((await ask('00', 43)).status).toBe(200);

    const span = await waitFor(() => received.spans.find((s) => s.service === 'span-test-api'), {
      what: 'the server span',
    });
    expect(span).toMatchObject({
      traceId: TRACE_ID,
      parentSpanId: CALLER_SPAN,
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
      name: 'GET /things/:id',
      kind: 2,
    });
    expect(attribute(span, 'http.response.status_code')).toBe(200);
    expect(attribute(span, 'url.path')).toBe('/things/42');
    expect(received.paths[0]).toBe('POST /v1/traces application/json');
    // The caller did not sample the second request: nothing of it goes out.
    await new Promise((r) => setTimeout(r, 300));
    expect(received.spans.filter((s) => s.service === 'span-test-api')).toHaveLength(1);
  });

  it('when a message is consumed, then the collector gets a CONSUMER span, child of the publisher', async () => {
    let publisherSpan = '';
    await runInTrace(`00-${TRACE_ID}-${CALLER_SPAN}-01`, async () => {
      publisherSpan = currentContext().trace!.spanId;
      await publisher.publish(key, { n: 1 }, { messageId: `m-${uniqueSuffix()}` });
    });
    const span = await waitFor(() => received.spans.find((s) => s.service === 'span-test-worker'), {
      what: 'the consumer span',
    });
    expect(span).toMatchObject({
      traceId: TRACE_ID,
      parentSpanId: publisherSpan,
      name: `${key} process`,
      kind: 5,
    });
    expect(attribute(span, 'messaging.rabbitmq.destination.routing_key')).toBe(key);
  });
});
