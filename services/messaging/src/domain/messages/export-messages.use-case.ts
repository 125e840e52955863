import { MESSAGE_EXPORT_COLUMNS, type MessageFilterQuery } from '@bm/contracts';
import type { CsvValue } from '@bm/platform';
import type { MessagingDeps } from '../messaging-deps';
import type { MessageLog } from '../ports/message-log.port';
import { recipientOf } from '../lifecycle/message-lifecycle';
import { messageFilterOf } from './list-messages.use-case';
import { templateParametersText, toMessageContentDto } from './message-content';

/** Messages read per query: an export holds one page in memory, whatever its length. */
export const EXPORT_PAGE_SIZE = 500;

function rowOf(m: MessageLog): CsvValue[] {
  const c = toMessageContentDto(m.content);
  const template = c.type === 'template' ? c : null;
  const text =
    c.type === 'text'
      ? c.text
      : c.type === 'template'
        ? templateParametersText(c.components)
        : JSON.stringify(c.interactive);
  const error =
    m.errorMessage === null && m.errorCode === null
      ? null
      : [m.errorCode, m.errorMessage].filter((v) => v !== null).join(': ');
  const to = recipientOf(m);
  return [
    m.id,
    m.createdAt,
    m.channelAccountId,
    m.fromPhone ?? null,
    to.phone ?? to.userId,
    m.messageType,
    template?.name ?? null,
    template?.language ?? null,
    text,
    m.status,
    m.sentAt,
    m.deliveredAt,
    m.readAt,
    m.failedAt,
    error,
    m.campaignId,
    m.providerMessageId,
  ];
}

/**
 * GET /api/v1/messages/export: the tenant's messages matching the list's filters, newest first, as CSV rows read
 * page by page (keyset on the id), each page only once the previous one has been written.
 */
export function exportMessages(
  deps: Pick<MessagingDeps, 'reader'>,
  tenantId: number,
  query: MessageFilterQuery,
  pageSize = EXPORT_PAGE_SIZE,
): { filename: string; header: readonly string[]; pages: AsyncIterable<CsvValue[][]> } {
  const filter = messageFilterOf(query);
  async function* pages(): AsyncGenerator<CsvValue[][]> {
    let beforeId: number | null = null;
    for (;;) {
      const page = await deps.reader.exportPage(tenantId, filter, beforeId, pageSize);
      if (page.length > 0) yield page.map(rowOf);
      if (page.length < pageSize) return;
      beforeId = page[page.length - 1].id;
    }
  }
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return { filename: `messages-${stamp}.csv`, header: MESSAGE_EXPORT_COLUMNS, pages: pages() };
}
