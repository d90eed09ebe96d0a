import { describe, expect, it } from 'vitest';
import { imageAlt } from '../../../src/lib/site/image-alt.ts';
import { pageView } from '../../../src/lib/site/page-view.ts';
import { siteEntryOf } from '../../../src/lib/site/site-index.ts';
import { sampleRecords } from '../../support/records.ts';

describe('imageAlt', () => {
  it('names the garment, the image’s kind and view, and its colour when the record names one', () => {
    expect(imageAlt({ kind: 'showcase', view: 'front', color_name: 'Black' }, 'Tee')).toBe('Tee: showcase, front view, Black');
    expect(imageAlt({ kind: 'blank', view: 'label', color_name: null }, 'Tee')).toBe('Tee: blank, label view');
  });

  it.each(
    sampleRecords()
      .filter(({ record }) => record.images.length > 0)
      .map(({ file, record }) => [file, record] as const),
  )('%s: the picture on cards, the garment page and search results says what the record page says of the same image', (file, record) => {
    const entry = siteEntryOf(record, file);
    const page = pageView(record, { otherProjectionExists: false });
    expect(entry.image).not.toBeNull();
    expect(page.images.find((image) => image.src === entry.image!.url)!.alt).toBe(entry.image!.alt);
  });
});
