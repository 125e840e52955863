import {
  INVALID_PHONE_RECIPIENT_ERROR,
  INVALID_TEXT_RECIPIENT_ERROR,
  normalizePhone,
  type CampaignRecipientInput,
} from '@bm/contracts';
import { isStorableText, storableJson, storableText } from '@bm/platform';
import type { NewRecipient } from '../ports/recipients.port';

/** Recipients written per statement: the next chunk is normalized while the database writes this one. */
export const CHUNK = 5_000;

/** Whether a recipient's name and variables (keys and values) can be stored. */
function storableRow(item: CampaignRecipientInput): boolean {
  if (item.name && !isStorableText(item.name)) return false;
  return Object.entries(item.variables ?? {}).every(([k, v]) => isStorableText(k) && isStorableText(v));
}

/**
 * Recipients `from` to `to` of the list: phones normalized (an invalid one kept as submitted, to fail), a phone
 * already `seen` earlier in the list (in any part) dropped. A row with an unpaired surrogate (the route lets
 * those through so that they fail alone) fails like an invalid phone, its text stored with U+FFFD in their place.
 */
export function chunkOf(
  list: readonly CampaignRecipientInput[],
  from: number,
  to: number,
  seen: Set<string>,
): NewRecipient[] {
  const rows: NewRecipient[] = [];
  for (let i = from; i < to; i += 1) {
    const item = list[i];
    const normalized = normalizePhone(item.phone);
    const phone = normalized ?? storableText(item.phone);
    if (seen.has(phone)) continue;
    seen.add(phone);
    const variables = item.variables && Object.keys(item.variables).length > 0 ? item.variables : null;
    const name = item.name || null;
    const error =
      normalized === null
        ? INVALID_PHONE_RECIPIENT_ERROR
        : storableRow(item)
          ? null
          : INVALID_TEXT_RECIPIENT_ERROR;
    rows.push(
      error === null
        ? { phone, name, variables, error }
        : {
            phone,
            name: name && storableText(name),
            variables: variables && storableJson(variables).value,
            error,
          },
    );
  }
  return rows;
}
