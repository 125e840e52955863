import {
  INVALID_PHONE_RECIPIENT_ERROR,
  INVALID_TEXT_RECIPIENT_ERROR,
  INVALID_USER_ID_RECIPIENT_ERROR,
  isUserIdAddress,
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
 * Recipients `from` to `to` of the list: phones normalized (an invalid one kept as submitted, to fail), an address
 * (phone or user id) already `seen` earlier in the list (in any part) dropped. A row with an unpaired surrogate (the route lets
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
    // The recipient's address: their user id when given (it must look like one), else their phone's digits. A
    // row with neither, or a malformed one, is kept as submitted, to fail.
    const userId = item.user_id === undefined ? null : item.user_id;
    const normalized =
      userId !== null ? (isUserIdAddress(userId) ? userId : null) : normalizePhone(item.phone ?? '');
    const phone = normalized ?? storableText(userId ?? item.phone ?? '');
    if (seen.has(phone)) continue;
    seen.add(phone);
    const variables = item.variables && Object.keys(item.variables).length > 0 ? item.variables : null;
    const name = item.name || null;
    const error =
      normalized === null
        ? item.user_id !== undefined
          ? INVALID_USER_ID_RECIPIENT_ERROR
          : INVALID_PHONE_RECIPIENT_ERROR
        : storableRow(item)
          ? null
          : INVALID_TEXT_RECIPIENT_ERROR;
    rows.push(
      error === null
        ? { phone, userId, name, variables, error }
        : {
            phone,
            userId: userId && storableText(userId),
            name: name && storableText(name),
            variables: variables && storableJson(variables).value,
            error,
          },
    );
  }
  return rows;
}
