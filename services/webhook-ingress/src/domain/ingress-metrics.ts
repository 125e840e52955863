import type { ServiceMetrics } from '@bm/platform';
import type { InboundEventStore } from './inbound-event';

/** Where an item was left out: `split` (unreadable, or refused by the contract) or `publish` (could not be stored). */
export type SkipStage = 'split' | 'publish';

export interface IngressMetrics {
  skippedItems: { inc(labels: { stage: SkipStage }, value?: number): void };
  failedEvents: { inc(value?: number): void };
  replacedTexts: { inc(value?: number): void };
}

/**
 * What the splitter left out: items skipped, bodies given up (`failed`, counted when given up and, read from the
 * audit log at scrape time, still waiting for an operator), and strings whose unstorable characters were replaced.
 */
export function ingressMetrics(
  metrics: ServiceMetrics,
  events: Pick<InboundEventStore, 'countFailed'>,
): IngressMetrics {
  metrics.sampledGauge(
    {
      name: 'bm_ingress_inbound_events_failed',
      help: 'Stored webhook bodies given up after failures that will not change (outcome failed in the audit log)',
    },
    async () => [{ labels: {}, value: await events.countFailed() }],
  );
  return {
    skippedItems: metrics.counter({
      name: 'bm_ingress_items_skipped_total',
      help: 'Items of webhook bodies left out, by stage: split (unreadable or refused by the contract) or publish',
      labelNames: ['stage'],
    }),
    failedEvents: metrics.counter({
      name: 'bm_ingress_inbound_events_failed_total',
      help: 'Webhook bodies given up because splitting them kept failing for a reason that will not change',
    }),
    replacedTexts: metrics.counter({
      name: 'bm_ingress_texts_replaced_total',
      help: 'Strings of webhook bodies whose NUL or unpaired surrogates were replaced with U+FFFD to be stored',
    }),
  };
}
