import Joi from 'joi';
import { AppError, fieldPath, storableJson, storableText, validate } from '@bm/platform';

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

  it('when a string holds an unpaired surrogate, then 422 names its field, except inside rows that fail alone', () => {
    const schema = Joi.object({ text: Joi.string(), recipients: Joi.array().items(Joi.object().unknown()) });
    const detailsOf = (value: unknown, rowsFailAlone?: string) => {
      try {
        validate(schema, value, { rowsFailAlone });
      } catch (err) {
        return (err as AppError).details;
      }
      return undefined;
    };
    expect(detailsOf({ text: 'a\ud800b' })).toEqual({
      errors: [{ field: 'text', message: 'text must not contain unpaired UTF-16 surrogates' }],
    });
    expect(detailsOf({ text: 'ok \ud83d\udcac' })).toBeUndefined();
    const rows = { recipients: [{ phone: '1', variables: { '\udc00': 'x' } }] };
    expect(detailsOf(rows)).toEqual({
      errors: [{ field: 'recipients[0].variables.\udc00', message: expect.stringMatching(/surrogates/) }],
    });
    expect(detailsOf(rows, 'recipients')).toBeUndefined();
    // NUL is refused in those rows all the same.
    expect(detailsOf({ recipients: [{ name: 'a\u0000' }] }, 'recipients')).toEqual({
      errors: [{ field: 'recipients[0].name', message: expect.stringMatching(/NUL/) }],
    });
  });

  it('when a JSON value holds NUL and unpaired surrogates, then storableJson replaces them in values and keys only', () => {
    const { value, replaced } = storableJson({ a: ['x\u0000', 'ok 💬'], 'k\ud800': { b: '\udfff' } });
    expect(value).toEqual({ a: ['x\ufffd', 'ok 💬'], 'k\ufffd': { b: '\ufffd' } });
    expect(replaced).toBe(3);
    expect(storableText('\ud83d\udcac\ud83d')).toBe('\ud83d\udcac\ufffd');
  });

  it('when a path has indexes, then it reads like recipients[17].phone', () => {
    expect(fieldPath(['recipients', 17, 'phone'])).toBe('recipients[17].phone');
  });
});
