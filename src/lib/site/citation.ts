import { t } from './strings.ts';

/** What a citation of a record names. */
export interface CitationFacts {
  title: string;
  projectionLabel: string;
  slug: string;
  projection: string;
  revision: string;
  /** The publication date as read (`November 4, 2026`). */
  publishedText: string;
  /** The publication date in ISO form, when the record's is a date. */
  publishedIso: string | null;
  /** The permalink of the revision cited (its JSON as published, src/lib/revisions/). */
  url: string;
  /** Its number among the record's revisions on this site. */
  revisionNumber: number;
  /** The day the citation was made (the page built), ISO. */
  accessed: string;
  /** The site's host, which publishes the record. */
  host: string;
}

/** A record's citation, as one line of plain text and as a BibTeX entry. */
export interface Citation {
  text: string;
  bibtex: string;
}

/**
 * A record's citation: title, projection, revision, publication date, site and permalink.
 * @example citationOf({ title: 'Tee', projectionLabel: 'Commerce', revision: 'r3', … }).text
 *   → 'Tee. Commerce research record, revision r3, published November 4, 2026. garment-press. https://…'
 */
export function citationOf(facts: CitationFacts): Citation {
  const site = t('site.name');
  const text = t('cite.text', {
    title: facts.title,
    projection: facts.projectionLabel,
    revision: facts.revision,
    number: facts.revisionNumber,
    published: facts.publishedText,
    site,
    url: facts.url,
    accessed: facts.accessed,
  });
  const year = facts.publishedIso?.slice(0, 4);
  const fields: [string, string][] = [
    ['title', `{${bibtexText(`${facts.title}: ${t('cite.recordKind', { projection: facts.projectionLabel })}`)}}`],
    // Double braces: the publisher is an organization, never split into first and last names.
    ['author', `{{${bibtexText(site)}}}`],
    ['organization', `{${bibtexText(site)}}`],
    ['publisher', `{${bibtexText(`${site} (${facts.host})`)}}`],
    ['howpublished', `{\\url{${bibtexUrl(facts.url)}}}`],
    ['url', `{${bibtexUrl(facts.url)}}`],
    ['urldate', `{${bibtexText(facts.accessed)}}`],
    [
      'note',
      `{${bibtexText(t('cite.note', { revision: facts.revision, number: facts.revisionNumber, published: facts.publishedText, accessed: facts.accessed }))}}`,
    ],
    ...(year && /^\d{4}$/.test(year) ? [['year', year] as [string, string]] : []),
  ];
  const bibtex = `@misc{${bibtexKey(`${facts.slug}-${facts.projection}-${facts.revisionNumber}`)},\n${fields.map(([name, value]) => `  ${name} = ${value}`).join(',\n')}\n}`;
  return { text, bibtex };
}

/**
 * Text safe inside a BibTeX braced value: its special characters escaped, braces balanced.
 * @example bibtexText('50% {cotton} & co_1') → '50\\% \\{cotton\\} \\& co\\_1'
 */
export function bibtexText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\{}%$&#_^~]/g, (ch) => BIBTEX_ESCAPES[ch]!);
}

const BIBTEX_ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '%': '\\%',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  _: '\\_',
  '^': '\\^{}',
  '~': '\\~{}',
};

/** A URL inside `\url{}`: only the characters that would end it or break the entry escaped. */
function bibtexUrl(url: string): string {
  return url.replace(/[{}\\\s%#]/g, (ch) => encodeURIComponent(ch));
}

/** A citation key: letters, digits and `-_:.` only. */
function bibtexKey(key: string): string {
  return key.replace(/[^A-Za-z0-9_:.-]+/g, '-');
}
