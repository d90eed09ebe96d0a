import { isoDate } from '../record/timestamp.ts';
import { html, type Html } from '../site/html.ts';
import type { SiteEntry } from '../site/site-index.ts';
import { t } from '../site/strings.ts';
import { absoluteUrl, garmentPath, pagePath, revisionJsonPath, revisionPath } from '../site/urls.ts';

/** One publication in a feed: a record published for the first time, or a new revision of it. */
export interface FeedItem {
  /** The revision's JSON permalink: never reused, so a reader never sees one entry twice. */
  id: string;
  title: string;
  /** When it was published, as an RFC 3339 instant. */
  published: string;
  /** The page saying what it changed, the record's page, and its JSON. */
  changesUrl: string;
  pageUrl: string;
  jsonUrl: string;
  summary: string;
}

/** What a feed is and where it lives. */
export interface FeedHead {
  title: string;
  /** The page the feed is about (the home page, a garment's page). */
  homeUrl: string;
  atomUrl: string;
  jsonUrl: string;
}

/** How many publications a feed lists: the latest, as feeds are polled for what is new. */
export const FEED_ITEMS = 50;

/**
 * The latest publications among some records, newest first: every revision of each (its first
 * publication included), at most `limit`. A revision whose date is no date cannot be placed in
 * time and is left out (records' `published_at` is any text).
 */
export function feedItems(entries: readonly SiteEntry[], site: string | URL, limit = FEED_ITEMS): FeedItem[] {
  const items: (FeedItem & { record: string; number: number })[] = [];
  for (const entry of entries) {
    const projection = t(`projection.${entry.projection}`);
    for (const revision of entry.revisions.revisions) {
      const published = revision.publishedAt === null ? null : instantOf(revision.publishedAt);
      if (!published) continue;
      items.push({
        record: `${entry.slug}/${entry.projection}`,
        number: revision.number,
        id: absoluteUrl(revisionJsonPath(entry.slug, entry.projection, revision.number), site),
        title: t(revision.number === 1 ? 'feed.item.first' : 'feed.item.revision', {
          title: entry.title,
          projection,
          number: revision.number,
        }),
        published,
        changesUrl: absoluteUrl(revisionPath(entry.slug, entry.projection, revision.number), site),
        pageUrl: absoluteUrl(pagePath(entry.slug, entry.projection), site),
        jsonUrl: absoluteUrl(revisionJsonPath(entry.slug, entry.projection, revision.number), site),
        summary: revision.summary,
      });
    }
  }
  // Newest first; at one instant, a record's later revision first, records by address, so a feed is the same for the same records.
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  items.sort((a, b) => order(b.published, a.published) || order(a.record, b.record) || b.number - a.number);
  return items.slice(0, limit).map(({ record, number, ...item }) => item);
}

/** A record's date as an RFC 3339 instant (a day alone at its start, UTC); null when it is no date. */
function instantOf(value: string): string | null {
  const iso = isoDate(value);
  if (!iso) return null;
  if (iso.length === 7) return `${iso}-01T00:00:00Z`;
  if (iso.length === 10) return `${iso}T00:00:00Z`;
  return iso.replace(/\.000Z$/, 'Z');
}

/** The Atom 1.0 document (RFC 4287) of a feed's items. */
export function atomFeed(head: FeedHead, items: readonly FeedItem[]): string {
  const updated = items[0]?.published ?? '1970-01-01T00:00:00Z';
  const entry = (item: FeedItem) =>
    [
      '  <entry>',
      `    <id>${xmlText(item.id)}</id>`,
      `    <title>${xmlText(item.title)}</title>`,
      `    <updated>${item.published}</updated>`,
      `    <published>${item.published}</published>`,
      `    <link rel="alternate" type="text/html" href="${xmlText(item.changesUrl)}"/>`,
      `    <link rel="related" type="text/html" href="${xmlText(item.pageUrl)}"/>`,
      `    <link rel="enclosure" type="application/json" href="${xmlText(item.jsonUrl)}"/>`,
      `    <summary>${xmlText(item.summary)}</summary>`,
      '  </entry>',
    ].join('\n');
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${xmlText(head.atomUrl)}</id>`,
    `  <title>${xmlText(head.title)}</title>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlText(head.atomUrl)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlText(head.homeUrl)}"/>`,
    `  <link rel="alternate" type="application/feed+json" href="${xmlText(head.jsonUrl)}"/>`,
    `  <author><name>${xmlText(t('site.name'))}</name></author>`,
    ...items.map(entry),
    '</feed>',
    '',
  ].join('\n');
}

/** The JSON Feed 1.1 document of a feed's items. */
export function jsonFeed(head: FeedHead, items: readonly FeedItem[]): string {
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: head.title,
    home_page_url: head.homeUrl,
    feed_url: head.jsonUrl,
    language: 'en',
    authors: [{ name: t('site.name') }],
    items: items.map((item) => ({
      id: item.id,
      url: item.changesUrl,
      external_url: item.pageUrl,
      title: item.title,
      content_text: item.summary,
      summary: item.summary,
      date_published: item.published,
      attachments: [{ url: item.jsonUrl, mime_type: 'application/json' }],
    })),
  };
  return `${JSON.stringify(feed, null, 2)}\n`;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for XML content or an attribute: markup escaped, and what XML 1.0 cannot hold (control characters, lone surrogates) as U+FFFD. */
function xmlText(text: string): string {
  return text
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '\ufffd',
    )
    .replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);
}

/** The site's feeds' addresses. */
export const FEED_PATHS = { atom: '/feed.xml', json: '/feed.json' } as const;

/** A garment's feeds' addresses. @example garmentFeedPaths('tee').atom → '/garments/tee/feed.xml' */
export function garmentFeedPaths(slug: string): { atom: string; json: string } {
  return { atom: `${garmentPath(slug)}feed.xml`, json: `${garmentPath(slug)}feed.json` };
}

/** The site's feeds: the latest publications of every record. */
export function siteFeeds(entries: readonly SiteEntry[], site: string | URL): { atom: string; json: string } {
  const head = {
    title: t('feed.title'),
    homeUrl: absoluteUrl('/', site),
    atomUrl: absoluteUrl(FEED_PATHS.atom, site),
    jsonUrl: absoluteUrl(FEED_PATHS.json, site),
  };
  const items = feedItems(entries, site);
  return { atom: atomFeed(head, items), json: jsonFeed(head, items) };
}

/** A garment's feed files: every publication of its records, written beside its page. */
export function garmentFeedFiles(slug: string, entries: readonly SiteEntry[], site: string | URL): { sitePath: string; content: string }[] {
  const paths = garmentFeedPaths(slug);
  const head = {
    title: t('feed.garment.title', { title: entries[0]?.title ?? slug }),
    homeUrl: absoluteUrl(garmentPath(slug), site),
    atomUrl: absoluteUrl(paths.atom, site),
    jsonUrl: absoluteUrl(paths.json, site),
  };
  const items = feedItems(entries, site);
  return [
    { sitePath: paths.atom, content: atomFeed(head, items) },
    { sitePath: paths.json, content: jsonFeed(head, items) },
  ];
}

/** The head's links to a garment's feeds and the site's, for the garment's pages (the site's alone elsewhere). */
export function feedLinksHtml(slug: string | null): Html {
  const link = (type: string, title: string, href: string) => html`<link rel="alternate" type="${type}" title="${title}" href="${href}">`;
  const garment = slug === null ? null : garmentFeedPaths(slug);
  return html`${garment && [link('application/atom+xml', t('feed.garment.link'), garment.atom), link('application/feed+json', t('feed.garment.link'), garment.json)]}${link(
    'application/atom+xml',
    t('feed.title'),
    FEED_PATHS.atom,
  )}${link('application/feed+json', t('feed.title'), FEED_PATHS.json)}`;
}
