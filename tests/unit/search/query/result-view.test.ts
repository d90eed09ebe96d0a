import { describe, expect, it } from 'vitest';
import { filterValueOrder, plainExcerpt, resultFacts, resultView, safeExcerpt } from '../../../../src/lib/search/query/result-view.ts';
import { searchMessages } from '../../../../src/lib/site/search-text.ts';

const hit = (overrides: { url?: string; excerpt?: string; meta?: Record<string, string> } = {}) => ({
  url: '/garments/tee/',
  excerpt: 'a <mark>heavy</mark> tee',
  ...overrides,
  meta: {
    title: 'Heavy tee',
    projections: 'svc tech',
    status_svc: 'Complete',
    status_tech: 'In progress',
    price: '$12.00',
    sizes: 'S–3XL',
    ...overrides.meta,
  },
});

describe('safeExcerpt', () => {
  it('keeps Pagefind’s mark elements and its encoded angle brackets, and escapes the & it leaves, so the text reads as on the page', () => {
    // Pagefind gives the text `<b> fleece &amp; hood` so: `<` and `>` encoded, `&` not.
    expect(safeExcerpt('&lt;b&gt; <mark>fleece</mark> &amp; <mark>hood</mark>')).toBe(
      '&lt;b&gt; <mark>fleece</mark> &amp;amp; <mark>hood</mark>',
    );
  });

  it('escapes any other tag, so only mark can become an element', () => {
    expect(safeExcerpt('<img src=x onerror=alert(1)> <mark><script>x</script></mark> <MARK>')).toBe(
      '&lt;img src=x onerror=alert(1)&gt; <mark>&lt;script&gt;x&lt;/script&gt;</mark> &lt;MARK&gt;',
    );
  });

  it('marks the word alone, leaving out the punctuation Pagefind marks with it, and keeps an encoded ampersand whole', () => {
    expect(safeExcerpt('100% <mark>cotton;</mark> and (<mark>“fleece”),</mark> <mark>R&amp;D.</mark>')).toBe(
      '100% <mark>cotton</mark>; and (“<mark>fleece</mark>”), <mark>R&amp;amp;D</mark>.',
    );
    expect(safeExcerpt('a <mark>…</mark> b')).toBe('a <mark>…</mark> b');
  });

  it('does not take a mark with attributes for a mark', () => {
    expect(safeExcerpt('<mark onclick=alert(1)>x</mark>')).toBe('&lt;mark onclick=alert(1)&gt;x</mark>');
  });
});

describe('plainExcerpt', () => {
  it('reads the text back as indexed, without the hit marks: what the page shows, as text', () => {
    expect(plainExcerpt('&lt;b&gt; <mark>fleece</mark> &amp; <mark>hood</mark>')).toBe('<b> fleece &amp; hood');
  });
});

describe('resultView', () => {
  it('shows the garment: title, key facts, and a link to each projection with its status', () => {
    expect(resultView(hit())).toEqual({
      href: '/garments/tee/',
      title: 'Heavy tee',
      image: null,
      projections: [
        { code: 'svc', href: '/garments/tee/svc/', status: 'Complete' },
        { code: 'tech', href: '/garments/tee/tech/', status: 'In progress' },
      ],
      price: '$12.00',
      sizes: 'S–3XL',
      fabric: null,
      weight: null,
      excerptHtml: 'a <mark>heavy</mark> tee',
    });
  });

  it('links only the projections it knows', () => {
    expect(resultView(hit({ meta: { projections: 'tech javascript:alert(1)' } }))!.projections.map((p) => p.code)).toEqual(['tech']);
  });

  it('keeps only http(s) images', () => {
    expect(resultView(hit({ meta: { image: ' https://img.example/a.jpg ', image_alt: 'Front' } }))!.image).toEqual({
      src: 'https://img.example/a.jpg',
      alt: 'Front',
    });
    for (const image of ['javascript:alert(1)', '//evil.example/a.jpg', 'data:image/png;base64,AA', '/local.png']) {
      expect(resultView(hit({ meta: { image } }))!.image, image).toBeNull();
    }
  });

  it('drops a hit whose address is not a path on this site', () => {
    for (const url of ['javascript:alert(1)', '//evil.example/', '/\\evil.example/', 'https://evil.example/']) {
      expect(resultView(hit({ url })), url).toBeNull();
    }
  });

  it('falls back to the address when a page has no title', () => {
    expect(resultView(hit({ meta: { title: '' } }))!.title).toBe('/garments/tee/');
  });
});

describe('resultFacts', () => {
  it('words the key facts as the result shows them, commerce first, leaving out those the records do not state', () => {
    expect(resultFacts(resultView(hit({ meta: { fabric: 'Jersey, 100% cotton', weight: '180 g/m²' } }))!, searchMessages())).toEqual([
      'From $12.00',
      'Sizes S–3XL',
      'Jersey, 100% cotton',
      '180 g/m²',
    ]);
    expect(resultFacts(resultView(hit({ meta: { price: '', sizes: ' ', weight: '6 oz/yd²' } }))!, searchMessages())).toEqual(['6 oz/yd²']);
  });
});

describe('filterValueOrder', () => {
  it('orders sizes from small to large, unknown sizes last', () => {
    expect(['XL', 'One size', 'S', '2XL', 'xs', 'M', '4XL', 'L'].sort(filterValueOrder('size'))).toEqual([
      'xs',
      'S',
      'M',
      'L',
      'XL',
      '2XL',
      '4XL',
      'One size',
    ]);
  });

  it('orders other values by name, numbers by value', () => {
    expect(['tops', 'Outerwear', '2x1 rib', '10x1 rib'].sort(filterValueOrder('category'))).toEqual([
      '2x1 rib',
      '10x1 rib',
      'Outerwear',
      'tops',
    ]);
  });
});
