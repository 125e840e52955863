import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { checkWithin } from '../health';

/** Seconds buckets for request and call latencies, from 5 ms to 10 s. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The label of an HTTP status family (`2xx`...`5xx`), or `none` when no answer came (refused, reset, timeout). */
export function statusClass(httpStatus: number | null): string {
  return httpStatus === null ? 'none' : `${Math.floor(httpStatus / 100)}xx`;
}

export interface MetricDefinition<L extends string> {
  /** `bm_` + snake_case; counters end in `_total`, durations in `_seconds`. */
  name: string;
  help: string;
  labelNames?: readonly L[];
}

export type Labels<L extends string> = Partial<Record<L, string | number>>;

/** One reading of a sampled gauge: its labels and value. */
export interface Sample<L extends string> {
  labels: Labels<L>;
  value: number;
}

interface SampledGauge {
  sources: Set<() => Promise<Array<Sample<string>>>>;
}

// A slow source (a database far away) must not hold the scrape past Prometheus' own timeout.
const SAMPLE_TIMEOUT_MS = 2_000;

/**
 * How often the event-loop lag histogram samples (`nodejs_eventloop_lag_*`). prom-client's default, 10 ms, wakes
 * an idle process 100 times a second: about 0.26% of a core per service on the bench machine, half the idle
 * stack's cost. At 100 ms every stall longer than 100 ms is still seen, and shorter ones in proportion to their
 * length, which is what the p99 lag panel needs.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * The metrics of one service: its own registry (every series labelled `service`), default Node metrics, and
 * get-or-create factories, so any module of the service asks for a metric by name and gets the one that
 * `GET /metrics` serves. Obtain it with `serviceMetrics(name)`.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly sampled = new Map<string, SampledGauge>();

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  }

  /** The counter of that name, created on first use. */
  counter<L extends string>(def: MetricDefinition<L>): Counter<L> {
    return this.getOrCreate(def.name, () => new Counter({ ...this.base(def) }));
  }

  /** The histogram of that name (latency buckets unless given), created on first use. */
  histogram<L extends string>(def: MetricDefinition<L> & { buckets?: number[] }): Histogram<L> {
    return this.getOrCreate(
      def.name,
      () => new Histogram({ ...this.base(def), buckets: def.buckets ?? LATENCY_BUCKETS }),
    );
  }

  /** The gauge of that name, created on first use; set it yourself. */
  gauge<L extends string>(def: MetricDefinition<L>): Gauge<L> {
    return this.getOrCreate(def.name, () => new Gauge({ ...this.base(def) }));
  }

  /**
   * A gauge read at scrape time from every registered source (several may feed it, e.g. one outbox relay per
   * schema). A source that fails or is slow is left out of that scrape. Returns the function that unregisters it.
   */
  sampledGauge<L extends string>(
    def: MetricDefinition<L>,
    source: () => Promise<Array<Sample<L>>>,
  ): () => void {
    let entry = this.sampled.get(def.name);
    if (!entry) {
      const sources: SampledGauge['sources'] = new Set();
      entry = { sources };
      this.sampled.set(def.name, entry);
      new Gauge({
        ...this.base(def),
        async collect() {
          this.reset();
          const readings = await Promise.all([...sources].map((read) => readWithin(read)));
          for (const sample of readings.flat()) this.set(sample.labels, sample.value);
        },
      });
    }
    const sources = entry.sources;
    const read = source;
    sources.add(read);
    return () => sources.delete(read);
  }

  /** The Prometheus text exposition of every metric of the service. */
  async expose(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private base<L extends string>(def: MetricDefinition<L>) {
    return {
      name: def.name,
      help: def.help,
      labelNames: [...(def.labelNames ?? [])] as L[],
      registers: [this.registry],
    };
  }

  private getOrCreate<M>(name: string, create: () => M): M {
    return (this.registry.getSingleMetric(name) as M | undefined) ?? create();
  }
}

async function readWithin(read: () => Promise<Array<Sample<string>>>): Promise<Array<Sample<string>>> {
  let samples: Array<Sample<string>> = [];
  const ok = await checkWithin(async () => {
    samples = await read();
  }, SAMPLE_TIMEOUT_MS);
  return ok ? samples : [];
}

const byService = new Map<string, ServiceMetrics>();

/**
 * The metrics of the named service, one per process and name: `createHttpApp` serves them at `GET /metrics`.
 * A use case registers its own series here, e.g.
 * `serviceMetrics('campaign').counter({ name: 'bm_campaign_recipients_total', help: '...', labelNames: ['status'] }).inc({ status: 'sent' })`.
 */
export function serviceMetrics(service: string): ServiceMetrics {
  let metrics = byService.get(service);
  if (!metrics) {
    metrics = new ServiceMetrics(service);
    byService.set(service, metrics);
  }
  return metrics;
}
