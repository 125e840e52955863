import type Joi from 'joi';
import { controlError } from '../graph-errors';

/** Validates a control request body; a bad one answers 400 with every problem listed. */
export function validateControl<T>(schema: Joi.Schema<T>, value: unknown): T {
  const result = schema.validate(value ?? {}, { abortEarly: false, convert: true, stripUnknown: true });
  if (result.error) throw controlError(result.error.details.map((d) => d.message).join('; '));
  return result.value;
}
