import Joi from 'joi';
import { AppError, fieldPath, validate } from '@bm/platform';

describe('validate', () => {
  it('when fields are bad, then every one is listed with its API path', () => {
    const schema = Joi.object({
      recipients: Joi.array().items(Joi.object({ phone: Joi.string().required() })),
    });
    let caught: unknown;
    try {
      validate(schema, { recipients: [{ phone: 'x' }, {}] });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    const error = caught as AppError;
    expect(error.status).toBe(422);
    expect(error.details).toEqual({
      errors: [{ field: 'recipients[1].phone', message: expect.any(String) }],
    });
  });

  it('when a string holds a NUL character (PostgreSQL cannot store one), then 422 names its field', () => {
    const schema = Joi.object({ recipients: Joi.array().items(Joi.object().unknown()) });
    const detailsOf = (value: unknown) => {
      try {
        validate(schema, value);
      } catch (err) {
        return (err as AppError).details;
      }
      return undefined;
    };
    expect(detailsOf({ recipients: [{ phone: '1' }, { variables: { 'a\u0000': 'x' } }] })).toEqual({
      errors: [{ field: 'recipients[1].variables.a\u0000', message: expect.stringMatching(/NUL/) }],
    });
    // A deeply nested body is walked in linear time without recursion.
    const deep = JSON.parse(`${'['.repeat(100_000)}"\\u0000"${']'.repeat(100_000)}`) as unknown;
    expect(detailsOf(deep)).toEqual({ errors: [{ field: expect.any(String), message: expect.any(String) }] });
  });

  it('when a path has indexes, then it reads like recipients[17].phone', () => {
    expect(fieldPath(['recipients', 17, 'phone'])).toBe('recipients[17].phone');
  });
});
