import { randomHex } from '../ids';
import { currentContext, runWithContext } from '../context';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): `traceparent: 00-<trace-id>-<parent-id>-<flags>`.
 * Every hop (an HTTP request served, a message consumed) continues the trace it was given with a span id of
 * its own, and passes `traceparent` on to the next: the trace id is the one thread through the logs.
 */
export const TRACEPARENT = 'traceparent';

/** The trace a unit of work belongs to and its own span in it. */
export interface TraceContext {
  traceId: string;
  spanId: string;
  /** The caller's span, when the trace came from outside. */
  parentSpanId?: string;
  /** Two hex digits; `01` is sampled. */
  flags: string;
}

const TRACEPARENT_FORMAT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
const ALL_ZERO = /^0+$/;

/** The trace a `traceparent` value names, or undefined when it is absent or malformed (then a new trace starts). */
export function parseTraceparent(
  value: unknown,
): { traceId: string; parentSpanId: string; flags: string } | undefined {
  if (typeof value !== 'string' || value.length > 512) return undefined;
  const m = TRACEPARENT_FORMAT.exec(value.trim().toLowerCase());
  if (!m) return undefined;
  const [, version, traceId, parentSpanId, flags] = m;
  // Version ff is invalid; version 00 has exactly four fields; all-zero ids are invalid.
  if (version === 'ff' || (version === '00' && value.trim().length !== 55)) return undefined;
  if (ALL_ZERO.test(traceId) || ALL_ZERO.test(parentSpanId)) return undefined;
  return { traceId, parentSpanId, flags };
}

/** The `traceparent` value that makes the next hop a child of this span. */
export function formatTraceparent(trace: TraceContext): string {
  return `00-${trace.traceId}-${trace.spanId}-${trace.flags}`;
}

/** A new span continuing the trace of `traceparent` when it is valid, else the first span of a new trace. */
export function continueTrace(traceparent: unknown): TraceContext {
  const parent = parseTraceparent(traceparent);
  if (!parent) return { traceId: randomHex(16), spanId: randomHex(8), flags: '01' };
  return {
    traceId: parent.traceId,
    spanId: randomHex(8),
    parentSpanId: parent.parentSpanId,
    flags: parent.flags,
  };
}

/** The `traceparent` of the current context, if it has a trace. */
export function currentTraceparent(): string | undefined {
  const trace = currentContext().trace;
  return trace === undefined ? undefined : formatTraceparent(trace);
}

/** `{ traceparent }` of the current context, to spread into the headers of an outgoing call. */
export function traceHeaders(): Record<string, string> {
  const traceparent = currentTraceparent();
  return traceparent === undefined ? {} : { [TRACEPARENT]: traceparent };
}

/** Headers with the current context's `traceparent` added, unless they carry one already. */
export function withTraceparent(headers: Record<string, unknown> | undefined): Record<string, unknown> {
  if (headers?.[TRACEPARENT] !== undefined) return headers;
  const traceparent = currentTraceparent();
  if (traceparent === undefined) return headers ?? {};
  return { ...headers, [TRACEPARENT]: traceparent };
}

/** Runs fn within the given span, keeping the rest of the current context. */
export function runWithTrace<T>(trace: TraceContext, fn: () => T): T {
  return runWithContext({ ...currentContext(), trace }, fn);
}

/** Runs fn as a new span of the trace named by `traceparent` (or of a new trace), keeping the rest of the context. */
export function runInTrace<T>(traceparent: unknown, fn: () => T): T {
  return runWithTrace(continueTrace(traceparent), fn);
}
