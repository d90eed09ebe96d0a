import { lookup as systemLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { GarmentPressError } from '../errors.ts';
import { classifyAddress } from './address-ranges.ts';
import type { AddressClass } from './address-ranges.ts';

/** Thrown when a callback URL breaks the policy of spec section 2.1; `reason` is the short cause. */
export class CallbackUrlError extends GarmentPressError {
  readonly reason: string;
  constructor(reason: string, options?: ErrorOptions) {
    super(`callback URL refused: ${reason}`, options);
    this.reason = reason;
  }
}

/** Resolves a host name to every IPv4 and IPv6 address it has. */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** Which callback addresses are reachable, and how host names resolve. */
export interface CallbackUrlPolicy {
  /** Allow loopback hosts and addresses; only a test running its own receiver sets this. Default false. */
  allowLoopback?: boolean;
  /** Host name resolution; defaults to the system resolver. */
  resolveHost?: HostResolver;
}

/**
 * Outcome of a policy check: allowed with the parsed URL (and, for a host name that does not
 * resolve now, why), or refused with a reason.
 */
export type CallbackUrlCheck = { allowed: true; url: URL; unresolved?: string } | { allowed: false; reason: string };

/** Node's `lookup` hook for sockets, as taken by `https.request`. */
export type SocketLookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

const LOOPBACK_NAMES = ['localhost'];
// Special-use names that only ever mean something inside a private network.
const PRIVATE_SUFFIXES = ['internal', 'local', 'home.arpa'];

/**
 * Checks a callback URL without resolving it: https, no credentials, no private or loopback
 * host name, and for IP literals (including the numeric forms URL parsing normalises) a public address.
 * @example checkCallbackUrlForm('https://0x7f.1/hook') → { allowed: false, reason: 'address 127.0.0.1 is loopback' }
 */
export function checkCallbackUrlForm(input: string, policy: CallbackUrlPolicy = {}): CallbackUrlCheck {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('not an absolute URL');
  }
  const repair = silentRepair(input);
  if (repair !== undefined) return refuse(repair);
  if (url.protocol !== 'https:') return refuse(`scheme must be https, got ${url.protocol.slice(0, -1)}`);
  // An empty `@` or `:@` leaves username and password empty: parsing drops it, so the text is read too.
  if (url.username !== '' || url.password !== '' || writtenAuthority(input).includes('@'))
    return refuse('credentials (user:password@) are not allowed');
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    const refusedClass = refusedAddressClass(host, policy);
    if (refusedClass !== undefined) return refuse(`address ${host} is ${refusedClass}`);
    const numericHost = unusualIpv4Form(input, url);
    return numericHost === undefined ? { allowed: true, url } : refuse(numericHost);
  }
  const nameRefusal = refuseHostName(host, policy);
  return nameRefusal === undefined ? { allowed: true, url } : refuse(nameRefusal);
}

/**
 * Checks a callback URL's form, then every address its host name resolves to. A name that does
 * not resolve now is allowed, saying so (spec section 2.1 refuses only https-less, loopback and
 * private hosts, and a lookup can fail for a while): each delivery resolves it again and connects
 * only to allowed addresses (createGuardedLookup).
 */
export async function checkCallbackUrl(input: string, policy: CallbackUrlPolicy = {}): Promise<CallbackUrlCheck> {
  const formCheck = checkCallbackUrlForm(input, policy);
  if (!formCheck.allowed) return formCheck;
  const host = hostOf(formCheck.url);
  if (isIP(host) !== 0) return formCheck;
  let addresses: string[];
  try {
    addresses = await resolveAddresses(host, policy);
  } catch (error) {
    if (error instanceof CallbackUrlError) return { ...formCheck, unresolved: error.reason };
    throw error;
  }
  const refusal = refusedAddress(host, addresses, policy);
  return refusal === undefined ? formCheck : refuse(refusal);
}

/**
 * Returns a socket `lookup` that resolves with the policy's resolver and fails the connection
 * when any address is refused, so a DNS answer that turned private after the check is never reached.
 */
export function createGuardedLookup(policy: CallbackUrlPolicy = {}): SocketLookup {
  return (hostname, options, callback) => {
    resolveAllowedAddresses(hostname, policy).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const answers = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((answer) => family === undefined || answer.family === family);
        const [first] = answers;
        if (first === undefined) callback(new CallbackUrlError(`host ${hostname} has no IPv${family} address`), '');
        else if (options.all === true) callback(null, answers);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** Resolves with the operating system's resolver, returning every address. */
export async function resolveWithSystemDns(hostname: string): Promise<string[]> {
  const answers = await systemLookup(hostname, { all: true, order: 'verbatim' });
  return answers.map((answer) => answer.address);
}

/** A stand-in origin: what follows the host is parsed the same behind any https origin. */
const STAND_IN_ORIGIN = 'https://host.invalid';

/**
 * Says what URL parsing would silently change in `input` (the WHATWG URL standard strips outer
 * spaces and controls, drops tabs and newlines, reads \ as /, adds missing slashes and percent-
 * encodes some characters), or undefined when it is taken as written. A URL stored as given
 * and repaired when sent would reach another address than the one the caller wrote.
 * @example silentRepair(' https://hooks.example.com/') → 'starts with whitespace; remove it'
 */
export function silentRepair(input: string): string | undefined {
  if (/^[\s\u0000-\u001F]/.test(input)) return 'starts with whitespace or a control character; remove it';
  if (/[\s\u0000-\u001F]$/.test(input)) return 'ends with whitespace or a control character; remove it';
  const control = /[\u0000-\u001F\u007F-\u009F]/.exec(input);
  if (control !== null)
    return `holds a control character (U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}) at index ${control.index}, which URL parsing would drop or encode; remove it`;
  const space = /\s/.exec(input);
  if (space !== null) return `holds a space at index ${space.index}; percent-encode it as %20`;
  if (input.includes('\\')) return 'holds a backslash, which URL parsing reads as /; write / or %5C';
  // Other schemes are refused as such once parsed.
  const scheme = /^(https):/i.exec(input);
  if (scheme !== null && !input.startsWith('//', scheme[0].length)) return `expected // after ${scheme[0]}`;
  if (scheme !== null && input.startsWith('///', scheme[0].length)) return `expected a host after ${scheme[0]}//, got another /`;
  const authorityEnd = scheme === null ? 0 : scheme[0].length + 2 + writtenAuthority(input).length;
  const rest = input.slice(authorityEnd);
  const badEscape = /%(?![0-9A-Fa-f]{2})/.exec(rest);
  if (badEscape !== null) return `holds a % at index ${authorityEnd + badEscape.index} that starts no %XX escape; write it as %25`;
  return scheme === null ? undefined : rewrittenAfterHost(rest, authorityEnd);
}

/**
 * Says how URL parsing would rewrite what follows the host (percent-encoding a character, which
 * ones depending on where it stands, or resolving dot segments), or undefined when it keeps it;
 * an empty path becoming `/` is no change of address. Compared with the parser's own output,
 * so no list of characters can drift from it.
 * @example rewrittenAfterHost("/x?a='b'", 25) → 'holds "\'" at index 30, which URL parsing would percent-encode; encode it yourself'
 */
function rewrittenAfterHost(rest: string, restStart: number): string | undefined {
  const written = rest.startsWith('/') ? rest : `/${rest}`;
  const parsed = URL.parse(`${STAND_IN_ORIGIN}${written}`);
  if (parsed === null) return undefined;
  const serialized = parsed.href.slice(STAND_IN_ORIGIN.length);
  if (serialized === written) return undefined;
  let at = 0;
  while (written[at] === serialized[at]) at += 1;
  const codePoint = written.codePointAt(at);
  if (serialized[at] === '%' && codePoint !== undefined) {
    const index = restStart + at - (written.length - rest.length);
    return `holds ${JSON.stringify(String.fromCodePoint(codePoint))} at index ${index}, which URL parsing would percent-encode; encode it yourself`;
  }
  return `${JSON.stringify(rest.slice(0, 100))} after the host holds dot segments (. or ..) that URL parsing resolves, sending ${JSON.stringify(serialized.slice(0, 100))}; write that`;
}

/** The authority as written, between `//` and the path, query or fragment; '' when there is none. */
function writtenAuthority(input: string): string {
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(input)?.[1] ?? '';
}

/** Refuses an IPv4 host written in a form URL parsing rewrites (hex, octal, fewer than four parts). */
function unusualIpv4Form(input: string, url: URL): string | undefined {
  if (isIP(url.hostname) !== 4) return undefined;
  const written = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^:/?#]*)/.exec(input)?.[1]?.replace(/\.$/, '');
  return written === undefined || written === url.hostname
    ? undefined
    : `host ${written} is an unusual IPv4 form that URL parsing reads as ${url.hostname}; write ${url.hostname}`;
}

async function resolveAllowedAddresses(host: string, policy: CallbackUrlPolicy): Promise<string[]> {
  const addresses = await resolveAddresses(host, policy);
  const refusal = refusedAddress(host, addresses, policy);
  if (refusal !== undefined) throw new CallbackUrlError(refusal);
  return addresses;
}

/** Every address a host name resolves to; throws a CallbackUrlError when it resolves to none. */
async function resolveAddresses(host: string, policy: CallbackUrlPolicy): Promise<string[]> {
  const resolve = policy.resolveHost ?? resolveWithSystemDns;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CallbackUrlError(`could not resolve host ${host}${code === undefined ? '' : ` (${code})`}`, { cause: error });
  }
  if (addresses.length === 0) throw new CallbackUrlError(`host ${host} resolves to no address`);
  return addresses;
}

/** Why a host's addresses are refused: the first that is not an IP address or not allowed; undefined when all are allowed. */
function refusedAddress(host: string, addresses: readonly string[], policy: CallbackUrlPolicy): string | undefined {
  for (const address of addresses) {
    if (isIP(address) === 0) return `host ${host} resolves to something that is not an IP address`;
    const refusedClass = refusedAddressClass(address, policy);
    if (refusedClass !== undefined) return `host ${host} resolves to ${address}, which is ${refusedClass}`;
  }
  return undefined;
}

function refuseHostName(host: string, policy: CallbackUrlPolicy): string | undefined {
  const matches = (suffix: string) => host === suffix || host.endsWith(`.${suffix}`);
  if (LOOPBACK_NAMES.some(matches)) return policy.allowLoopback === true ? undefined : `host ${host} is loopback`;
  const privateSuffix = PRIVATE_SUFFIXES.find(matches);
  if (privateSuffix !== undefined) return `host ${host} is a private name (.${privateSuffix})`;
  // A single label is completed from the resolver's search domains, which are internal.
  if (!host.includes('.')) return `host ${host} is not a fully qualified domain name`;
  return undefined;
}

function refusedAddressClass(address: string, policy: CallbackUrlPolicy): AddressClass | undefined {
  const addressClass = classifyAddress(address);
  if (addressClass === 'public') return undefined;
  if (addressClass === 'loopback' && policy.allowLoopback === true) return undefined;
  return addressClass;
}

/** The URL's host, lower-cased by URL parsing, without IPv6 brackets or trailing dots. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '');
}

function refuse(reason: string): CallbackUrlCheck {
  return { allowed: false, reason };
}
