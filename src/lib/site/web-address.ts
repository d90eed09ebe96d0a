import { decodePunycode } from './punycode.ts';

/** Where site-relative hrefs are resolved, to serialize them and to prove they stay on the site. */
const SITE_ORIGIN = 'https://site.invalid';

/**
 * An href from record text as a page may link it, or null: http(s) and mailto URLs, site-relative
 * paths and fragments, serialized as the URL standard does (so quotes, spaces and `<` are
 * percent-encoded, and tabs or line breaks cannot turn a path into another host).
 * @example safeHref('javascript:alert(1)') → null; safeHref('/garments/a tee/') → '/garments/a%20tee/'
 */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (trimmed.startsWith('#') || trimmed.startsWith('/')) {
    const resolved = URL.parse(trimmed, SITE_ORIGIN);
    if (!resolved || resolved.origin !== SITE_ORIGIN) return null;
    const local = trimmed.startsWith('#') ? resolved.href.slice(resolved.href.indexOf('#')) : resolved.href.slice(SITE_ORIGIN.length);
    // `/.//evil.example/` resolves to the path `//evil.example/`, which a browser reads as another host.
    return local.startsWith('//') ? null : strictUrl(local, 0);
  }
  if (trimmed.toLowerCase().startsWith('mailto:')) {
    const mail = URL.parse(trimmed);
    return mail ? strictUrl(mail.href, mail.protocol.length) : null;
  }
  const url = webAddress(trimmed);
  return url && strictUrl(url.href, url.origin.length);
}

/**
 * A URL from a record as a page may link it as an external address, or null: http or https only,
 * without credentials, serialized as the URL standard does and strictly encoded (see strictUrl).
 * @example webUrl(' https://Example.org/a b ') → 'https://example.org/a%20b'
 */
export function webUrl(url: string | null | undefined): string | null {
  return webLink(url)?.url ?? null;
}

/** A web address as a page links it (see webUrl), and its host name. */
export interface WebLink {
  url: string;
  host: string;
}

/** webUrl with the address's host name, from one parse. */
export function webLink(url: string | null | undefined): WebLink | null {
  const address = webAddress(url);
  return address && { url: strictUrl(address.href, address.origin.length), host: address.hostname };
}

/**
 * A URL from a record, parsed, when it is an http or https address without a user name or password
 * (`https://shop.example@evil.example/` names another host than it seems to), to a host name
 * HTML allows; else null.
 */
export function webAddress(url: string | null | undefined): URL | null {
  const parsed = url ? URL.parse(url.trim()) : null;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password) return null;
  return isHostName(parsed.hostname) ? parsed : null;
}

/**
 * Whether a URL's host is an IP address or a domain name HTML checkers accept: labels of 1 to 63
 * characters (an `xn--` one must decode), 253 in all, a final dot allowed. The URL standard lets
 * `a..b` and `xn--a` through.
 */
function isHostName(hostname: string): boolean {
  if (hostname.startsWith('[') || /^\d+(?:\.\d+){3}$/.test(hostname)) return true;
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return (
    name.length <= 253 &&
    name.split('.').every((label) => label.length >= 1 && label.length <= 63 && (!label.startsWith('xn--') || isPunycodeLabel(label)))
  );
}

/** Characters RFC 3986 does not allow in a path, query or fragment (a `%` only before two hex digits). */
const NOT_IN_URL_PART = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g;

/**
 * A serialized URL with what follows its first `start` characters (its origin) percent-encoded
 * where RFC 3986 allows no such character: the URL standard leaves `|`, `[`, `` ` ``, `{`, a stray
 * `%` or a second `#` as they are, and HTML checkers refuse them.
 * @example strictUrl('https://a.example/x|y#a#b', 17) → 'https://a.example/x%7Cy#a%23b'
 */
function strictUrl(href: string, start: number): string {
  const hash = href.indexOf('#', start);
  const encode = (part: string) => part.replace(NOT_IN_URL_PART, (ch) => encodeURIComponent(ch));
  const fragment = hash === -1 ? '' : `#${encode(href.slice(hash + 1))}`;
  return `${href.slice(0, start)}${encode(href.slice(start, hash === -1 ? undefined : hash))}${fragment}`;
}

/**
 * Whether an `xn--` label is the ASCII form of a Unicode label, as Node's `domainToUnicode` decides, in a
 * browser too: its Punycode decodes (RFC 3492) to text beyond ASCII that the URL standard takes unchanged.
 */
function isPunycodeLabel(label: string): boolean {
  const decoded = decodePunycode(label.slice('xn--'.length));
  if (decoded === null || !/[^\0-\x7F]/.test(decoded)) return false;
  // The URL standard maps and checks a Unicode label as it writes it back; one it left as it was is valid.
  const written = URL.parse(`http://${decoded}/`)?.hostname;
  return written !== undefined && /^xn--[^.]*$/.test(written) && decodePunycode(written.slice('xn--'.length)) === decoded;
}
