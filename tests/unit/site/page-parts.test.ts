import { describe, expect, it } from 'vitest';
import { readingOrder, type ReadingBlock } from '../../../src/lib/record/index.ts';
import { pageParts } from '../../../src/lib/site/page-parts.ts';
import { sampleRecords } from '../../support/records.ts';

/** The page part showing a text block; null for the blocks of the page's header (title, headline, summary, description). */
function partOf({ part, section }: ReadingBlock): string | null {
  if (part === 'section') return `section.${section}`;
  if (part === 'suitable_for' || part === 'tradeoffs') return 'selection_summary';
  if (part === 'faq') return 'faq';
  return null;
}

describe('pageParts', () => {
  it.each(sampleRecords().map(({ file, record }) => [file, record] as const))(
    '%s: shows the parts holding text blocks in reading order, so claim numbers rise down the page',
    (_file, record) => {
      const read = [
        ...new Set(
          readingOrder(record)
            .map(partOf)
            .filter((key) => key !== null),
        ),
      ];
      const keys = pageParts(record).map((part) => part.key);
      const shown = keys.filter((key) => read.includes(key));
      expect(shown, 'a part holding text moved in page-parts.ts: move it in readingOrder (src/lib/record/reading-order.ts) too').toEqual(
        read,
      );
    },
  );
});
