import { pointerToken } from './problem.ts';
import type { GarmentRecord, Projection, TextBlock } from './types.ts';

/** The section keys of each projection's page, in the specification's order (2.10.1, 2.10.2): the order they are read in. */
export const SECTION_ORDER = {
  svc: [
    'overview',
    'when_it_fits',
    'fit_and_sizing',
    'fabric_and_colors',
    'decoration',
    'standard_pricing',
    'customer_evidence',
    'tradeoffs',
    'alternatives',
    'sample_before_launch',
    'technical_handoff',
  ],
  tech: [
    'overview',
    'construction_and_materials',
    'sizes_and_measurements',
    'connected_assets',
    'patterns_and_grading',
    'decoration_geometry',
    'avatar_and_simulation',
    'customization_and_lineage',
    'manufacturing',
    'validation_and_rights',
    'commerce_handoff',
  ],
} as const satisfies Record<Projection, readonly string[]>;

/** The part of a record a text block belongs to: one of `page`'s four blocks, a section, the selection summary's lists, an FAQ answer. */
export type ReadingPart = 'title' | 'headline' | 'summary' | 'description' | 'section' | 'suitable_for' | 'tradeoffs' | 'faq';

/** A text block of a record, where it is in the record and where it is read. */
export interface ReadingBlock {
  block: TextBlock;
  /** Its JSON pointer in the record: `/page/headline`, `/page/sections/overview/0`, `/page/faq/2/answer`. */
  pointer: string;
  part: ReadingPart;
  /** The section's key, for a block of `page.sections`; else null. */
  section: string | null;
  /** Its index in its list (a section, a selection-summary list, the FAQ); 0 for a block on its own. */
  position: number;
  /** How many blocks its list holds; 1 for a block on its own. */
  count: number;
}

/**
 * Every text block of a record in reading order, the one order every reader of the blocks keeps
 * (the page, its claim numbers and anchors, the Markdown twin, the search text, validation's
 * problems): the title, headline, summary and description, each section in the specification's
 * order, the selection summary's `suitable_for` then `tradeoffs`, then each FAQ answer.
 * @example readingOrder(record)[1] → { block: record.page.headline, pointer: '/page/headline', part: 'headline', section: null, position: 0, count: 1 }
 */
export function readingOrder(record: GarmentRecord): ReadingBlock[] {
  const { page, selection_summary: selection } = record;
  const blocks: ReadingBlock[] = [];
  const list = (part: ReadingPart, base: string, items: readonly TextBlock[], section: string | null = null, suffix = '') =>
    items.forEach((block, position) =>
      blocks.push({ block, pointer: `${base}/${position}${suffix}`, part, section, position, count: items.length }),
    );
  for (const part of ['title', 'headline', 'summary', 'description'] as const) {
    const block = page[part];
    if (block) blocks.push({ block, pointer: `/page/${part}`, part, section: null, position: 0, count: 1 });
  }
  const sections = page.sections as unknown as Record<string, TextBlock[] | undefined>;
  for (const key of SECTION_ORDER[record.projection]) list('section', `/page/sections/${pointerToken(key)}`, sections[key] ?? [], key);
  list('suitable_for', '/selection_summary/suitable_for', selection.suitable_for);
  list('tradeoffs', '/selection_summary/tradeoffs', selection.tradeoffs);
  list(
    'faq',
    '/page/faq',
    page.faq.map((entry) => entry.answer),
    null,
    '/answer',
  );
  return blocks;
}
