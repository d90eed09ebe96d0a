import type { GarmentRecord } from '../record/types.ts';
import { sectionAnchor } from './anchors.ts';
import { SECTION_ORDER } from '../record/reading-order.ts';
import { sectionHeading, t } from './strings.ts';

/** Where a part sits: in the page's header, in the reading text, or in the evidence after it. */
export type PartPlace = 'header' | 'reading' | 'evidence';

/**
 * One part of a record page, as data. This list is the one place that orders the parts and names
 * their anchors and labels: the page body, its contents list, where claim targets land, and the
 * Markdown twin all read it; the renderers (record-page.ts, markdown.ts) map each key to its markup.
 */
export interface PagePart {
  /** `key-facts`, `section.<key>`, or the record's own name of what it shows (`gaps`, `sources`…), as targets name it. */
  key: string;
  anchor: string;
  /** Its heading, and its entry in the contents. */
  label: string;
  place: PartPlace;
  /** Whether the page shows it, from the record: a part with nothing to show is left out. */
  shown: boolean;
  /** Whether its entries start folded (a `<details>` under its heading), so a long page stays scannable; any link into it opens it. */
  folded: boolean;
}

/** Entries beyond which an evidence part (claims, sources) starts folded. */
export const FOLD_AFTER = 8;

/** The key of the part showing a page section. */
export const sectionPartKey = (section: string) => `section.${section}`;

/** What a renderer draws a part as: its key, or `section` for every page section. */
export const partKind = (part: PagePart) => (part.key.startsWith('section.') ? 'section' : part.key);

/** Every part of a record's page in reading order, shown or not: listed once per page, in its view (PageView's `parts`). */
export function pageParts(record: GarmentRecord): PagePart[] {
  const sections = record.page.sections as unknown as Record<string, unknown[]>;
  const part = (key: string, anchor: string, label: string, place: PartPlace, shown: boolean, folded = false): PagePart => ({
    key,
    anchor,
    label,
    place,
    shown,
    folded,
  });
  return [
    part('key-facts', 'key-facts', t('keyFacts.heading'), 'header', true),
    ...SECTION_ORDER[record.projection].map((key) =>
      part(sectionPartKey(key), sectionAnchor(key), sectionHeading(record.projection, key), 'reading', (sections[key] ?? []).length > 0),
    ),
    // Always shown: its limitations are required by the format.
    part('selection_summary', 'selection-summary', t('part.selectionSummary'), 'reading', true),
    part('faq', 'faq', t('part.faq'), 'reading', record.page.faq.length > 0),
    part('images', 'images', t('part.images'), 'reading', record.images.length > 0),
    part('catalog', 'catalog', t('part.catalog'), 'reading', record.catalog !== null),
    part('gaps', 'research-gaps', t('part.gaps'), 'evidence', record.gaps.length > 0),
    // The identity object always has fields to show or its heading: the data part is always there.
    part('data', 'data', t('part.data'), 'evidence', true),
    part('conflicts', 'conflicts', t('part.conflicts'), 'evidence', record.conflicts.length > 0),
    part('decisions', 'decisions', t('part.decisions'), 'evidence', record.decisions.length > 0),
    part('claims', 'claims', t('part.claims'), 'evidence', record.claims.length > 0, record.claims.length > FOLD_AFTER),
    part('sources', 'sources', t('part.sources'), 'evidence', record.sources.length > 0, record.sources.length > FOLD_AFTER),
  ];
}

/**
 * The anchor of the part showing what a target's first name names (`sources`, `gaps`,
 * `section.overview`…), or null when the page does not show it.
 */
export function partAnchorFor(parts: readonly PagePart[], key: string): string | null {
  const found = parts.find((part) => part.key === key);
  return found?.shown ? found.anchor : null;
}
