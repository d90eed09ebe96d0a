import { describe, expect, it } from 'vitest';
import { bearerToken, createApiKey, createSigningSecret, hashApiKey, visiblePrefixOf } from '../../../src/lib/publish/keys.ts';

describe('createApiKey', () => {
  it('makes a gpk_ key of 32 random bytes, with its visible prefix and SHA-256', () => {
    const made = createApiKey();
    expect(made.key).toMatch(/^gpk_[A-Za-z0-9_-]{43}$/);
    expect(made.visiblePrefix).toBe(made.key.slice(0, 12));
    expect(made.hash).toBe(hashApiKey(made.key));
    expect(made.hash).not.toContain(made.key.slice(4));
  });

  it('never makes the same key twice', () => {
    const keys = new Set(Array.from({ length: 200 }, () => createApiKey().key));
    expect(keys.size).toBe(200);
  });
});

describe('hashApiKey', () => {
  it('is SHA-256 in lowercase hex', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('visiblePrefixOf', () => {
  it('keeps the first twelve characters', () => {
    expect(visiblePrefixOf('gpk_abcdefghijklmnop')).toBe('gpk_abcdefgh');
  });
});

describe('createSigningSecret', () => {
  it('makes a whsec_ secret of 32 random bytes in base64url', () => {
    expect(createSigningSecret()).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(createSigningSecret()).not.toBe(createSigningSecret());
  });
});

describe('bearerToken', () => {
  it('reads the key from "Bearer <key>", whatever the scheme case', () => {
    expect(bearerToken('Bearer gpk_abc')).toBe('gpk_abc');
    expect(bearerToken('bearer gpk_abc')).toBe('gpk_abc');
  });

  it('returns undefined for a missing header, another scheme or an empty key', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Basic eDp5')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
  });
});
