import type Joi from 'joi';

/**
 * A customer's message names them by phone (`from`), by business-scoped user id (`from_user_id`), or both
 * (CONTRACT.md, the network of late 2026): an object schema's check that one of them is there.
 */
export const namesTheCustomer: Joi.CustomValidator<{ from?: string | null; from_user_id?: string | null }> = (
  value,
  helpers,
) =>
  value.from || value.from_user_id
    ? value
    : helpers.message({ custom: '"from" or "from_user_id" must name the customer' });
