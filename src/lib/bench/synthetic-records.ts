import type { GarmentRecord, Projection } from '../record/types.ts';

const BRANDS = [
  'Northwind',
  'Cobalt & Reed',
  'Tallgrass',
  'Meridian Knit',
  'Kestrel',
  'Oakhaven',
  'Lumen Supply',
  'Driftline',
  'Saltmarsh',
  'Copperfield',
];
const WORDS = [
  'alder',
  'basalt',
  'cedar',
  'dune',
  'ember',
  'fjord',
  'garnet',
  'heath',
  'indigo',
  'juniper',
  'kelp',
  'lichen',
  'moss',
  'nettle',
  'ochre',
  'pumice',
  'quartz',
  'rowan',
  'sorrel',
  'tundra',
];
const STATUSES: GarmentRecord['research']['status'][] = [
  'complete',
  'complete_with_gaps',
  'complete',
  'in_progress',
  'identity_unresolved',
  'incomplete',
];

/** A small deterministic generator (mulberry32), so every bench run builds the same records. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A synthetic record and the file name it is written under. */
export interface SyntheticRecord {
  fileName: string;
  record: GarmentRecord;
}

/**
 * Yields `count` valid records modelled on the templates (the sample records): garments in
 * pairs of projections, each with its own slug, brand, name, a distinctive word, prices,
 * status and dates, so pages and search see realistic size and variety.
 */
export function* syntheticRecords(templates: GarmentRecord[], count: number, seed = 1): Generator<SyntheticRecord> {
  const garments = [...Map.groupBy(templates, (t) => t.slug).values()];
  const random = randomFrom(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  for (let made = 0, garment = 0; made < count; garment++) {
    const pair = garments[garment % garments.length]!;
    const brand = pick(BRANDS);
    const word = `${pick(WORDS)}${garment}`;
    const slug = `${brand.toLowerCase().replace(/[^a-z]+/g, '-')}-${pair[0]!.slug}-${garment}`;
    const priceFactor = 0.7 + random() * 0.8;
    const published = new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 320) * 86_400_000).toISOString();
    const status = pick(STATUSES);
    for (const template of pair) {
      if (made === count) break;
      yield {
        fileName: `${slug}.${template.projection}.json`,
        record: vary(template, { slug, brand, word, priceFactor, published, status }),
      };
      made++;
    }
  }
}

interface Variation {
  slug: string;
  brand: string;
  word: string;
  priceFactor: number;
  published: string;
  status: GarmentRecord['research']['status'];
}

function vary(template: GarmentRecord, { slug, brand, word, priceFactor, published, status }: Variation): GarmentRecord {
  const oldBrand = template.data.identity.brand ?? template.data.identity.manufacturer ?? template.slug;
  // Text replacement on the serialized record keeps every id, reference and shape valid.
  const text = JSON.stringify(template).replaceAll(template.slug, slug).replaceAll(oldBrand, brand);
  const record = JSON.parse(text) as GarmentRecord;
  record.published_at = published;
  record.record_revision = `${published.slice(0, 10)}.1`;
  record.research.status = status;
  record.research.identity_resolved = status !== 'identity_unresolved';
  if (record.page.summary) record.page.summary.text = `${record.page.summary.text} Reference word: ${word}.`;
  if (record.projection === ('svc' satisfies Projection)) {
    for (const offer of record.data.offers) {
      if (offer.base_amount_minor !== null) offer.base_amount_minor = Math.round(offer.base_amount_minor * priceFactor);
    }
  }
  return record;
}
