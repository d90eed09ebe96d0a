import type { GarmentRecord } from '../record/types.ts';
import { t } from './strings.ts';
import { firstPresent, plainText } from './text.ts';

/**
 * A record's title as plain text, the same on its page, its twins and every list: the page's
 * title (a text block, so its Markdown is read), else the garment's official name, else the
 * catalog's title (names are plain data), the first not blank; else "Garment <slug>".
 */
export function recordTitle(record: GarmentRecord): string {
  const pageTitle = record.page.title && firstPresent(plainText(record.page.title.text));
  return (
    pageTitle ?? firstPresent(record.data.identity.official_name, record.catalog?.title) ?? t('record.untitled', { slug: record.slug })
  );
}
