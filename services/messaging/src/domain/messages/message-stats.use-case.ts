import {
  MESSAGE_STATUSES,
  type CostBucketDto,
  type MessageStatsDto,
  type StatsBucketDto,
  type StatusCounts,
} from '@bm/contracts';
import { roundCost } from '@bm/platform';
import type { MessagingDeps } from '../messaging-deps';
import type { StatsRow } from '../ports/stats.port';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const zero = (): StatusCounts => Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, 0])) as StatusCounts;

/** Every bucket of the range, oldest first, zero where nothing happened, so the charts have no gaps. */
function series(rows: StatsRow[], first: number, step: number, length: number): StatsBucketDto[] {
  const out = Array.from({ length }, (_, i) => ({
    start: new Date(first + i * step).toISOString(),
    counts: zero(),
  }));
  for (const row of rows) {
    const bucket = out[Math.round((row.start.getTime() - first) / step)];
    if (bucket && row.status in bucket.counts) bucket.counts[row.status as keyof StatusCounts] += row.count;
  }
  return out;
}

function total(buckets: StatsBucketDto[]): StatusCounts {
  const sum = zero();
  for (const b of buckets) for (const s of MESSAGE_STATUSES) sum[s] += b.counts[s];
  return sum;
}

/** Each of the 30 days, oldest first, its cost by category (those with a cost only) and in total. */
function costSeries(
  rows: Array<{ start: Date; category: string; amount: number }>,
  first: number,
): CostBucketDto[] {
  const out = Array.from({ length: 30 }, (_, i): CostBucketDto => ({
    start: new Date(first + i * DAY_MS).toISOString(),
    total: 0,
    by_category: {},
  }));
  for (const row of rows) {
    const bucket = out[Math.round((row.start.getTime() - first) / DAY_MS)];
    if (!bucket || row.amount === 0) continue;
    bucket.by_category[row.category] = roundCost((bucket.by_category[row.category] ?? 0) + row.amount);
    bucket.total = roundCost(bucket.total + row.amount);
  }
  return out;
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : Math.min(1, part / whole));

/** The overview's figures for a tenant: three primary-key range reads of small counter tables. */
export async function messageStats(
  deps: Pick<MessagingDeps, 'stats' | 'rateCard'>,
  tenantId: number,
  now = new Date(),
): Promise<MessageStatsDto> {
  const firstHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - 23 * HOUR_MS;
  const firstDay = Math.floor(now.getTime() / DAY_MS) * DAY_MS - 29 * DAY_MS;
  const currency = deps.rateCard.currency;
  const [hours, days, failures, costs] = await Promise.all([
    deps.stats.hourly(tenantId, new Date(firstHour)),
    deps.stats.daily(tenantId, new Date(firstDay)),
    deps.stats.failuresByError(tenantId, new Date(firstDay), 10),
    deps.stats.costDaily(tenantId, new Date(firstDay), currency),
  ]);
  const costDaily = costSeries(costs, firstDay);
  const hourly = series(hours, firstHour, HOUR_MS, 24);
  const daily = series(days, firstDay, DAY_MS, 30);
  const totals30 = total(daily);
  return {
    generated_at: now.toISOString(),
    hourly,
    daily,
    totals_24h: total(hourly),
    totals_30d: totals30,
    delivery_rate: ratio(totals30.delivered, totals30.sent),
    read_rate: ratio(totals30.read, totals30.delivered),
    failures_by_error: failures,
    cost_currency: currency,
    cost_daily: costDaily,
    cost_30d: roundCost(costDaily.reduce((sum, d) => sum + d.total, 0)),
  };
}
