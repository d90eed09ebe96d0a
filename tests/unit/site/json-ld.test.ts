import { describe, expect, it } from 'vitest';
import { linksFor } from '../../../src/lib/site/links.ts';
import { datasetFacts, datasetJsonLd, scriptSafeJson } from '../../../src/lib/site/json-ld.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const SITE = 'https://garments.example.org';
const record = sampleRecords().find((r) => r.record.projection === 'svc')!.record;
const links = linksFor(record, SITE, true);

describe('datasetJsonLd', () => {
  it('describes the record as a schema.org Dataset about the garment as a Product', () => {
    const ld = datasetJsonLd(datasetFacts(record), links);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Dataset',
      url: links.page,
      version: record.record_revision,
      datePublished: new Date(record.published_at).toISOString(),
      schemaVersion: links.schema,
      about: { '@type': 'Product', brand: { '@type': 'Brand', name: record.data.identity.brand } },
    });
    expect(ld.distribution).toEqual([
      { '@type': 'DataDownload', contentUrl: links.json, encodingFormat: 'application/json' },
      { '@type': 'DataDownload', contentUrl: links.markdown, encodingFormat: 'text/markdown' },
    ]);
  });

  it('names each country of origin as a schema.org Country, and gives no publication date that is not a real date', () => {
    const other = copyOf(record);
    other.data.identity.country_of_origin = ['MX', 'VN'];
    other.published_at = '2026-02-30T10:00:00Z';
    const ld = datasetJsonLd(datasetFacts(other), links);
    expect((ld.about as Record<string, unknown>).countryOfOrigin).toEqual([
      { '@type': 'Country', name: 'MX' },
      { '@type': 'Country', name: 'VN' },
    ]);
    expect(ld).not.toHaveProperty('datePublished');
  });

  it('names the garment in plain text and leaves out what the record does not state', () => {
    const bare = copyOf(record);
    bare.page.title = { text: '**Heavy** tee', claim_ids: [], kind: 'fact' } as never;
    bare.data.identity.brand = null;
    bare.images = [];
    const ld = datasetJsonLd(datasetFacts(bare), links);
    expect(ld.name).toBe('Heavy tee');
    expect(ld.about).not.toHaveProperty('brand');
    expect(ld.about).not.toHaveProperty('image');
    expect(JSON.stringify(ld)).not.toContain('undefined');
  });

  it('lists only http(s) image addresses', () => {
    const withBadImage = copyOf(record);
    withBadImage.images = [
      { kind: 'blank', view: 'front', color_name: null, url: 'javascript:alert(1)' },
      { kind: 'blank', view: 'back', color_name: null, url: 'https://img.example/back.jpg' },
    ];
    expect((datasetJsonLd(datasetFacts(withBadImage), links).about as { image: string[] }).image).toEqual(['https://img.example/back.jpg']);
  });
});

describe('scriptSafeJson', () => {
  it('cannot close the script element or open a comment, and parses back to the same value', () => {
    const value = {
      name: '</script><script>alert(1)</script>',
      note: '<!-- x --> & \u2028 \u2029',
      forbidden: '\u0001 \u007F \u0085 \uFDD0 \uFFFF',
    };
    const json = scriptSafeJson(value);
    // Nothing HTML forbids in a document either: C0 controls JSON escapes itself, the rest are escaped here.
    expect(json).not.toMatch(/[<>&\u2028\u2029\0-\x1F\x7F-\x9F\uFDD0-\uFDEF\uFFFE\uFFFF]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('escapes the noncharacters beyond the BMP too, each as its pair of escapes', () => {
    const value = { name: 'a \u{1FFFE} \u{10FFFF} \u{1F3FF}' };
    const json = scriptSafeJson(value);
    expect(json).toBe('{"name":"a \\ud83f\\udffe \\udbff\\udfff \u{1F3FF}"}');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('escapes a hostile record title in the JSON-LD of its page', () => {
    const hostile = copyOf(record);
    hostile.page.title = { text: '</SCRIPT><script>alert("x")</script>', claim_ids: [], kind: 'fact' } as never;
    const json = scriptSafeJson(datasetJsonLd(datasetFacts(hostile), links));
    expect(json.toLowerCase()).not.toContain('</script');
    expect(JSON.parse(json).name).toBe('</SCRIPT><script>alert("x")</script>');
  });
});
