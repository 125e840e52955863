import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { SpanKind, SpanStatusCode, type Attributes, type HrTime } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import type { TraceContext } from './trace-context';

/*
 * OpenTelemetry export of the spans the platform already keeps (an HTTP request served, an AMQP message
 * consumed), off unless an OTLP endpoint is configured: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (the full URL) or
 * OTEL_EXPORTER_OTLP_ENDPOINT (the collector's base; /v1/traces is added), OTLP over HTTP with JSON, the
 * exporter's other OTEL_* settings (headers, timeout) as the OpenTelemetry specification names them. The spans
 * keep the W3C ids the logs carry (trace_id, span_id), so a trace in the collector and a log line join on them.
 * Spans go out in batches in the background: a collector that is slow or away costs memory up to the batch
 * queue's bound, never a request.
 */

export type ExportedSpanKind = 'server' | 'client' | 'consumer' | 'producer' | 'internal';

/** A finished unit of work to export: its span, what it was, when it ran, and how it ended. */
export interface FinishedSpan {
  service: string;
  trace: TraceContext;
  name: string;
  kind: ExportedSpanKind;
  /** Epoch milliseconds (fractions allowed). */
  startMs: number;
  endMs: number;
  attributes?: Attributes;
  /** Set when the work failed: the span's status is ERROR with this message. */
  error?: string;
}

const KINDS: Record<ExportedSpanKind, SpanKind> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  consumer: SpanKind.CONSUMER,
  producer: SpanKind.PRODUCER,
  internal: SpanKind.INTERNAL,
};

interface ServiceExport {
  processor: BatchSpanProcessor;
  resource: Resource;
}

/** One exporter per service name (tests run several services in one process). */
const exporters = new Map<string, ServiceExport>();

/** Whether an OTLP endpoint is configured in `env`. */
export function spanExportConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

function exportFor(service: string): ServiceExport | undefined {
  let found = exporters.get(service);
  if (found === undefined && spanExportConfigured()) {
    found = {
      // The exporter reads the endpoint, headers and timeout from the OTEL_* environment itself. Its agents are
      // made here: by default it imports node:http at run time, which test runners without ESM support refuse.
      processor: new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({
          httpAgentOptions: (protocol: string) =>
            protocol === 'http:' ? new HttpAgent({ keepAlive: true }) : new HttpsAgent({ keepAlive: true }),
        }),
      }),
      resource: resourceFromAttributes({ 'service.name': service }),
    };
    exporters.set(service, found);
  }
  return found;
}

function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

/** Exports a finished span when export is on and the trace is sampled; otherwise does nothing. */
export function exportSpan(span: FinishedSpan): void {
  const { trace } = span;
  const traceFlags = parseInt(trace.flags, 16);
  if ((traceFlags & 1) === 0) return;
  const target = exportFor(span.service);
  if (target === undefined) return;
  const readable: ReadableSpan = {
    name: span.name,
    kind: KINDS[span.kind],
    spanContext: () => ({ traceId: trace.traceId, spanId: trace.spanId, traceFlags }),
    parentSpanContext:
      trace.parentSpanId === undefined
        ? undefined
        : { traceId: trace.traceId, spanId: trace.parentSpanId, traceFlags, isRemote: true },
    startTime: hrTime(span.startMs),
    endTime: hrTime(span.endMs),
    duration: hrTime(Math.max(0, span.endMs - span.startMs)),
    status:
      span.error === undefined
        ? { code: SpanStatusCode.UNSET }
        : { code: SpanStatusCode.ERROR, message: span.error },
    attributes: span.attributes ?? {},
    links: [],
    events: [],
    ended: true,
    resource: target.resource,
    instrumentationScope: { name: '@bm/platform' },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
  target.processor.onEnd(readable);
}

/** Sends what is queued now (tests, shutdown). */
export async function flushSpans(): Promise<void> {
  await Promise.all([...exporters.values()].map((e) => e.processor.forceFlush()));
}

/** Flushes and stops every exporter; spans finished afterwards start a new one. */
export async function stopSpanExport(): Promise<void> {
  const all = [...exporters.values()];
  exporters.clear();
  await Promise.all(all.map((e) => e.processor.shutdown()));
}
