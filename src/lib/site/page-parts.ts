import type { GarmentRecord } from '../record/types.ts';
import type { HtmlValue } from './html.ts';
import * as twinParts from './markdown-parts.ts';
import type { Block } from './markdown-text.ts';
import { sectionAnchor } from './anchors.ts';
import type { PageView, SectionView } from './page-view.ts';
import * as pageHtml from './record-parts.ts';
import { SECTION_ORDER } from '../record/reading-order.ts';
import { sectionHeading, t } from './strings.ts';

/** Where a part sits: in the page's header, in the reading text, or in the evidence after it. */
export type PartPlace = 'header' | 'reading' | 'evidence';

/**
 * One part of a record page. This list is the one place that orders the parts and names their
 * anchors and labels: the page body, its contents list, where claim targets land, and the
 * Markdown twin all read it, so moving or adding a part is one edit here.
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
  /** The twin writes it even when the page leaves it out, saying there is none. */
  inTwinWhenEmpty: boolean;
  html: (view: PageView) => HtmlValue;
  markdown: (twin: twinParts.Twin) => Block[];
}

/** Every part of a record's page in reading order, shown or not: listed once per page, in its view (PageView's `parts`). */
export function pageParts(record: GarmentRecord): PagePart[] {
  const sections = record.page.sections as unknown as Record<string, unknown[]>;
  const part = (
    key: string,
    anchor: string,
    label: string,
    place: PartPlace,
    shown: boolean,
    html: PagePart['html'],
    markdown: (twin: twinParts.Twin, label: string) => Block[],
    inTwinWhenEmpty = false,
  ): PagePart => ({ key, anchor, label, place, shown, inTwinWhenEmpty, html, markdown: (twin) => markdown(twin, label) });
  const sectionOf = (view: PageView, key: string) => view.sections.find((s) => s.key === key) as SectionView;
  return [
    part('key-facts', 'key-facts', t('keyFacts.heading'), 'header', true, pageHtml.keyFactsHtml, twinParts.keyFactsMarkdown),
    ...SECTION_ORDER[record.projection].map((key) => {
      const label = sectionHeading(record.projection, key);
      return part(
        `section.${key}`,
        sectionAnchor(key),
        label,
        'reading',
        (sections[key] ?? []).length > 0,
        (view) => pageHtml.sectionHtml(sectionOf(view, key)),
        (twin) => twinParts.sectionMarkdown(twin, label, key),
        true,
      );
    }),
    // Always shown: its limitations are required by the format.
    part(
      'selection_summary',
      'selection-summary',
      t('part.selectionSummary'),
      'reading',
      true,
      (view) => pageHtml.selectionSummaryHtml(view.selectionSummary),
      twinParts.selectionSummaryMarkdown,
    ),
    part('faq', 'faq', t('part.faq'), 'reading', record.page.faq.length > 0, (view) => pageHtml.faqHtml(view.faq), twinParts.faqMarkdown),
    part(
      'images',
      'images',
      t('part.images'),
      'reading',
      record.images.length > 0,
      (view) => pageHtml.imagesHtml(view.images),
      twinParts.imagesMarkdown,
    ),
    part(
      'catalog',
      'catalog',
      t('part.catalog'),
      'reading',
      record.catalog !== null,
      (view) => pageHtml.catalogHtml(view.catalog!, pageHtml.csvLinker(view)),
      twinParts.catalogMarkdown,
    ),
    part(
      'gaps',
      'research-gaps',
      t('part.gaps'),
      'evidence',
      record.gaps.length > 0,
      (view) => pageHtml.gapsHtml(view.gapGroups),
      twinParts.gapsMarkdown,
      true,
    ),
    // The identity object always has fields to show or its heading: the data part is always there.
    part('data', 'data', t('part.data'), 'evidence', true, pageHtml.dataCollectionsHtml, twinParts.dataMarkdown),
    part(
      'conflicts',
      'conflicts',
      t('part.conflicts'),
      'evidence',
      record.conflicts.length > 0,
      (view) => pageHtml.conflictsHtml(view.conflicts),
      twinParts.conflictsMarkdown,
    ),
    part(
      'decisions',
      'decisions',
      t('part.decisions'),
      'evidence',
      record.decisions.length > 0,
      (view) => pageHtml.decisionsHtml(view.decisions),
      twinParts.decisionsMarkdown,
    ),
    part(
      'claims',
      'claims',
      t('part.claims'),
      'evidence',
      record.claims.length > 0,
      (view) => pageHtml.claimsHtml(view.claims),
      twinParts.claimsMarkdown,
      true,
    ),
    part(
      'sources',
      'sources',
      t('part.sources'),
      'evidence',
      record.sources.length > 0,
      (view) => pageHtml.sourcesHtml(view.sources),
      twinParts.sourcesMarkdown,
      true,
    ),
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

/** The page's contents: every shown part, by anchor and label. */
export function contentsOf(record: GarmentRecord): { href: string; label: string }[] {
  return pageParts(record)
    .filter((part) => part.shown)
    .map((part) => ({ href: `#${part.anchor}`, label: part.label }));
}
