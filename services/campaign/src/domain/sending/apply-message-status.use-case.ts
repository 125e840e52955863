import type { CampaignDeps } from '../campaign-deps';
import type { MessageOutcome } from '../ports/recipients.port';

/**
 * Campaign recipients follow their messages (applied in groups: a large campaign's answers arrive by the
 * thousand): `sent` once the upstream took it (a later delivered or read report changes nothing more), `failed`
 * with the message's error when it fails. Duplicates and answers about an earlier attempt change nothing.
 * The dispatcher's next pass (a fraction of a second, or at once when half a batch was answered) sees a finished
 * campaign or the room freed in flight.
 */
export async function applyMessageOutcomes(
  deps: Pick<CampaignDeps, 'recipients' | 'metrics' | 'recipientsAnswered'>,
  outcomes: readonly MessageOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const changed = await deps.recipients.applyOutcomes(outcomes);
  if (changed.sent > 0) deps.metrics.recipients.inc({ status: 'sent' }, changed.sent);
  if (changed.failed > 0) deps.metrics.recipients.inc({ status: 'failed' }, changed.failed);
  deps.recipientsAnswered(changed.sent + changed.failed);
}
