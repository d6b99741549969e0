import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The TOTP secrets at rest (`oa_user_totp.secret`): AES-256-GCM under a key derived with HKDF-SHA256
 * from the server's `SESSION_SECRET`, bound to the row's user id (additional data), so a copied
 * database (or a row moved to another user) does not give working secrets away.
 *
 * Stored form: `enc1:<iv>:<tag>:<ciphertext>` (base64url). A value without the `enc1:` prefix is a
 * plaintext base32 secret written before encryption existed (or while no key was configured): it
 * still works, and the caller re-encrypts it at its next use.
 *
 * No key when `SESSION_SECRET` is unset: the secret is then random per start, and a secret sealed
 * with it could not be opened after a restart (every enrolled user would be locked out of the TOTP
 * step). Secrets are therefore stored in plaintext in that case (the start-up warning says so) and
 * sealed at their next use once `SESSION_SECRET` is set. A changed `SESSION_SECRET` makes sealed
 * secrets unreadable: TOTP codes are then refused and the recovery codes (stored as hashes) remain.
 */

export const sealedPrefix = 'enc1:';

/** The encryption key, or null when none is configured. */
export type TotpKey = Buffer | null;

/** The key derived from the session secret; null when the secret was generated at start. */
export function totpKeyOf(config: { readonly sessionSecret: string; readonly sessionSecretGenerated: boolean }): TotpKey {
  if (config.sessionSecretGenerated) return null;
  return Buffer.from(hkdfSync('sha256', config.sessionSecret, 'oa_user_totp', 'totp-secret-v1', 32));
}

const aad = (userId: number): Buffer => Buffer.from(`oa_user_totp:${userId}`);

/** Whether a stored value is sealed (else it is a plaintext base32 secret). */
export const isSealed = (stored: string): boolean => stored.startsWith(sealedPrefix);

/** The stored form of `secret` for `userId`: sealed when a key exists, else the plaintext. */
export function sealSecret(key: TotpKey, userId: number, secret: string): string {
  if (key === null) return secret;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(userId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${sealedPrefix}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${body.toString('base64url')}`;
}

/** The base32 secret of a stored value; null when it is sealed and cannot be opened (no key, other key, altered). */
export function openSecret(key: TotpKey, userId: number, stored: string): string | null {
  if (!isSealed(stored)) return stored;
  if (key === null) return null;
  const parts = stored.slice(sealedPrefix.length).split(':');
  if (parts.length !== 3) return null;
  try {
    const [iv, tag, body] = parts.map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
    if (iv.length !== 12 || tag.length !== 16) return null;
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(aad(userId));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Whether a stored value should be rewritten sealed (plaintext while a key exists). */
export const needsSealing = (key: TotpKey, stored: string): boolean => key !== null && !isSealed(stored);
