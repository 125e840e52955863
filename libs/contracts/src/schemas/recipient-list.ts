import Joi from 'joi';
import { phoneStructureSchema } from './phone';

/*
 * A campaign's recipient list is checked by hand, not by joi `items`: joi took about 0.25 s of blocked event
 * loop for 50,000 recipients (0.6 s under jest), most of it in the `variables` pattern; the loop below takes a
 * few milliseconds. It reports through joi, with joi's codes, paths and messages (`recipients[17].phone must
 * be a string`), and a test holds it to the declarative `campaignRecipientSchema`, which the OpenAPI document shows.
 */

export const MAX_CAMPAIGN_RECIPIENTS = 50_000;
export const RECIPIENT_NAME_MAX_LENGTH = 256;
export const PLACEHOLDER_VALUE_MAX_LENGTH = 1024;
export const USER_ID_MAX_LENGTH = 256;
const BOTH_ADDRESSES_MESSAGE = '{{#label}} names the recipient by "phone" and "user_id": give one';
/** Keys of `variables`: placeholder positions "1" to "999". */
export const PLACEHOLDER_POSITION_PATTERN = /^[1-9]\d{0,2}$/;

export interface CampaignRecipientInput {
  /** As sent; the campaign service normalizes it and fails the recipient when invalid. */
  phone?: string;
  /**
   * The recipient's business-scoped user id, instead of `phone` (CONTRACT.md, the network of late 2026); a row
   * with neither, or with a malformed user id, is counted invalid.
   */
  user_id?: string;
  name?: string | null;
  /** Per-recipient values keyed by placeholder position: "1", "2", … */
  variables?: Record<string, string>;
}

export const placeholderValueSchema = Joi.string().max(PLACEHOLDER_VALUE_MAX_LENGTH);

/** One recipient, declaratively: the OpenAPI document's view and the reference of the hand-written check. */
export const campaignRecipientSchema = Joi.object<CampaignRecipientInput>({
  phone: phoneStructureSchema,
  user_id: Joi.string()
    .max(USER_ID_MAX_LENGTH)
    .description(
      "The recipient's business-scoped user id, instead of phone; a malformed one fails the recipient",
    ),
  name: Joi.string().max(RECIPIENT_NAME_MAX_LENGTH).allow(null, '').description('Display name'),
  variables: Joi.object()
    .pattern(PLACEHOLDER_POSITION_PATTERN, placeholderValueSchema)
    .description('Per-recipient template values keyed by placeholder position ("1", "2", …)'),
})
  .oxor('phone', 'user_id')
  .messages({ 'object.oxor': BOTH_ADDRESSES_MESSAGE });

type Report = (path: Array<string | number>, code: string, local?: Record<string, unknown>) => void;

const RECIPIENT_KEYS = new Set(['phone', 'user_id', 'name', 'variables']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Mirrors Joi.string() with a max: not a string, empty (unless allowed) or too long.
function checkString(
  value: unknown,
  path: Array<string | number>,
  max: number,
  report: Report,
  allowEmpty = false,
) {
  if (typeof value !== 'string') report(path, 'string.base');
  else if (value === '' && !allowEmpty) report(path, 'string.empty');
  else if (value.length > max) report(path, 'string.max', { limit: max });
}

function checkRecipient(item: unknown, index: number, report: Report): void {
  if (!isPlainObject(item)) return report([index], 'object.base', { type: 'object' });
  if (item.phone !== undefined) checkString(item.phone, [index, 'phone'], Infinity, report);
  if (item.user_id !== undefined) checkString(item.user_id, [index, 'user_id'], USER_ID_MAX_LENGTH, report);
  if (item.name !== undefined && item.name !== null) {
    checkString(item.name, [index, 'name'], RECIPIENT_NAME_MAX_LENGTH, report, true);
  }
  const variables = item.variables;
  if (variables !== undefined && !isPlainObject(variables)) {
    report([index, 'variables'], 'object.base', { type: 'object' });
  } else if (variables !== undefined) {
    for (const [key, value] of Object.entries(variables)) {
      if (!PLACEHOLDER_POSITION_PATTERN.test(key))
        report([index, 'variables', key], 'object.unknown', { child: key });
      else checkString(value, [index, 'variables', key], PLACEHOLDER_VALUE_MAX_LENGTH, report);
    }
  }
  for (const key of Object.keys(item)) {
    if (!RECIPIENT_KEYS.has(key)) report([index, key], 'object.unknown', { child: key });
  }
  if (item.phone !== undefined && item.user_id !== undefined) report([index], 'object.oxor');
}

// `errorsArray` and `state.localize` are joi's own helpers for a rule that reports several errors at several
// paths; the type definitions leave them out.
interface ReportingHelpers {
  errorsArray(): Joi.ErrorReport[];
  state: { path: Array<string | number>; localize(path: Array<string | number>): unknown };
  error(code: string, local?: Record<string, unknown>, localState?: unknown): Joi.ErrorReport;
}

function checkRecipients(list: unknown[], helpers: Joi.CustomHelpers): unknown {
  const joi = helpers as unknown as ReportingHelpers;
  const errors = joi.errorsArray();
  const report: Report = (path, code, local) =>
    errors.push(joi.error(code, local, joi.state.localize([...joi.state.path, ...path])));
  list.forEach((item, index) => checkRecipient(item, index, report));
  return errors.length > 0 ? errors : list;
}

// The array schema renders the items' errors, so it carries joi's texts for the item codes.
const ITEM_MESSAGES = {
  'object.base': '{{#label}} must be of type {{#type}}',
  'object.unknown': '{{#label}} is not allowed',
  'string.base': '{{#label}} must be a string',
  'string.empty': '{{#label}} is not allowed to be empty',
  'string.max': '{{#label}} length must be less than or equal to {{#limit}} characters long',
  'object.oxor': BOTH_ADDRESSES_MESSAGE,
};

const recipientsBase = Joi.array()
  .min(1)
  .max(MAX_CAMPAIGN_RECIPIENTS)
  .required()
  .description(`Up to ${MAX_CAMPAIGN_RECIPIENTS} recipients; an invalid phone becomes a failed recipient`);

/** `recipients` as validated at run time: each item checked by the fast loop above. */
export const recipientListSchema = recipientsBase
  .custom(checkRecipients, 'campaign recipients')
  .messages(ITEM_MESSAGES);

/** `recipients` as the OpenAPI document shows it (same rules, joi `items`). */
export const recipientListDocumentSchema = recipientsBase.items(campaignRecipientSchema);
