import type { Express, Router } from 'express';
import type { DataSource } from 'typeorm';
import type { AmqpClient } from './amqp/amqp-client';
import { amqpClientFor } from './amqp/amqp-from-config';
import type { CommonConfig } from './config';
import { pingDatabase } from './db/data-source';
import { createHttpApp, type HttpAppOptions } from './http/app-factory';
import { requireInternalCaller } from './http/internal-auth';
import { startHttpServer, type RunningServer } from './http/server';
import { serviceHealthRoutes } from './http/service-health.routes';
import { createLogger, type Logger } from './logger';
import { serviceMetrics, type ServiceMetrics } from './metrics/service-metrics';
import type { RedisClient } from './redis';
import { handleShutdown, type Closer } from './shutdown';

/** What every service opens first: its logger, metrics, database (connected) and broker client (not yet). */
export interface ServiceBase {
  name: string;
  config: CommonConfig;
  logger: Logger;
  metrics: ServiceMetrics;
  dataSource: DataSource;
  amqp: AmqpClient;
}

/** Opens the service's base: the logger at the configured level, the database, a broker client. */
export async function openServiceBase(
  name: string,
  config: CommonConfig,
  dataSource: DataSource,
): Promise<ServiceBase> {
  const logger = createLogger(name, config.LOG_LEVEL);
  const metrics = serviceMetrics(name);
  await dataSource.initialize();
  return { name, config, logger, metrics, dataSource, amqp: amqpClientFor(config, logger, metrics) };
}

/** A part that runs in the background once started (a periodic task, the outbox relay, a worker). */
export interface BackgroundPart {
  start(): void;
  stop(): Promise<void>;
}

/** Work to finish before the connections close: a group commit, passes started in the background. */
export interface Drainable {
  stop(): Promise<unknown>;
}

/** An internal service's HTTP API: probes, the routes open to all, then the routes behind the internal credential. */
export interface InternalApi extends Omit<
  HttpAppOptions,
  'logger' | 'metrics' | 'routes' | 'securityHeaders'
> {
  /** Routes for callers without the gateway's credential (the upstream's webhooks). */
  publicRoutes?: (router: Router) => void;
  /** The service's own API, behind the gateway's credential. */
  routes: (router: Router) => void;
  /**
   * Whether readiness asks for the broker where workers run (default true). A service whose API only writes to
   * the outbox stays ready while the broker is away.
   */
  readyNeedsBroker?: boolean;
}

export interface ServiceRuntimeOptions extends Omit<ServiceBase, 'amqp'> {
  amqp?: AmqpClient;
  /** A cache the service uses: part of readiness, disconnected at the end. */
  redis?: RedisClient;
  /** The port `start()` listens on. */
  port: number;
  /** Fields of the "listening" line beside the port. */
  describe?: Record<string, unknown>;
  /** The HTTP side: an internal API the runtime assembles, or an app the service built itself (the gateway). */
  http: InternalApi | { app: Express };
  /** Whether `start()` starts the workers (false in an API-only deployment; default true). */
  workers?: boolean;
  /** Registers the service's consumers on `amqp`. */
  consumers?: () => Promise<void>;
  relay?: BackgroundPart;
  /** Periodic tasks and workers, started in this order after the relay and stopped in reverse. */
  tasks?: BackgroundPart[];
  /** Finished after the consumers and tasks stopped, before the relay: group commits, background passes. */
  drain?: Drainable[];
  /** The service's own clients (HTTP agents, extra connections), closed after the broker, before the cache. */
  connections?: Closer[];
  /**
   * Answers that stay open until the client leaves (server-sent event streams), ended first: the HTTP close waits
   * for every open answer.
   */
  streams?: Closer[];
}

/** A service's process: its HTTP app, its workers, and its shutdown. */
export interface ServiceRuntime {
  app: Express;
  logger: Logger;
  /** Registers the consumers, connects the broker, then starts the relay and the tasks. */
  startWorkers(): Promise<void>;
  /** What `start.ts` runs: the workers (unless API-only), then HTTP on the configured port. */
  start(): Promise<RunningServer>;
  /**
   * Stops in reverse order of start: HTTP (if `start` opened it), consumers (their handlers finished), tasks,
   * drains, relay, the broker, the service's own clients, the cache, the database. A step that fails is logged
   * and the next still runs.
   */
  close(): Promise<void>;
  /** Closes on SIGTERM or SIGINT (readiness false first, each phase bounded by SHUTDOWN_TIMEOUT_MS), then exits. */
  closeOnSignal(): void;
}

function internalApp(o: ServiceRuntimeOptions, api: InternalApi): Express {
  const checks: Record<string, () => Promise<unknown>> = { database: () => pingDatabase(o.dataSource) };
  if (o.redis) checks.cache = () => o.redis!.ping();
  // An API-only deployment never connects to the broker: the outbox holds its events for the workers.
  if (o.amqp && o.workers !== false && api.readyNeedsBroker !== false) checks.broker = o.amqp.ready;
  return createHttpApp({
    bodyLimit: api.bodyLimit,
    parseJson: api.parseJson,
    rawBodyPaths: api.rawBodyPaths,
    // Behind the gateway they would only be sent twice (it sets them on every public answer); routes open to
    // other callers (the upstream's webhooks) get them here.
    securityHeaders: api.publicRoutes !== undefined,
    logger: o.logger,
    metrics: o.metrics,
    routes: (a) => {
      serviceHealthRoutes(a.router, checks);
      api.publicRoutes?.(a.router);
      a.use(requireInternalCaller(o.config.INTERNAL_TOKEN));
      api.routes(a.router);
    },
  });
}

/**
 * The runtime every service wires itself into: it assembles the internal API (probes, internal credential),
 * starts the workers in order, and stops everything in reverse, so a service's wiring file holds only its parts.
 */
export function createServiceRuntime(o: ServiceRuntimeOptions): ServiceRuntime {
  const app = 'app' in o.http ? o.http.app : internalApp(o, o.http);
  const tasks = o.tasks ?? [];
  let server: RunningServer | undefined;

  const step = (name: string, close: () => unknown): Closer => ({
    name,
    close: async () => void (await close()),
  });
  /** Runs the steps in order; one that fails is logged and the next still runs. */
  const phase = (steps: Array<Closer | false | undefined>) => async () => {
    for (const s of steps) {
      if (!s) continue;
      try {
        await s.close();
      } catch (err) {
        o.logger.warn('close failed', { part: s.name, error: (err as Error).message });
      }
    }
  };
  const phases: Closer[] = [
    ...(o.streams?.length ? [{ name: 'streams', close: phase(o.streams) }] : []),
    { name: 'http', close: () => server?.close() },
    {
      name: 'workers',
      close: phase([
        o.amqp && step('consumers', () => o.amqp!.stopConsuming()),
        ...[...tasks].reverse().map((t) => step('task', () => t.stop())),
        ...(o.drain ?? []).map((d) => step('drain', () => d.stop())),
        o.relay && step('relay', () => o.relay!.stop()),
      ]),
    },
    {
      name: 'connections',
      close: phase([
        o.amqp && step('amqp', () => o.amqp!.close()),
        ...(o.connections ?? []),
        o.redis && step('redis', () => o.redis!.disconnect()),
        step('database', () => o.dataSource.destroy()),
      ]),
    },
  ];

  const startWorkers = async () => {
    await o.consumers?.();
    await o.amqp?.connect();
    o.relay?.start();
    for (const t of tasks) t.start();
  };

  return {
    app,
    logger: o.logger,
    startWorkers,
    start: async () => {
      if (o.workers !== false) await startWorkers();
      server = await startHttpServer(app, o.port);
      o.logger.info(`${o.name} listening`, { port: server.port, ...o.describe });
      return server;
    },
    close: phase(phases),
    closeOnSignal: () => {
      handleShutdown(o.logger, phases, o.config.SHUTDOWN_TIMEOUT_MS);
    },
  };
}

/** The body of a service's `start.ts`: creates it, starts it, and closes it on a signal; a failed start exits 1. */
export function runService(name: string, create: () => Promise<ServiceRuntime>): void {
  Promise.resolve()
    .then(create)
    .then(async (service) => {
      await service.start();
      service.closeOnSignal();
    })
    .catch((err: unknown) => {
      process.stderr.write(`${name} failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    });
}
