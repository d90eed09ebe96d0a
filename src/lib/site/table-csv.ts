import { OFFER_COLUMNS, offerCells } from './comparison-view.ts';
import { COLLECTION_ORDER, type ClaimLink, type CollectionView, type FieldView, type MeasurementGrid } from './data-view.ts';
import { markerGroups } from './fragments.ts';
import type { CatalogView, PageView } from './page-view.ts';
import { t } from './strings.ts';

/**
 * The data tables of a record page, each as the rows of a CSV file: the table's column labels,
 * then a row per item with the text its cells show (a cell the table leaves empty with a dash is
 * empty; claim markers inside a grid's cells are left out, a claims column keeps its numbers).
 */
export interface PageTable {
  /** The file's name without `.csv`, unique on the page: the collection's name, `size-chart-<n>`, `catalog-table-<n>`. */
  name: string;
  /** What the table shows, as its heading or title says. */
  title: string;
  header: string[];
  /** Worked out when asked: the page's links need only the names. */
  rows: () => string[][];
}

/** Every table of a record page, in the order the page shows them: the catalog's, then the data's. */
export function pageTables(view: PageView): PageTable[] {
  const tables = view.catalog ? view.catalog.tables.map(catalogTable) : [];
  const { comparisons } = view;
  for (const collection of view.collections) {
    if (collection.name === 'offers' && comparisons.offers) {
      const offers = comparisons.offers;
      tables.push({
        name: collection.name,
        title: collection.heading,
        header: [...OFFER_COLUMNS.map((key) => t(key)), t('part.claims')],
        rows: () => offers.map((row) => [...offerCells(row), claimNumbers(row.claims)]),
      });
    } else if (collection.name === 'variants' && comparisons.variants) {
      const grid = comparisons.variants;
      tables.push({
        name: collection.name,
        title: collection.heading,
        header: [t('variants.color'), ...grid.sizes],
        rows: () => grid.rows.map((row) => [row.color, ...row.cells.map((cell) => cell?.stock ?? t('variants.none'))]),
      });
    } else {
      tables.push(...(collection.grids ?? []).map(sizeChartTable));
      if (collection.layout === 'table') tables.push(collectionTable(collection));
    }
  }
  return tables;
}

/** Names a CSV of a record page's tables can have: a collection's, a size chart's or a catalog table's (`offers`, `size-chart-2`). */
export function isPageTableName(name: string): boolean {
  return /^(?:size-chart|catalog-table)-[1-9]\d*$/.test(name) || TABLE_COLLECTIONS.has(name);
}

const TABLE_COLLECTIONS = new Set<string>([...COLLECTION_ORDER.svc, ...COLLECTION_ORDER.tech]);

/** The name of the n-th (from 1) size chart of the measurements, as a file and as the table's title's id. */
export function sizeChartName(n: number): string {
  return `size-chart-${n}`;
}

/** The name of the n-th (from 1) measurement table of the catalog entry, as a file and as the table's title's id. */
export function catalogTableName(n: number): string {
  return `catalog-table-${n}`;
}

function catalogTable(table: CatalogView['tables'][number], i: number): PageTable {
  return {
    name: catalogTableName(i + 1),
    title: table.caption,
    header: [t('catalog.rowLabel'), ...table.sizes],
    rows: () => table.rows.map((row) => [row.label, ...row.cells]),
  };
}

function sizeChartTable(grid: MeasurementGrid, i: number): PageTable {
  return {
    name: sizeChartName(i + 1),
    title: t('data.sizeChart', { caption: grid.caption }),
    header: [t('data.measurement'), ...grid.sizes],
    rows: () => grid.rows.map((row) => [row.label, ...row.cells.map((cell) => cell?.text ?? '')]),
  };
}

function collectionTable(collection: CollectionView): PageTable {
  const withClaims = collection.items.some((item) => item.claims.length > 0);
  return {
    name: collection.name,
    title: collection.heading,
    header: [t('data.item'), ...collection.columns.map((column) => column.label), ...(withClaims ? [t('part.claims')] : [])],
    rows: () =>
      collection.items.map((item) => [item.title, ...item.cells.map(fieldText), ...(withClaims ? [claimNumbers(item.claims)] : [])]),
  };
}

/** A field's value as its cell shows it: its parts separated by commas. */
function fieldText(field: FieldView | null): string {
  return field ? field.parts.map((part) => part.text).join(', ') : '';
}

/** Claim numbers as the claims column shows them: `1–3, 7`. */
function claimNumbers(links: ClaimLink[]): string {
  if (links.length === 0) return '';
  return markerGroups(links)
    .map((group) => (group.length === 1 ? `${group[0]!.number}` : `${group[0]!.number}–${group.at(-1)!.number}`))
    .join(', ');
}
