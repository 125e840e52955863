import { markDraining } from './health';
import type { Logger } from './logger';
import { stopSpanExport } from './tracing/span-export';

export interface Closer {
  name: string;
  close: () => Promise<void> | void;
}

/**
 * On SIGTERM or SIGINT, first turns readiness false, then closes each part in order (stop accepting, then drain
 * consumers, then the connections), each bounded by the timeout, and exits. Returns the function so tests can
 * call it directly.
 */
export function handleShutdown(logger: Logger, closers: Closer[], timeoutMs: number): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    closing ??= (async () => {
      markDraining();
      logger.info('shutting down');
      // The spans of the work drained last go out with the rest, if span export is on.
      for (const closer of [...closers, { name: 'span export', close: stopSpanExport }]) {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve(closer.close()),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
            }),
          ]);
        } catch (err) {
          logger.warn('close failed', { part: closer.name, error: (err as Error).message });
        } finally {
          clearTimeout(timer);
        }
      }
      logger.info('stopped');
    })();
    return closing;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info('signal received', { signal });
    void shutdown().then(() => process.exit(0));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return shutdown;
}
