import { generateApiKey, hashSecret, parseApiKey, secretMatches } from '../../src/domain/api-keys/api-key';

/* The API key's format and checks, without a database: what a key looks like, how it is split, how it is compared. */

describe('api key format', () => {
  it('when a key is generated, then it is bm_live_, its ULID key id and 43 url-safe characters', () => {
    const { keyId, apiKey } = generateApiKey();

    expect(keyId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(apiKey).toMatch(new RegExp(`^bm_live_${keyId}[A-Za-z0-9_-]{43}$`));
  });

  it('when two keys are generated, then their ids and secrets differ', () => {
    const a = generateApiKey();
    const b = generateApiKey();

    expect(a.keyId).not.toBe(b.keyId);
    expect(a.apiKey.slice(34)).not.toBe(b.apiKey.slice(34));
  });

  it('when a generated key is parsed, then it gives back its key id and a secret whose hash was kept', () => {
    const generated = generateApiKey();

    const parsed = parseApiKey(generated.apiKey);

    expect(parsed?.keyId).toBe(generated.keyId);
    expect(hashSecret(parsed!.secret)).toEqual(generated.secretHash);
  });

  it.each([
    ['an empty string', ''],
    ['another prefix', 'bm_test_01ARZ3NDEKTSV4RRFFQ69G5FAVAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a secret one character short', 'bm_live_01ARZ3NDEKTSV4RRFFQ69G5FAV' + 'A'.repeat(42)],
    ['a secret one character long', 'bm_live_01ARZ3NDEKTSV4RRFFQ69G5FAV' + 'A'.repeat(44)],
    ['a key id with a letter ULIDs never use', 'bm_live_01ARZ3NDEKTSV4RRFFQ69G5FAU' + 'A'.repeat(43)],
    ['a secret with a character outside base64url', 'bm_live_01ARZ3NDEKTSV4RRFFQ69G5FAV' + '+'.repeat(43)],
  ])('when %s is parsed, then it is not one of our keys', (_what, presented) => {
    expect(parseApiKey(presented)).toBeUndefined();
  });

  it('when the presented secret is the one hashed, then it matches; any other secret does not', () => {
    const generated = generateApiKey();
    const { secret } = parseApiKey(generated.apiKey)!;

    const other = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;

    expect(secretMatches(secret, generated.secretHash)).toBe(true);
    expect(secretMatches(other, generated.secretHash)).toBe(false);
    expect(secretMatches(secret, Buffer.alloc(32))).toBe(false);
  });

  it('when the stored hash has another length, then nothing matches (and nothing throws)', () => {
    expect(secretMatches('anything', Buffer.alloc(16))).toBe(false);
  });
});
