import { SecretBox } from '@bm/platform';

describe('SecretBox', () => {
  it('when a secret is sealed, then only the same key opens it and the stored form does not contain it', () => {
    const box = new SecretBox('key-one');
    const sealed = box.seal('EAAG-secret-token');
    expect(sealed).not.toContain('EAAG');
    expect(box.open(sealed)).toBe('EAAG-secret-token');
    expect(() => new SecretBox('key-two').open(sealed)).toThrow();
  });

  it('when the same secret is sealed twice, then the two stored forms differ', () => {
    const box = new SecretBox('k');
    expect(box.seal('x')).not.toBe(box.seal('x'));
  });
});
