import { createHash, randomBytes } from 'node:crypto';

/** What every API key starts with, so a leaked key is recognisable in a scan. */
export const API_KEY_PREFIX = 'gpk_';

/** Characters of a key kept in clear (prefix included) so people can tell their keys apart. */
const VISIBLE_LENGTH = 12;

/** A freshly made API key: the key itself (shown once), and what is stored. */
export interface NewApiKey {
  key: string;
  /** The first characters, stored in clear for display. */
  visiblePrefix: string;
  /** SHA-256 of the whole key, lowercase hex: the only form stored. */
  hash: string;
}

/**
 * Makes an API key: `gpk_` followed by 32 random bytes in base64url.
 * @example createApiKey().key → 'gpk_3q2-7w…' (47 characters)
 */
export function createApiKey(): NewApiKey {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, visiblePrefix: visiblePrefixOf(key), hash: hashApiKey(key) };
}

/** Returns the stored form of a key: SHA-256, lowercase hex. A high-entropy key needs no slow hash. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Returns the part of a key that may be shown. @example visiblePrefixOf('gpk_abcdefghijk…') → 'gpk_abcdefgh' */
export function visiblePrefixOf(key: string): string {
  return key.slice(0, VISIBLE_LENGTH);
}

/**
 * Makes an organization's webhook signing secret: `whsec_` followed by 32 random bytes in base64url.
 * @example createSigningSecret() → 'whsec_Xy3…' (49 characters)
 */
export function createSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * Reads the key from an `Authorization` header value, or undefined when it is not `Bearer <key>`.
 * @example bearerToken('Bearer gpk_abc') → 'gpk_abc'; bearerToken('Basic eDp5') → undefined
 */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header ?? '');
  return match?.[1];
}
