import winston from 'winston';
import { currentContext } from './context';

export type Logger = winston.Logger;

const SECRET_KEYS = /authorization|token|secret|password|api_key|apikey|access_token|signature/i;

/** Replaces the values of secret-looking keys so secrets never reach the logs. */
function redact(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  // An Error's message and stack are not enumerable: kept explicitly, or a logged cause would print as {}.
  const out: Record<string, unknown> =
    value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = SECRET_KEYS.test(k) ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}

const contextFormat = winston.format((info) => {
  const { requestId, tenantId, trace } = currentContext();
  if (trace !== undefined && info.trace_id === undefined) {
    info.trace_id = trace.traceId;
    info.span_id = trace.spanId;
  }
  if (requestId !== undefined && info.request_id === undefined) info.request_id = requestId;
  if (tenantId !== undefined && info.tenant_id === undefined) info.tenant_id = tenantId;
  for (const key of Object.keys(info)) {
    if (key !== 'level' && key !== 'message') {
      info[key] = SECRET_KEYS.test(key) ? '[redacted]' : redact(info[key]);
    }
  }
  return info;
});

/** JSON lines on stdout with the service name, request id, tenant id and trace id of the current context. */
export function createLogger(service: string, level = 'info'): Logger {
  return winston.createLogger({
    level: level === 'silent' ? 'error' : level,
    silent: level === 'silent',
    defaultMeta: { service },
    format: winston.format.combine(
      winston.format.errors({ stack: true }),
      contextFormat(),
      winston.format.timestamp(),
      winston.format.json(),
    ),
    transports: [new winston.transports.Console()],
  });
}

/** The service name a logger stamps on its lines (`createLogger`'s first argument). */
export function serviceNameOf(logger: Logger): string {
  const meta = logger.defaultMeta as { service?: unknown } | undefined;
  return typeof meta?.service === 'string' ? meta.service : 'unknown';
}
