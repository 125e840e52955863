import { scryptSync } from 'node:crypto';
import { hashPassword, verifyPassword } from '../../src/domain/dashboard-users/passwords';

/* The password rules: scrypt with OWASP parameters, carried in the stored string; a real hash costs ~100 ms. */

describe('passwords', () => {
  it('when a password is hashed, then the stored string names scrypt, its parameters and a 16-byte salt', async () => {
    const stored = await hashPassword('correct horse battery staple');

    const [scheme, n, r, p, salt, hash] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', String(2 ** 17), '8', '1']);
    expect(Buffer.from(salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash, 'base64')).toHaveLength(64);
  });

  it('when the same password is hashed twice, then the salts (and so the strings) differ', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);

    expect(a).not.toBe(b);
  });

  it('when the right password is given, then it matches; a wrong one does not', async () => {
    const stored = await hashPassword('s3cret-enough');

    expect(await verifyPassword('s3cret-enough', stored)).toBe(true);
    expect(await verifyPassword('s3cret-enougH', stored)).toBe(false);
  });

  it('when a password is written in another Unicode form, then it matches the same (NFKC)', async () => {
    const stored = await hashPassword('caf\u00e9');

    expect(await verifyPassword('cafe\u0301', stored)).toBe(true);
  });

  it('when the user has no password yet, then nothing matches, not even an empty one', async () => {
    expect(await verifyPassword('', null)).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
  });

  it('when the stored hash is of another scheme, then nothing matches', async () => {
    expect(await verifyPassword('x', 'bcrypt$2b$10$abc')).toBe(false);
  });

  it('when the stored hash was made with other scrypt parameters, then they are read from it', async () => {
    // A cheaper hash made as an older release might have: the parameters in the string are the ones used.
    const salt = Buffer.alloc(16, 7);
    const key = scryptSync('legacy', salt, 64, { N: 2 ** 10, r: 8, p: 1 });
    const stored = ['scrypt', 2 ** 10, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');

    expect(await verifyPassword('legacy', stored)).toBe(true);
  });
});
