import { AsyncLocalStorage } from 'node:async_hooks';
import type { TraceContext } from './tracing/trace-context';

/** What a log line needs to know about the request or message being handled. */
export interface RequestContext {
  requestId?: string;
  tenantId?: number;
  /** The W3C trace this work belongs to; its trace id is on every log line. */
  trace?: TraceContext;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs fn with the given context visible to the logger. */
export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the current request, or an empty one outside any. */
export function currentContext(): RequestContext {
  return storage.getStore() ?? {};
}
