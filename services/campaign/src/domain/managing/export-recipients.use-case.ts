import { RECIPIENT_EXPORT_COLUMNS } from '@bm/contracts';
import type { CsvValue } from '@bm/platform';
import type { CampaignDeps } from '../campaign-deps';
import type { Recipient } from '../ports/recipients.port';
import { campaignOf } from './campaign-of';

/** Recipients read per query: an export holds one page in memory, whatever the campaign's size. */
export const RECIPIENT_EXPORT_PAGE_SIZE = 1000;

const rowOf = (r: Recipient): CsvValue[] => [
  r.id,
  r.userId ? null : r.phone || null,
  r.userId,
  r.name,
  r.status,
  r.errorMessage,
  r.messageLogId,
  r.sentAt,
  r.attempt,
];

/**
 * GET /api/v1/campaigns/{id}/recipients/export: the tenant's campaign's recipients as CSV rows (by status, then
 * in the order they were added), read page by page, each page only once the previous one has been written. The
 * campaign is looked up first: another tenant's is 404 before any byte of CSV.
 */
export async function exportRecipients(
  deps: Pick<CampaignDeps, 'campaigns' | 'recipients'>,
  tenantId: number,
  id: string,
  pageSize = RECIPIENT_EXPORT_PAGE_SIZE,
): Promise<{ filename: string; header: readonly string[]; pages: AsyncIterable<CsvValue[][]> }> {
  const campaign = await campaignOf(deps, tenantId, id);
  async function* pages(): AsyncGenerator<CsvValue[][]> {
    let after: { status: string; id: string } | null = null;
    for (;;) {
      const page = await deps.recipients.exportPage(campaign.id, after, pageSize);
      if (page.length > 0) yield page.map(rowOf);
      if (page.length < pageSize) return;
      const last = page[page.length - 1];
      after = { status: last.status, id: last.id };
    }
  }
  return {
    filename: `campaign-${campaign.id}-recipients.csv`,
    header: RECIPIENT_EXPORT_COLUMNS,
    pages: pages(),
  };
}
