import { describe, expect, it } from 'vitest';
import { buildSignedPayload, parseSignatureHeader, signPayload, verifySignature } from '../../../src/lib/webhooks/signature.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const T = 1714000000;
const BODY = Buffer.from('{"event":"design.completed","handle":"7c9e6679-7425-40de-944b-e07fc1f90ae7","data":{"done":true}}', 'utf8');
const HEADER = signPayload(SECRET, T, BODY);
const AT_T = () => T * 1000;

// Expected values were computed once with Python's hmac module, independently of this code.
const VECTORS = [
  {
    name: 'unicode text',
    body: Buffer.from('{"stage":"Fertig ✓ — 完成 🎉","prompt":"naïve café"}', 'utf8'),
    v1: 'cef156ae173e0a5f9467bc155a0aaefcaf543fcd8d5dcc63e8029e33b50c320c',
  },
  {
    name: 'CRLF line endings',
    body: Buffer.from('{\r\n  "a": 1\r\n}\r\n', 'utf8'),
    v1: 'e2dc27c6dfc968652cfbeaba69d0ae01e603bb6ea231f93d4696d5828c12195b',
  },
  {
    name: 'a byte order mark',
    body: Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('{"a":1}')]),
    v1: '73a57f2b668d3bcdf90aaadf2d4f559380e08abcbe6129e7f3a36a2abd7f8fb2',
  },
  {
    name: 'trailing whitespace',
    body: Buffer.from('{"a":1} \t\n', 'utf8'),
    v1: 'd7d3b80fbaaa6e641df00013e5e3586cbf4b03ea4e64230480799b6c8543fae1',
  },
  { name: 'an empty body', body: Buffer.alloc(0), v1: '51906ae4f0c04432fd5427c8658d4f86ff8ad42fe9219458568997dc895915a5' },
];

function verifyAt(header: string, body: Uint8Array | string = BODY, overrides: Partial<Parameters<typeof verifySignature>[0]> = {}) {
  return verifySignature({ header, body, secrets: [SECRET], now: AT_T, ...overrides });
}

function replaceV1(header: string, v1: string): string {
  return header.replace(/v1=[0-9a-f]+/, `v1=${v1}`);
}

describe('buildSignedPayload', () => {
  it('joins the timestamp, a dot and the raw body bytes', () => {
    expect(buildSignedPayload(T, Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toEqual(
      Buffer.concat([Buffer.from('1714000000.'), Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])]),
    );
  });

  it('refuses a fractional or negative timestamp', () => {
    expect(() => buildSignedPayload(1.5, '')).toThrow(/whole non-negative Unix seconds/);
    expect(() => buildSignedPayload(-1, '')).toThrow(/whole non-negative Unix seconds/);
  });

  it('refuses a parsed object instead of raw bytes', () => {
    expect(() => buildSignedPayload(T, { a: 1 } as unknown as string)).toThrow(/raw request bytes/);
  });
});

describe('signPayload', () => {
  it.each(VECTORS)('signs a body with $name byte for byte', ({ body, v1 }) => {
    expect(signPayload(SECRET, T, body)).toBe(`t=1714000000,v1=${v1}`);
  });

  it('keys the HMAC with the whole secret, whsec_ prefix included, as UTF-8', () => {
    expect(signPayload('whsec_clé', T, '{}')).toBe('t=1714000000,v1=d6678c4e34550a149a9cae12b652422bbc4148a2fdd75c48232106926928e3c4');
    expect(signPayload(SECRET.slice('whsec_'.length), T, BODY)).not.toBe(HEADER);
  });

  it('signs a string body as its UTF-8 bytes', () => {
    const [unicode] = VECTORS;
    expect(signPayload(SECRET, T, unicode!.body.toString('utf8'))).toBe(signPayload(SECRET, T, unicode!.body));
  });
});

describe('parseSignatureHeader', () => {
  it('splits each part on the first "=" only', () => {
    expect(parseSignatureHeader('t=5,v1=ab=cd')).toEqual({ timestamp: 5, signatures: ['ab=cd'] });
  });

  it('collects every v1 in order and ignores other schemes', () => {
    expect(parseSignatureHeader('v0=zz,t=5,v1=aa,v1=bb')).toEqual({ timestamp: 5, signatures: ['aa', 'bb'] });
  });
});

describe('verifySignature', () => {
  it('accepts a delivery signed with the secret', () => {
    expect(verifyAt(HEADER)).toEqual({ accepted: true, timestamp: T });
  });

  it.each(VECTORS)('accepts the signing vector with $name', ({ body, v1 }) => {
    expect(verifyAt(`t=${T},v1=${v1}`, body)).toEqual({ accepted: true, timestamp: T });
  });

  it('rejects a body changed by one byte', () => {
    const tampered = Buffer.from(BODY);
    tampered[tampered.length - 2] = 0x20;
    expect(verifyAt(HEADER, tampered)).toEqual({ accepted: false, reason: 'no v1 signature matches the raw body with the given secret' });
  });

  it('rejects JSON that was parsed and re-serialized', () => {
    const pretty = JSON.stringify(JSON.parse(BODY.toString()), null, 2);
    const header = signPayload(SECRET, T, pretty);
    expect(verifyAt(header, JSON.stringify(JSON.parse(pretty))).accepted).toBe(false);
  });

  it('rejects a delivery signed with another secret', () => {
    expect(verifyAt(HEADER, BODY, { secrets: ['whsec_other'] })).toEqual({
      accepted: false,
      reason: 'no v1 signature matches the raw body with the given secret',
    });
  });

  it('accepts when the second of two secrets matches (rotation)', () => {
    expect(verifyAt(HEADER, BODY, { secrets: ['whsec_new', SECRET] }).accepted).toBe(true);
  });

  it('accepts when any of several v1 values matches', () => {
    const good = HEADER.slice(HEADER.indexOf('v1='));
    expect(verifyAt(`t=${T},v1=${'0'.repeat(64)},${good}`).accepted).toBe(true);
  });

  it('rejects when none of several v1 values matches', () => {
    expect(verifyAt(`t=${T},v1=${'0'.repeat(64)},v1=${'1'.repeat(64)}`, BODY, { secrets: ['whsec_a', 'whsec_b'] })).toEqual({
      accepted: false,
      reason: 'no v1 signature matches the raw body with the given secrets',
    });
  });

  it('points at whitespace around a secret when nothing matches', () => {
    expect(verifyAt(HEADER, BODY, { secrets: [`${SECRET}\n`] })).toEqual({
      accepted: false,
      reason: 'no v1 signature matches the raw body with the given secret (a secret has leading or trailing whitespace)',
    });
  });

  it('accepts a timestamp exactly at the tolerance in both directions', () => {
    expect(verifyAt(HEADER, BODY, { now: () => (T + 300) * 1000 }).accepted).toBe(true);
    expect(verifyAt(HEADER, BODY, { now: () => (T - 300) * 1000 }).accepted).toBe(true);
  });

  it('rejects a timestamp older than the tolerance', () => {
    expect(verifyAt(HEADER, BODY, { now: () => (T + 301) * 1000 })).toEqual({
      accepted: false,
      reason: 'timestamp too old: signed 301 s ago, tolerance is 300 s',
    });
  });

  it('rejects a timestamp older than the tolerance by less than a second', () => {
    expect(verifyAt(HEADER, BODY, { now: () => (T + 300) * 1000 + 999 })).toEqual({
      accepted: false,
      reason: 'timestamp too old: signed 300.999 s ago, tolerance is 300 s',
    });
    expect(verifyAt(HEADER, BODY, { now: () => (T - 300) * 1000 - 1 })).toMatchObject({
      accepted: false,
      reason: 'timestamp in the future: signed 300.001 s ahead, tolerance is 300 s',
    });
  });

  it('rejects a timestamp further in the future than the tolerance', () => {
    expect(verifyAt(HEADER, BODY, { now: () => (T - 301) * 1000 })).toEqual({
      accepted: false,
      reason: 'timestamp in the future: signed 301 s ahead, tolerance is 300 s',
    });
  });

  it('applies a configured tolerance', () => {
    expect(verifyAt(HEADER, BODY, { now: () => (T + 11) * 1000, toleranceSeconds: 10 }).accepted).toBe(false);
    expect(verifyAt(HEADER, BODY, { now: () => (T + 1000) * 1000, toleranceSeconds: 1000 }).accepted).toBe(true);
  });

  it('checks the timestamp before the signature', () => {
    expect(verifyAt(replaceV1(HEADER, '0'.repeat(64)), BODY, { now: () => (T + 301) * 1000 })).toMatchObject({
      reason: expect.stringMatching(/^timestamp too old/),
    });
  });

  it.each([
    ['an empty header', '', 'signature header is empty'],
    ['a missing t', `v1=${'a'.repeat(64)}`, 'signature header has no t'],
    ['a missing v1', `t=${T}`, 'signature header has no v1'],
    ['a part without "="', `t=${T},v1`, 'malformed signature header: part 2 has no "="'],
    ['two t values', `t=${T},t=${T},v1=${'a'.repeat(64)}`, 'signature header has more than one t'],
    ['a non-numeric t', `t=soon,v1=${'a'.repeat(64)}`, 't is not a whole number of Unix seconds: "soon"'],
    ['a fractional t', `t=1714000000.5,v1=${'a'.repeat(64)}`, 't is not a whole number of Unix seconds: "1714000000.5"'],
    ['a negative t', `t=-5,v1=${'a'.repeat(64)}`, 't is not a whole number of Unix seconds: "-5"'],
    [
      'a t in milliseconds beyond safe integers',
      `t=99999999999999999999,v1=${'a'.repeat(64)}`,
      't is not a whole number of Unix seconds: "99999999999999999999"',
    ],
    ['spaces after the commas', `t=${T}, v1=${'a'.repeat(64)}`, 'signature header has no v1 (remove the spaces around the commas)'],
    ['uppercase hex', replaceV1(HEADER, HEADER.slice(-64).toUpperCase()), 'v1 must be lowercase hex'],
    ['a v1 one character short', replaceV1(HEADER, HEADER.slice(-63)), 'v1 must be 64 hex characters, got 63'],
    ['a v1 one character long', replaceV1(HEADER, `${HEADER.slice(-64)}0`), 'v1 must be 64 hex characters, got 65'],
    ['a v1 that is not hex', replaceV1(HEADER, 'z'.repeat(64)), 'v1 is not hex'],
  ])('rejects %s', (_name, header, reason) => {
    expect(verifyAt(header)).toEqual({ accepted: false, reason });
  });

  it('rejects an uppercase copy of the right signature even though the bytes are equal', () => {
    const upper = `t=${T},v1=${HEADER.slice(-64).toUpperCase()}`;
    expect(verifyAt(upper).accepted).toBe(false);
  });

  it('never puts a secret or a signature in a rejection reason', () => {
    const reasons = [verifyAt(`t=${T},${HEADER.slice(-64)}`), verifyAt(HEADER, 'x'), verifyAt(HEADER.toUpperCase())].map((check) =>
      check.accepted ? '' : check.reason,
    );
    for (const reason of reasons) {
      expect(reason).not.toContain(SECRET);
      expect(reason).not.toContain(HEADER.slice(-64));
    }
  });

  it('throws when no secret is given, as that is a programming error', () => {
    expect(() => verifyAt(HEADER, BODY, { secrets: [] })).toThrow(/at least one non-empty secret/);
  });
});
