// Checks a feed as a feed reader would: Atom 1.0 against RFC 4287's rules (parsed by a real XML
// parser, namespaces and all), JSON Feed against version 1.1's required fields.
import { DOMParser, type Element } from '@xmldom/xmldom';

const ATOM = 'http://www.w3.org/2005/Atom';
/** RFC 3339 date-time, as RFC 4287 3.3 requires of every date. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/** One Atom entry as read: its id, title, updated date and links by relation. */
export interface AtomEntry {
  id: string;
  title: string;
  updated: string;
  links: { rel: string; type: string | null; href: string }[];
}

/** Every breach of RFC 4287's rules found in an Atom document (none means valid), and its entries. */
export function checkAtom(xml: string): { problems: string[]; entries: AtomEntry[] } {
  const problems: string[] = [];
  const document = new DOMParser({
    onError: (level, message) => {
      problems.push(`XML ${level}: ${message}`);
    },
  }).parseFromString(xml, 'application/xml');
  const feed = document.documentElement;
  if (feed?.localName !== 'feed' || feed.namespaceURI !== ATOM)
    return { problems: [...problems, 'the root is not atom:feed'], entries: [] };
  const children = (element: Element, name: string) =>
    Array.from(element.childNodes).filter(
      (node): node is Element => node.nodeType === 1 && (node as Element).localName === name && (node as Element).namespaceURI === ATOM,
    );
  const one = (element: Element, name: string, where: string) => {
    const found = children(element, name);
    if (found.length !== 1) problems.push(`${where} has ${found.length} atom:${name}, expected exactly one`);
    return found[0]?.textContent ?? '';
  };
  const absoluteIri = (value: string, what: string) => {
    try {
      new URL(value);
    } catch {
      problems.push(`${what} is not an absolute IRI: ${value}`);
    }
  };
  const linksOf = (element: Element, where: string) => {
    const links = children(element, 'link').map((link) => ({
      rel: link.getAttribute('rel') ?? 'alternate',
      type: link.getAttribute('type'),
      href: link.getAttribute('href') ?? '',
    }));
    for (const link of links) if (!link.href) problems.push(`${where} has an atom:link without href`);
    const alternates = links.filter((link) => link.rel === 'alternate').map((link) => `${link.type}`);
    if (new Set(alternates).size !== alternates.length) problems.push(`${where} has two alternate links of one type`);
    return links;
  };
  const date = (value: string, where: string) => {
    if (!RFC3339.test(value)) problems.push(`${where}: ${JSON.stringify(value)} is not an RFC 3339 date`);
  };

  absoluteIri(one(feed, 'id', 'the feed'), 'the feed id');
  one(feed, 'title', 'the feed');
  date(one(feed, 'updated', 'the feed'), 'the feed updated');
  const feedLinks = linksOf(feed, 'the feed');
  if (!feedLinks.some((link) => link.rel === 'self')) problems.push('the feed has no self link (RFC 4287 4.1.1: SHOULD)');
  const entryElements = children(feed, 'entry');
  const hasAuthor = children(feed, 'author').length > 0;
  const entries = entryElements.map((element, i): AtomEntry => {
    const where = `entry ${i + 1}`;
    const entry = {
      id: one(element, 'id', where),
      title: one(element, 'title', where),
      updated: one(element, 'updated', where),
      links: linksOf(element, where),
    };
    absoluteIri(entry.id, `${where} id`);
    date(entry.updated, `${where} updated`);
    if (!hasAuthor && children(element, 'author').length === 0) problems.push(`${where} has no author, nor has the feed`);
    // Without atom:content an entry needs an alternate link and a summary (4.1.1, 4.1.2).
    if (children(element, 'content').length === 0) {
      if (!entry.links.some((link) => link.rel === 'alternate')) problems.push(`${where} has neither content nor an alternate link`);
      if (children(element, 'summary').length === 0) problems.push(`${where} has neither content nor a summary`);
    }
    return entry;
  });
  const ids = entries.map((entry) => entry.id);
  if (new Set(ids).size !== ids.length) problems.push('two entries share an id');
  return { problems, entries };
}

/** Every breach of JSON Feed 1.1's required fields (none means valid). */
export function checkJsonFeed(feed: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (feed.version !== 'https://jsonfeed.org/version/1.1') problems.push(`version is ${JSON.stringify(feed.version)}`);
  if (typeof feed.title !== 'string' || feed.title === '') problems.push('title is missing');
  if (!Array.isArray(feed.items)) return [...problems, 'items is not an array'];
  for (const [i, item] of (feed.items as Record<string, unknown>[]).entries()) {
    if (typeof item.id !== 'string' || item.id === '') problems.push(`item ${i + 1}: id must be a non-empty string`);
    if (typeof item.content_html !== 'string' && typeof item.content_text !== 'string')
      problems.push(`item ${i + 1}: content_html or content_text is required`);
    if (item.date_published !== undefined && !RFC3339.test(String(item.date_published)))
      problems.push(`item ${i + 1}: date_published is not RFC 3339`);
    if (item.url !== undefined) {
      try {
        new URL(String(item.url));
      } catch {
        problems.push(`item ${i + 1}: url is not a URL`);
      }
    }
  }
  return problems;
}
