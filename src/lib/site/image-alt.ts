import type { GarmentRecord } from '../record/types.ts';
import { enumLabel } from './format.ts';
import { t } from './strings.ts';

/**
 * The alt text of a record's image wherever the site shows it (the record page, the garment page,
 * cards and search results): the garment, the image's kind and view, and its colour when named.
 * @example imageAlt({ kind: 'showcase', view: 'front', color_name: 'Black' }, 'Tee') → 'Tee: showcase, front view, Black'
 */
export function imageAlt(image: Pick<GarmentRecord['images'][number], 'kind' | 'view' | 'color_name'>, title: string): string {
  const values = {
    title,
    kind: enumLabel('image_kind', image.kind).toLowerCase(),
    view: enumLabel('image_view', image.view).toLowerCase(),
    color: image.color_name ?? '',
  };
  return t(image.color_name ? 'image.altColor' : 'image.alt', values);
}
