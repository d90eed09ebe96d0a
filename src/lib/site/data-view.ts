import { referencedCollection } from '../record/references.ts';
import type { GarmentRecord, Projection } from '../record/types.ts';
import { collectionAnchor, itemAnchor, sourceAnchor } from './anchors.ts';
import { type ItemIds, itemIdsOf } from './item-ids.ts';
import { collectionLabel, enumLabel, fieldLabel, formatAmount, formatBoolean, formatDate, formatMoney, formatRange } from './format.ts';
import { formatNumber } from './number-text.ts';
import { t } from './strings.ts';
import { webUrl } from './web-address.ts';

/** One piece of a displayed value: text, a link, or code. Components render these; nothing here is HTML. */
export type Part =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string; external: boolean }
  | { kind: 'code'; text: string };

/** A labelled value of a data item. */
export interface FieldView {
  /** The record field (or the first of the fields combined into this one). */
  name: string;
  label: string;
  /** Shown separated by commas. */
  parts: Part[];
}

/** A link to a claim by its number on the page. */
export interface ClaimLink {
  number: number;
  href: string;
  id: string;
}

/** One item of a data collection. */
export interface ItemView {
  id: string;
  /** Fragment id: `<collection>-<id>`. */
  anchor: string;
  /** A human name for the item (its name, label or kind), else its id. */
  title: string;
  /** Only fields with a value, in schema order, related fields combined. */
  fields: FieldView[];
  /** Claims whose targets name this item. */
  claims: ClaimLink[];
  /** Its fields in the order of its collection's columns, null where it has no value: its row of the table. */
  cells: (FieldView | null)[];
}

/** A data collection as shown on the page. */
export interface CollectionView {
  name: string;
  /** Fragment id: `data-<collection>`. */
  anchor: string;
  heading: string;
  /** A table when there are several items or few fields, else a card. */
  layout: 'table' | 'cards';
  /** Table columns: the fields any item has a value for. */
  columns: { name: string; label: string }[];
  items: ItemView[];
  /** Whether the collection starts folded whole (a `<details>` element), so a page with a large one stays scannable. */
  folded: boolean;
  /** Measurements as size charts, when they fit; the grid cells then carry the items' anchors. */
  grids: MeasurementGrid[] | null;
}

/** A cell of a size chart: the value, anchored as its measurement item. */
export interface GridCell {
  text: string;
  anchor: string;
  claims: ClaimLink[];
}

/** A size chart built from measurement items. */
export interface MeasurementGrid {
  caption: string;
  sizes: string[];
  rows: { label: string; cells: (GridCell | null)[] }[];
}

/** The data collections a projection carries, in the specification's order (2.2). */
export const COLLECTION_ORDER = {
  svc: [
    'material_profiles',
    'colors',
    'size_ranges',
    'variants',
    'measurements',
    'construction',
    'decoration_methods',
    'decoration_placements',
    'provider_listings',
    'provider_variants',
    'offers',
    'price_components',
    'shipping_options',
    'branding_packaging',
    'reviews',
    'review_summaries',
    'performance_tests',
    'certifications',
    'supply_chain',
    'additional_facts',
  ],
  tech: [
    'material_profiles',
    'colors',
    'size_ranges',
    'variants',
    'measurements',
    'construction',
    'performance_tests',
    'certifications',
    'supply_chain',
    'assets',
    'asset_relationships',
    'manufacturing',
    'capabilities',
    'additional_facts',
  ],
} as const satisfies Record<Projection, readonly string[]>;

/** Enumerated fields and the label group of their values. */
const ENUM_GROUPS: Record<string, string> = {
  measurement_name: 'measurement_name',
  measurement_kind: 'measurement_kind',
  method: 'decoration_method',
  placement_key: 'placement_key',
  platform: 'platform',
  price_basis: 'price_basis',
  account_tier: 'account_tier',
  offer_kind: 'offer_kind',
  component_type: 'component_type',
  quote_kind: 'quote_kind',
  issue_attribution: 'issue_attribution',
  stance: 'stance',
};

/** The label group of an enumerated field's values: `method` is enumerated only in decoration_methods, free text elsewhere. */
function enumGroupOf(name: string, collection: string | null): string | undefined {
  return name === 'method' && collection !== 'decoration_methods' ? undefined : ENUM_GROUPS[name];
}

/** Number fields and the field holding their unit. */
const UNIT_OF: Record<string, string> = {
  value: 'unit',
  width: 'unit',
  height: 'unit',
  value_number: 'unit',
  weight_original: 'weight_original_unit',
  tolerance_plus: 'tolerance_unit',
  tolerance_minus: 'tolerance_unit',
  impact_value: 'impact_unit',
  package_weight_value: 'package_weight_unit',
};

/** Fields whose values are shown as code. */
const CODE_FIELDS = new Set(['sha256', 'local_path', 'gtin', 'coordinates']);

/** Fields tried in order for an item's human name. */
const TITLE_FIELDS = [
  'name',
  'official_name',
  'manufacturer_name',
  'capability',
  'feature',
  'property',
  'topic',
  'component',
  'scheme_or_standard',
  'stage',
  'provider_name',
  'catalog_title',
  'service_name',
  'relationship',
  'measurement_name',
  'method',
  'placement_key',
  'component_type',
  'offer_kind',
  'kind',
  'size_label',
];

const DATE_FIELD = /(_at|_date|^valid_until|^period_start|^period_end|^rights_expiry)$/;

/** How the page refers to the rest of the record while building data views. */
export interface DataContext {
  record: GarmentRecord;
  /** Claims whose targets name an item, by item anchor. */
  claimsByAnchor: Map<string, ClaimLink[]>;
  /** The record's item ids ({@link itemIdsOf}), when the caller has them already. */
  ids?: ItemIds;
  /** Names the items of the collections in `namedInWords` in words (item-names.ts); the others are named by their naming field. */
  nameOf?: (collection: string, item: Record<string, unknown>) => string;
  namedInWords?: ReadonlySet<string>;
}

/** Items beyond which a collection starts folded. */
const COLLAPSE_AFTER = 4;
/** A lone item is a table row (not a card) when it has at most this many fields with a value. */
const TABLE_MAX_COLUMNS = 7;

/**
 * An item's fields in the order of its collection's table columns, null where the item has no value.
 * A table has a dozen columns at most: each field's column is looked up in them, with nothing kept between rows.
 */
function rowCells(columns: CollectionView['columns'], fields: FieldView[]): (FieldView | null)[] {
  const cells: (FieldView | null)[] = new Array(columns.length).fill(null);
  for (const field of fields) {
    for (let at = 0; at < columns.length; at++) {
      if (columns[at]!.name === field.name) {
        cells[at] = field;
        break;
      }
    }
  }
  return cells;
}

/** The non-empty data collections of a record, in the specification's order for its projection. */
export function collectionViews(context: DataContext): CollectionView[] {
  const { record, ids = itemIdsOf(record) } = context;
  const data = record.data as unknown as Record<string, Record<string, unknown>[]>;
  const lookup = { ids, sourceIds: new Set(record.sources.map((s) => s.id)) };
  const views: CollectionView[] = [];
  for (const name of COLLECTION_ORDER[record.projection]) {
    const items = data[name] ?? [];
    if (items.length === 0) continue;
    const namedInWords = context.namedInWords?.has(name) ?? false;
    const seen = new Set<string>();
    const drafts = items.map((item) => {
      const id = String(item.id);
      // A duplicated id (a warning, not an error) keeps its first anchor; later copies get none of their own.
      const anchor = seen.has(id) ? '' : itemAnchor(name, id);
      seen.add(id);
      const named = itemTitle(item, name);
      const title = context.nameOf && namedInWords ? context.nameOf(name, item) : named.title;
      // An item titled by one of its fields does not show that field again.
      const titleField = title === named.title ? named.titleField : null;
      const fields = fieldViews(item, lookup, name).filter((f) => f.name !== titleField);
      return { id, anchor, title, fields, claims: context.claimsByAnchor.get(anchor) ?? [] };
    });
    // Every field any item shows, in order of first appearance, labelled as there.
    const columnNames = new Set<string>();
    const columns: CollectionView['columns'] = [];
    for (const draft of drafts) {
      for (const field of draft.fields) {
        if (columnNames.has(field.name)) continue;
        columnNames.add(field.name);
        columns.push({ name: field.name, label: field.label });
      }
    }
    // Items of a collection share their fields: two or more compare best as rows of a table.
    const layout = drafts.length >= 2 || columns.length <= TABLE_MAX_COLUMNS ? 'table' : 'cards';
    views.push({
      name,
      anchor: collectionAnchor(name),
      heading: collectionLabel(name),
      layout,
      columns,
      items: drafts.map((draft) => ({ ...draft, cells: rowCells(columns, draft.fields) })),
      folded: items.length > COLLAPSE_AFTER,
      grids: name === 'measurements' ? measurementGrids(items, drafts) : null,
    });
  }
  return views;
}

/** The collections of the projection that hold no items, for a plain "none recorded" line. */
export function emptyCollections(record: GarmentRecord): string[] {
  const data = record.data as unknown as Record<string, unknown[]>;
  return COLLECTION_ORDER[record.projection].filter((name) => (data[name] ?? []).length === 0).map(collectionLabel);
}

/** The identity object's fields with a value. */
export function identityFields(record: GarmentRecord, ids = itemIdsOf(record)): FieldView[] {
  return fieldViews(record.data.identity as unknown as Record<string, unknown>, { ids, sourceIds: new Set() });
}

/** An item's human name, from its first naming field with a value (and that field), else its id. */
export function itemTitle(item: Record<string, unknown>, collection: string): { title: string; titleField: string | null } {
  for (const field of TITLE_FIELDS) {
    const value = item[field];
    if (typeof value === 'string' && value.trim()) {
      const group = enumGroupOf(field, collection);
      return { title: group ? enumLabel(group, value) : value, titleField: field };
    }
  }
  return { title: String(item.id ?? ''), titleField: null };
}

/**
 * Measurements as size charts: one grid per dataset, a row per measurement (and unit), a column per
 * size, each cell anchored as its item. Null when the measurements do not fit a grid (a value missing,
 * or two values for one cell).
 */
export function measurementGrids(
  items: Record<string, unknown>[],
  views: { id: string; anchor: string; claims: ClaimLink[] }[],
): MeasurementGrid[] | null {
  type GridDraft = { caption: string; sizes: string[]; rows: Map<string, { label: string; cells: Map<string, GridCell> }> };
  const grids = new Map<string, GridDraft>();
  for (const [i, item] of items.entries()) {
    const { size_label: size, measurement_name: measurement, value, unit } = item as Record<string, string | number | null>;
    if (typeof size !== 'string' || typeof measurement !== 'string' || typeof value !== 'number') return null;
    const dataset = String(item.dataset_id ?? item.scope ?? '');
    const grid: GridDraft = grids.get(dataset) ?? {
      caption: [item.dataset_id, item.scope].filter(Boolean).join(': '),
      sizes: [],
      rows: new Map(),
    };
    grids.set(dataset, grid);
    if (!grid.sizes.includes(size)) grid.sizes.push(size);
    const kind =
      item.measurement_kind && item.measurement_kind !== 'finished_garment'
        ? ` (${enumLabel('measurement_kind', String(item.measurement_kind))})`
        : '';
    const rowKey = `${measurement}|${unit ?? ''}|${kind}`;
    const row = grid.rows.get(rowKey) ?? {
      label: `${enumLabel('measurement_name', measurement)}${kind}${unit ? `, ${unit}` : ''}`,
      cells: new Map(),
    };
    grid.rows.set(rowKey, row);
    if (row.cells.has(size)) return null;
    row.cells.set(size, { text: formatNumber(value), anchor: views[i]!.anchor, claims: views[i]!.claims });
  }
  return [...grids.values()].map((grid) => ({
    caption: grid.caption || collectionLabel('measurements'),
    sizes: grid.sizes,
    rows: [...grid.rows.values()].map((row) => ({ label: row.label, cells: grid.sizes.map((size) => row.cells.get(size) ?? null) })),
  }));
}

interface Lookup {
  ids: ItemIds;
  sourceIds: Set<string>;
}

/** How a field is shown, read from its name alone. */
interface FieldRule {
  label: string;
  /** Money in minor units, when the value is a number. */
  minor: boolean;
  /** `<base>` of a `<base>_min` or `<base>_max` field, which may pair with its twin. */
  rangeBase: string | null;
  /** The field holding this number's unit. */
  unitField: string | null;
  /** How each string (or list element) of the field is shown. */
  scalar:
    | { kind: 'reference'; collection: string }
    | { kind: 'source' | 'url' | 'date' | 'code' | 'text' }
    | { kind: 'enum'; group: string };
}

/**
 * Rules by collection, then field name: a page has a few hundred distinct pairs, and thousands of
 * fields. Two levels, as field names (object keys) keep their hash and a joined key would not.
 */
const rules = new Map<string | null, Map<string, FieldRule>>();
/** Field names come from the schema; the cap only guards against odd input. */
const RULES_MAX = 10_000;
let ruleCount = 0;

/** The rules of one collection's fields (null: fields outside a collection), kept as they are worked out. */
function rulesOf(itemCollection: string | null): Map<string, FieldRule> {
  let collectionRules = rules.get(itemCollection);
  if (!collectionRules) rules.set(itemCollection, (collectionRules = new Map()));
  return collectionRules;
}

function ruleOf(name: string, itemCollection: string | null, collectionRules: Map<string, FieldRule>): FieldRule {
  // Whether a field is a reference, and whether `method` is enumerated, depend on the item's collection.
  let rule = collectionRules.get(name);
  if (rule) return rule;
  const group = enumGroupOf(name, itemCollection);
  const collection = referencedCollection(itemCollection, name);
  rule = {
    label: fieldLabel(name),
    minor: name.endsWith('_minor'),
    rangeBase: /^(.*)_(min|max)$/.exec(name)?.[1] ?? null,
    unitField: Object.hasOwn(UNIT_OF, name) ? UNIT_OF[name]! : null,
    // The same precedence as a chain of checks: references, sources, URLs, enumerations, dates, code.
    scalar: collection
      ? { kind: 'reference', collection }
      : name === 'source_id'
        ? { kind: 'source' }
        : name.endsWith('_url')
          ? { kind: 'url' }
          : group
            ? { kind: 'enum', group }
            : DATE_FIELD.test(name)
              ? { kind: 'date' }
              : CODE_FIELDS.has(name)
                ? { kind: 'code' }
                : { kind: 'text' },
  };
  if (ruleCount < RULES_MAX) {
    collectionRules.set(name, rule);
    ruleCount++;
  }
  return rule;
}

/**
 * The displayed fields of one item: empty values left out, the id left out (it titles the item),
 * money formatted from minor units, numbers joined to their units, min/max pairs joined to ranges,
 * references linked to the items they name, URLs linked only when http(s).
 */
export function fieldViews(item: Record<string, unknown>, lookup: Lookup, collection: string | null = null): FieldView[] {
  const collectionRules = rulesOf(collection);
  // Each field's name, value and rule, read in one pass over the item.
  const names: string[] = [];
  const values: unknown[] = [];
  const itemRules: FieldRule[] = [];
  // Fields shown with another (a unit, a currency, a range's other end) or not at all (the id): a
  // handful, so a list. Each name comes up once, so a field shown on its own need not be added.
  const consumed = ['id'];
  for (const name in item) {
    const rule = ruleOf(name, collection, collectionRules);
    const value = item[name];
    names.push(name);
    values.push(value);
    itemRules.push(rule);
    if (rule.minor && typeof value === 'number') consumed.push('currency', 'minor_unit_exponent');
    // A unit is shown with its number; a unit without any number is still shown on its own.
    if (rule.unitField !== null && !isEmpty(value)) consumed.push(rule.unitField);
  }

  const fields: FieldView[] = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (consumed.includes(name)) continue;
    const rule = itemRules[i]!;
    const combined = combinedField(name, rule, item, consumed);
    if (combined) {
      fields.push(combined);
      continue;
    }
    const value = values[i];
    if (isEmpty(value)) continue;
    const parts = valueParts(name, rule, value, item, lookup);
    if (parts.length > 0) fields.push({ name, label: rule.label, parts });
  }
  return fields;
}

/** Fields shown together: fibre names with their shares, min/max ranges, ratings out of a scale. */
function combinedField(name: string, rule: FieldRule, item: Record<string, unknown>, consumed: string[]): FieldView | null {
  if (name === 'fiber_names' || name === 'fiber_percentages')
    return composition('fiber_names', 'fiber_percentages', 'composition', item, consumed);
  if (name === 'face_fiber_names' || name === 'face_fiber_percentages') {
    return composition('face_fiber_names', 'face_fiber_percentages', 'face_composition', item, consumed);
  }
  const base = rule.rangeBase;
  if (base !== null) {
    const minName = `${base}_min`;
    const maxName = `${base}_max`;
    if (minName in item && maxName in item) {
      const min = item[minName];
      const max = item[maxName];
      consumed.push(minName, maxName);
      const value = formatRange(typeof min === 'number' ? min : null, typeof max === 'number' ? max : null);
      return value === null ? null : { name: minName, label: fieldLabel(base), parts: [text(value)] };
    }
  }
  if ((name === 'rating_value' || name === 'displayed_rating') && typeof item[name] === 'number') {
    const scale = item.rating_scale_max;
    if (typeof scale === 'number') {
      consumed.push('rating_scale_max');
      return { name, label: rule.label, parts: [text(`${formatNumber(item[name] as number)} / ${formatNumber(scale)}`)] };
    }
  }
  return null;
}

/** Fibre names with their shares, when both lists are there and of one length. */
function composition(
  names: string,
  shares: string,
  labelField: string,
  item: Record<string, unknown>,
  consumed: string[],
): FieldView | null {
  const fibres = item[names];
  const percentages = item[shares];
  if (!Array.isArray(fibres) || !Array.isArray(percentages) || fibres.length !== percentages.length || fibres.length === 0) return null;
  consumed.push(names, shares);
  return {
    name: names,
    label: fieldLabel(labelField),
    parts: fibres.map((fibre, i) => text(`${formatNumber(Number(percentages[i]), '%')} ${String(fibre)}`)),
  };
}

/**
 * A value as the page shows it in a field of an item (money in the item's currency, an enumeration's
 * label, a date), as text; a number given in a `unit` of its own (a claim's) is said in that unit.
 * Null when the page would show nothing.
 * @example fieldValueText({ currency: 'USD', minor_unit_exponent: 2 }, 'base_amount_minor', 1195, 'offers') → '$11.95'
 */
export function fieldValueText(
  item: Record<string, unknown>,
  name: string,
  value: unknown,
  collection: string | null,
  unit: string | null = null,
): string | null {
  if (isEmpty(value)) return null;
  const rule = ruleOf(name, collection, rulesOf(collection));
  if (unit !== null && typeof value === 'number' && !rule.minor) return formatAmount(value, unit);
  const parts = valueParts(name, rule, value, item, { ids: new Map(), sourceIds: new Set() });
  return parts.length === 0 ? null : parts.map((part) => part.text).join(', ');
}

function valueParts(name: string, rule: FieldRule, value: unknown, item: Record<string, unknown>, lookup: Lookup): Part[] {
  if (rule.minor && typeof value === 'number') {
    const money = formatMoney(value, item.currency as string | null, item.minor_unit_exponent as number | null);
    return money === null ? [] : [text(money)];
  }
  if (typeof value === 'boolean') return [text(formatBoolean(value))];
  if (typeof value === 'number') {
    const unit = rule.unitField ? (item[rule.unitField] as string | null) : null;
    // A tolerance is a size, signed by its side; one given with a sign keeps its own.
    const signed = value < 0 ? '' : name === 'tolerance_plus' ? '+' : name === 'tolerance_minus' ? '−' : '';
    return [text(`${signed}${formatAmount(value, unit)}`)];
  }
  if (!Array.isArray(value)) return [scalarPart(rule, value, lookup)];
  const parts: Part[] = [];
  for (const v of value) if (!isEmpty(v)) parts.push(scalarPart(rule, v, lookup));
  return parts;
}

function scalarPart(rule: FieldRule, value: unknown, lookup: Lookup): Part {
  if (typeof value !== 'string') return text(typeof value === 'number' ? formatNumber(value) : String(value));
  const { scalar } = rule;
  switch (scalar.kind) {
    case 'reference':
      return lookup.ids.get(scalar.collection)?.has(value)
        ? { kind: 'link', text: value, href: `#${itemAnchor(scalar.collection, value)}`, external: false }
        : text(value);
    case 'source':
      return lookup.sourceIds.has(value) ? { kind: 'link', text: value, href: `#${sourceAnchor(value)}`, external: false } : text(value);
    case 'url':
      return urlPart(value);
    case 'enum':
      return text(enumLabel(scalar.group, value));
    case 'date':
      return text(formatDate(value));
    case 'code':
      return { kind: 'code', text: value };
    default:
      return text(value);
  }
}

/** A URL from a record: a link when http(s), else the address as plain text, marked as not linked. */
export function urlPart(url: string): Part {
  const href = webUrl(url);
  return href ? { kind: 'link', text: url.trim(), href, external: true } : text(t('value.linkNotShown', { url }));
}

function text(value: string): Part {
  return { kind: 'text', text: value };
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}
