/**
 * The SET list of a message log's move to a status: the one place that says which columns each status sets.
 * Its time column (`sent_at` also on a delivered or read report that overtook the send: it was handed over by
 * then), no attempt in progress nor due, and `updated_at`. `status` and `at` are SQL expressions (a parameter,
 * an input column, a literal); the row being updated is aliased `m`. A failure's code and message, and a
 * wamid, are the caller's to add. Every move ends a hold (`held`, false unless the send's answer said held).
 */
export function statusColumns(status: string, at: string, held = 'false'): string {
  return `status = ${status}, held = ${held},
    sent_at = CASE WHEN ${status} = 'sent' THEN ${at}
                   WHEN ${status} IN ('delivered', 'read') THEN coalesce(m.sent_at, ${at}) ELSE m.sent_at END,
    delivered_at = CASE WHEN ${status} = 'delivered' THEN ${at} ELSE m.delivered_at END,
    read_at = CASE WHEN ${status} = 'read' THEN ${at} ELSE m.read_at END,
    failed_at = CASE WHEN ${status} = 'failed' THEN ${at} ELSE m.failed_at END,
    attempt_started_at = NULL, next_attempt_at = NULL, updated_at = now()`;
}
