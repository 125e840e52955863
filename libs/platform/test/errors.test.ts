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

  it('when a path has indexes, then it reads like recipients[17].phone', () => {
    expect(fieldPath(['recipients', 17, 'phone'])).toBe('recipients[17].phone');
  });
});
