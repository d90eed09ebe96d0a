import type { ClaimLink } from './data-view.ts';
import { enumLabel, formatDate, formatMoney, formatNumber, isoDate } from './format.ts';
import { remembered } from './remembered.ts';
import type { CommerceFacts, FabricFacts, KeyFacts, Money, PriceRange, TechnicalFacts } from './key-facts.ts';
import { t, tCount } from './strings.ts';
import { collectionAnchor } from './anchors.ts';

/** One line of a key fact: its text, an optional detail after it, a swatch, a link, and its claims. */
export interface KeyFactLine {
  text: string;
  /** Said after the text, smaller: basis and date of a price, the size system. */
  detail: string | null;
  /** A `#rrggbb` colour shown beside the text. */
  swatch: string | null;
  /** A web address the text links to (the next step), or a place on the page. */
  href: string | null;
  claims: ClaimLink[];
}

/** A key fact: its label and lines; no lines means the record does not state it. */
export interface KeyFactRow {
  key: string;
  label: string;
  lines: KeyFactLine[];
  /** How the lines sit: one under another, or flowing in a row (swatches, sizes). */
  layout: 'list' | 'row';
}

/** The key facts as the page and the Markdown twin show them. */
export interface KeyFactsView {
  rows: KeyFactRow[];
}

type ClaimLinker = (ids: string[]) => ClaimLink[];

/** The key facts in words, each line with links to its claims; a fact not stated keeps its row with no lines. */
export function keyFactsView(facts: KeyFacts, claimLinks: ClaimLinker): KeyFactsView {
  return { rows: facts.projection === 'svc' ? commerceRows(facts, claimLinks) : technicalRows(facts, claimLinks) };
}

const line = (text: string, claims: ClaimLink[] = [], more: Partial<KeyFactLine> = {}): KeyFactLine => ({
  text,
  detail: null,
  swatch: null,
  href: null,
  claims,
  ...more,
});

function commerceRows(facts: CommerceFacts, claimLinks: ClaimLinker): KeyFactRow[] {
  const offered = facts.decoration.filter((d) => d.supported !== false);
  const unsupported = facts.decoration.filter((d) => d.supported === false);
  const provider = (name: string | null) => name ?? t('keyFacts.providerNotStated');
  const rows: KeyFactRow[] = [
    {
      key: 'price',
      label: t('keyFacts.price'),
      layout: 'list',
      // A provider's first range is its most public price; the offers table has the rest.
      lines: facts.prices.map((prices) => {
        const range = prices.ranges[0]!;
        return line(`${provider(prices.name)}: ${priceText(range)}`, claimLinks(range.claimIds), { detail: priceDetail(range) });
      }),
    },
    {
      key: 'sizes',
      label: t('keyFacts.sizes'),
      layout: 'list',
      lines: facts.sizes.value
        ? [
            line(facts.sizes.value.labels.join(', '), claimLinks(facts.sizes.claimIds), {
              detail: [facts.sizes.value.system, facts.sizes.value.fit].filter(Boolean).join(', ') || null,
            }),
          ]
        : [],
    },
    {
      key: 'colors',
      label: t('keyFacts.colors'),
      layout: 'row',
      lines: facts.colors.map((color) => line(color.name, claimLinks(color.claimIds), { swatch: color.swatch })),
    },
    {
      key: 'stock',
      label: t('keyFacts.stock'),
      layout: 'list',
      lines: facts.stock.map((stock) => {
        const total = stock.inStock + stock.outOfStock + stock.unknown;
        const text = total === 0 ? t('keyFacts.stockNotListed') : t('keyFacts.stockCount', { inStock: stock.inStock, total });
        return line(`${provider(stock.name)}: ${text}`, claimLinks(stock.claimIds), {
          detail: stock.observedAt ? t('keyFacts.observed', { date: shortDate(stock.observedAt) }) : null,
        });
      }),
    },
    {
      key: 'decoration',
      label: t('keyFacts.decoration'),
      layout: 'list',
      lines:
        offered.length + unsupported.length > 0
          ? [
              line(
                offered.map((d) => enumLabel('decoration_method', d.method)).join(', ') || t('keyFacts.noneOffered'),
                claimLinks(facts.decoration.flatMap((d) => d.claimIds)),
                {
                  detail:
                    unsupported.length > 0
                      ? t('keyFacts.notOffered', { methods: unsupported.map((d) => enumLabel('decoration_method', d.method)).join(', ') })
                      : null,
                },
              ),
            ]
          : [],
    },
  ];
  rows.push(nextStepRow(facts));
  return rows;
}

const SHORT_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/**
 * A record date, short (`Nov 4, 2026`): key facts are read at a glance. Text that is no date is kept
 * as written. Each is worked out once: a record's offers and stock share a few dates, and Intl formats slowly.
 */
const shortDate = remembered((value) => {
  const iso = isoDate(value);
  // A month alone, or an instant whose UTC day may differ from the record's own, reads as formatDate writes it.
  return iso && iso.length === 10
    ? SHORT_DATE.format(new Date(`${iso}T00:00:00Z`))
    : iso && iso.length > 10 && /T\d\d:\d\d(:\d\d(\.\d+)?)?Z$/i.test(value.trim())
      ? SHORT_DATE.format(new Date(iso))
      : formatDate(value);
});

/** The next step: a link only where the record gives an address; the call to action alone is said as text. */
function nextStepRow(facts: KeyFacts): KeyFactRow {
  return {
    key: 'next-step',
    label: t('keyFacts.nextStep'),
    layout: 'list',
    lines: facts.nextStep
      ? [line(facts.nextStep.label ?? t('keyFacts.nextStepLink'), [], { href: facts.nextStep.url })]
      : facts.callToAction
        ? [line(facts.callToAction)]
        : [],
  };
}

/** A price range's text: one price, or the lowest to the highest. */
export function priceText(range: PriceRange): string {
  const low = moneyText(range.low);
  const high = moneyText(range.high);
  return low === high ? low : t('keyFacts.priceRange', { low, high });
}

function moneyText(money: Money): string {
  return formatMoney(money.amountMinor, money.currency, money.exponent) ?? t('value.notStated');
}

/** What a price is: its basis, the smallest quantity when more than one, and when it was seen. */
function priceDetail(range: PriceRange): string {
  return [
    enumLabel('price_basis', range.basis),
    range.quantityMin !== null && range.quantityMin > 1 ? t('keyFacts.quantityMin', { count: range.quantityMin }) : null,
    range.observedAt ? t('keyFacts.observed', { date: shortDate(range.observedAt) }) : null,
  ]
    .filter(Boolean)
    .join(', ');
}

function technicalRows(facts: TechnicalFacts, claimLinks: ClaimLinker): KeyFactRow[] {
  const assetsWith = (allowed: (asset: TechnicalFacts['assets'][number]) => boolean | null) =>
    facts.assets.filter((a) => allowed(a) === true).length;
  const total = facts.assets.length;
  const assetClaims = claimLinks(facts.assets.flatMap((a) => a.claimIds));
  return [
    // A row per fabric: its fibres, its weight (both units), its construction and whether knit or woven.
    ...facts.fabrics.map(
      (fabric): KeyFactRow => ({
        key: 'fabric',
        label: fabric.name ?? fabric.id,
        layout: 'row',
        lines: (['fibres', 'weight', 'construction'] as const).map((fact) => {
          const claims =
            fact === 'construction' ? [...fabric.construction.claimIds, ...fabric.knitOrWoven.claimIds] : fabric[fact].claimIds;
          const value = fabricFact(fabric, fact);
          return line(value ?? t(`keyFacts.${fact}NotStated`), claimLinks([...new Set(claims)]), {
            detail: fact === 'fibres' && fabric.compositionComplete === false ? t('keyFacts.compositionIncomplete') : null,
          });
        }),
      }),
    ),
    {
      key: 'sizes',
      label: t('keyFacts.sizeRange'),
      layout: 'list',
      lines: facts.sizes.value
        ? [
            line(facts.sizes.value.labels.join(', '), claimLinks(facts.sizes.claimIds), {
              detail: [facts.sizes.value.system, facts.sizes.value.fit].filter(Boolean).join(', ') || null,
            }),
          ]
        : [],
    },
    {
      key: 'measure-points',
      label: t('keyFacts.measurePoints'),
      layout: 'list',
      lines:
        facts.measurePoints.length > 0
          ? [
              line(
                facts.measurePoints.map((p) => enumLabel('measurement_name', p.name)).join(', '),
                claimLinks(facts.measurePoints.flatMap((p) => p.claimIds)),
                {
                  detail: tCount('keyFacts.pointCount', facts.measurePoints.length),
                },
              ),
            ]
          : [],
    },
    {
      key: 'assets',
      label: t('keyFacts.assets'),
      layout: 'list',
      lines:
        total > 0
          ? [
              line(
                tCount('keyFacts.assetCount', total, {
                  kinds: [...new Set(facts.assets.map((a) => a.kind).filter(Boolean))].map((k) => enumLabel('asset_kind', k)).join(', '),
                }),
                [],
                {
                  href: `#${collectionAnchor('assets')}`,
                },
              ),
              line(
                t('keyFacts.rights', {
                  redistribution: assetsWith((a) => a.rights.redistribution),
                  manufacturing: assetsWith((a) => a.rights.manufacturing),
                  training: assetsWith((a) => a.rights.training),
                  total,
                }),
                assetClaims,
              ),
            ]
          : [],
    },
    // A technical page's next step is said only where the record gives one.
    ...(facts.nextStep || facts.callToAction ? [nextStepRow(facts)] : []),
  ];
}

function fabricFact(fabric: FabricFacts, fact: 'fibres' | 'weight' | 'construction'): string | null {
  if (fact === 'fibres') {
    return fabric.fibres.value?.map((f) => (f.percent === null ? f.name : `${formatNumber(f.percent, '%')} ${f.name}`)).join(', ') ?? null;
  }
  if (fact === 'weight') {
    const weight = fabric.weight.value;
    if (!weight) return null;
    const original = weight.original ? formatNumber(weight.original.value, weight.original.unit) : null;
    const gsm = weight.gsm !== null ? formatNumber(weight.gsm, 'g/m²') : null;
    // Both units where the record gives both; one that is already g/m² is said once.
    return original && gsm && original !== gsm ? `${original} (${gsm})` : (original ?? gsm);
  }
  const construction = [fabric.construction.value, fabric.knitOrWoven.value].filter(Boolean);
  return construction.length > 0 ? construction.join(', ') : null;
}
