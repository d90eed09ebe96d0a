import { isIPv4, isIPv6 } from 'node:net';

/** Why an address is not public, or `public` when a callback may reach it. */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared (CGNAT)'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved';

interface Ipv4Range {
  base: number;
  prefix: number;
  outcome: AddressClass;
}

interface Ipv6Range {
  base: bigint;
  prefix: number;
  /** The class, or for IPv6 forms carrying an IPv4 address the bit offset where it starts. */
  outcome: AddressClass | { embeddedIpv4At: number };
}

const IPV4_RANGES: Ipv4Range[] = [
  v4('0.0.0.0', 8, 'unspecified'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'shared (CGNAT)'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'reserved'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'reserved'),
  v4('203.0.113.0', 24, 'reserved'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('255.255.255.255', 32, 'broadcast'),
  v4('240.0.0.0', 4, 'reserved'),
];

// Order matters: the first matching range decides, so exact addresses precede the prefixes holding them.
const IPV6_RANGES: Ipv6Range[] = [
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('::ffff:0:0', 96, { embeddedIpv4At: 96 }),
  v6('::', 96, { embeddedIpv4At: 96 }),
  v6('64:ff9b::', 96, { embeddedIpv4At: 96 }),
  v6('64:ff9b:1::', 48, 'private'),
  v6('100::', 64, 'reserved'),
  v6('2001::', 32, 'reserved'),
  v6('2001:db8::', 32, 'reserved'),
  v6('2002::', 16, { embeddedIpv4At: 16 }),
  v6('3fff::', 20, 'reserved'),
  v6('fc00::', 7, 'private'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'private'),
  v6('ff00::', 8, 'multicast'),
];

const GLOBAL_UNICAST = v6('2000::', 3, 'public');

/**
 * Classifies an IPv4 or IPv6 address (brackets and zone ids allowed); IPv6 forms embedding
 * IPv4 (mapped, compatible, NAT64, 6to4) take the class of the embedded address.
 * @example classifyAddress('::ffff:7f00:1') → 'loopback'
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const ipv4 = parseIpv4(bare);
  if (ipv4 !== undefined) return classifyIpv4(ipv4);
  const ipv6 = parseIpv6(bare);
  if (ipv6 === undefined) throw new TypeError(`not an IP address: ${address}`);
  return classifyIpv6(ipv6);
}

function classifyIpv4(value: number): AddressClass {
  const range = IPV4_RANGES.find((candidate) => inRange(BigInt(value), BigInt(candidate.base), candidate.prefix, 32));
  return range?.outcome ?? 'public';
}

function classifyIpv6(value: bigint): AddressClass {
  const range = IPV6_RANGES.find((candidate) => inRange(value, candidate.base, candidate.prefix, 128));
  if (range === undefined) return inRange(value, GLOBAL_UNICAST.base, GLOBAL_UNICAST.prefix, 128) ? 'public' : 'reserved';
  if (typeof range.outcome === 'string') return range.outcome;
  const shift = BigInt(128 - 32 - range.outcome.embeddedIpv4At);
  return classifyIpv4(Number((value >> shift) & 0xffffffffn));
}

function inRange(value: bigint, base: bigint, prefix: number, width: number): boolean {
  const shift = BigInt(width - prefix);
  return value >> shift === base >> shift;
}

function parseIpv4(text: string): number | undefined {
  if (!isIPv4(text)) return undefined;
  return text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function parseIpv6(text: string): bigint | undefined {
  const zoneless = text.replace(/%.*$/, '');
  if (!isIPv6(zoneless)) return undefined;
  const withoutDotted = zoneless.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_match, a, b, c, d) => `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  const [head = '', tail] = withoutDotted.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function v4(base: string, prefix: number, outcome: AddressClass): Ipv4Range {
  return { base: parseIpv4(base) ?? 0, prefix, outcome };
}

function v6(base: string, prefix: number, outcome: Ipv6Range['outcome']): Ipv6Range {
  return { base: parseIpv6(base) ?? 0n, prefix, outcome };
}
