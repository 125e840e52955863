import { Writable } from 'node:stream';
import request from 'supertest';
import winston from 'winston';
import {
  type AmqpClient,
  continueTrace,
  createHttpApp,
  createLogger,
  currentContext,
  defineRoutes,
  formatTraceparent,
  parseTraceparent,
  runInTrace,
  startHttpServer,
  type ConsumedMessage,
  type RequestContext,
} from '@bm/platform';
import { uniqueSuffix, waitFor } from '@bm/platform/testing';
import { runAmqpClient } from './support/broker';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CALLER_SPAN}-01`;

/** A logger of the platform whose JSON lines are kept in memory. */
function capturingLogger(): { logger: winston.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('trace-test', 'info');
  logger.clear();
  logger.add(
    new winston.transports.Stream({
      stream: new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    }),
  );
  return { logger, lines };
}

describe('W3C traceparent', () => {
  it('when the header is well formed, then its trace id and parent span are read', () => {
    expect(parseTraceparent(TRACEPARENT)).toEqual({
      traceId: TRACE_ID,
      parentSpanId: CALLER_SPAN,
      flags: '01',
    });
    // A later version may append fields.
    expect(parseTraceparent(`01-${TRACE_ID}-${CALLER_SPAN}-00-extra`)?.traceId).toBe(TRACE_ID);
  });

  it('when the header is malformed, then it is ignored', () => {
    for (const bad of [
      undefined,
      '',
      'garbage',
      `00-${'0'.repeat(32)}-${CALLER_SPAN}-01`,
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
      `ff-${TRACE_ID}-${CALLER_SPAN}-01`,
      `00-${TRACE_ID}-${CALLER_SPAN}-01-extra`,
      `00-${TRACE_ID.slice(1)}-${CALLER_SPAN}-01`,
    ]) {
      expect(parseTraceparent(bad)).toBeUndefined();
    }
  });

  it('when a trace is continued, then the trace id stays and the span is new; without a parent a new trace starts', () => {
    const child = continueTrace(TRACEPARENT);
    expect(child).toEqual({
      traceId: TRACE_ID,
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
      parentSpanId: CALLER_SPAN,
      flags: '01',
    });
    expect(child.spanId).not.toBe(CALLER_SPAN);
    expect(formatTraceparent(child)).toBe(`00-${TRACE_ID}-${child.spanId}-01`);
    const fresh = continueTrace('not a traceparent');
    expect(fresh.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh.traceId).not.toBe(continueTrace(undefined).traceId);
  });
});

describe('trace context through HTTP and the logs', () => {
  it('when a request carries traceparent, then the handler runs in that trace and every log line carries its id', async () => {
    const { logger, lines } = capturingLogger();
    let seen: RequestContext | undefined;
    const app = createHttpApp({
      logger,
      routes: (a) =>
        defineRoutes(a.router, [
          {
            method: 'GET',
            path: '/work',
            handlers: [
              (_req, res) => {
                seen = { ...currentContext() };
                logger.info('doing the work');
                res.json({ ok: true });
              },
            ],
          },
        ]),
    });
    const server = await startHttpServer(app, 0, '127.0.0.1');
    try {
      await request(server.url).get('/work').set('traceparent', TRACEPARENT).expect(200);
      await request(server.url).get('/work').expect(200);
    } finally {
      await server.close();
    }
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ message: 'doing the work', trace_id: TRACE_ID, service: 'trace-test' });
    expect(lines[0].span_id).not.toBe(CALLER_SPAN);
    expect(lines[0].request_id).toEqual(expect.any(String));
    // Without a traceparent the request starts its own trace.
    expect(lines[1].trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(lines[1].trace_id).not.toBe(TRACE_ID);
    expect(seen?.trace?.parentSpanId).toBeUndefined();
  });
});

describe('trace context through AMQP', () => {
  const clients: AmqpClient[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close();
  });

  it('when a message is published inside a trace, then it carries traceparent and the consumer runs as a child span of that trace', async () => {
    const client = runAmqpClient(createLogger('trace-test', 'silent'));
    clients.push(client);
    await client.connect();
    const key = `trace.test.${uniqueSuffix()}`;
    const received: Array<{ message: ConsumedMessage; context: RequestContext }> = [];
    await client.consume(`trace.${uniqueSuffix()}`, [key], async (message) => {
      received.push({ message, context: { ...currentContext() } });
      await Promise.resolve();
    });

    let publisherSpan = '';
    await runInTrace(TRACEPARENT, async () => {
      publisherSpan = currentContext().trace!.spanId;
      await client.publish(key, { n: 1 }, { messageId: `m-${uniqueSuffix()}` });
    });
    await client.publish(key, { n: 2 }, { messageId: `m-${uniqueSuffix()}` });

    await waitFor(() => received.length === 2, { what: 'both messages' });
    const [traced, untraced] = received.sort(
      (a, b) => (a.message.payload as { n: number }).n - (b.message.payload as { n: number }).n,
    );
    expect(traced.message.headers.traceparent).toBe(`00-${TRACE_ID}-${publisherSpan}-01`);
    expect(traced.context.trace).toEqual({
      traceId: TRACE_ID,
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
      parentSpanId: publisherSpan,
      flags: '01',
    });
    // Published outside any trace: no header, and the consumer starts a trace of its own.
    expect(untraced.message.headers.traceparent).toBeUndefined();
    expect(untraced.context.trace?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(untraced.context.trace?.traceId).not.toBe(TRACE_ID);
  });
});
