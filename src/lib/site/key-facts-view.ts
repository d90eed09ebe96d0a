import type { ClaimLink } from './data-view.ts';
import { enumLabel, formatDate, formatMoney, formatValue } from './format.ts';
import { formatNumber, LOCALE } from './number-text.ts';
import { isoDate } from '../record/timestamp.ts';
import { remembered } from './remembered.ts';
import { type DoubtWording, doubtWords, type FactDoubt, factDoubt } from './claim-standing.ts';
import type {
  CommerceFacts,
  FabricFacts,
  KeyFacts,
  Money,
  OfferKind,
  PriceBasis,
  PriceRange,
  ProviderPrices,
  TechnicalFacts,
} from './key-facts.ts';
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
  /** Said beside the text when the fact may not hold: `sources disagree: 9 or 8.5 oz/yd²`, `not verified`. */
  doubt: string | null;
  /** A link after the text: the size chart beside the sizes. */
  link: { text: string; href: string } | null;
  claims: ClaimLink[];
}

/** A key fact: its label and lines; no lines means the record does not state it. */
export interface KeyFactRow {
  key: string;
  label: string;
  lines: KeyFactLine[];
  /** More lines, folded under a summary: each provider's price beside the one price from. */
  folded: { summary: string; lines: KeyFactLine[] } | null;
  /** How the lines sit: one under another, or flowing in a row (swatches, sizes). */
  layout: 'list' | 'row';
  /** Every claim behind the row's lines (folded ones too), by number: the row's one link to its evidence. */
  claims: ClaimLink[];
}

/** The key facts as the page and the Markdown twin show them. */
export interface KeyFactsView {
  rows: KeyFactRow[];
}

type ClaimLinker = (ids: string[]) => ClaimLink[];

/** The key facts in words, each line with links to its claims; a fact not stated keeps its row with no lines. */
export function keyFactsView(facts: KeyFacts, claimLinks: ClaimLinker): KeyFactsView {
  // Each line says its doubt, worked out from the claims behind it.
  const backed = (claimIds: string[]) => ({ claims: claimLinks(claimIds), doubt: doubtText(factDoubt(facts.standing, claimIds)) });
  const rows = facts.projection === 'svc' ? commerceRows(facts, backed) : technicalRows(facts, backed);
  return { rows: rows.map((row) => ({ ...row, folded: row.folded ?? null, claims: rowClaims(row) })) };
}

/** What a line's claims give it: their links, and the doubt they put it in. */
type Backing = (claimIds: string[]) => Pick<KeyFactLine, 'claims' | 'doubt'>;
/** A row before its claims are gathered from its lines. */
type Row = Omit<KeyFactRow, 'claims' | 'folded'> & Partial<Pick<KeyFactRow, 'folded'>>;

const line = (
  text: string,
  backing: Partial<Pick<KeyFactLine, 'claims' | 'doubt'>> = {},
  more: Partial<KeyFactLine> = {},
): KeyFactLine => ({
  text,
  detail: null,
  swatch: null,
  href: null,
  doubt: null,
  link: null,
  claims: [],
  ...backing,
  ...more,
});

/** The claims of a row's lines, folded ones too, each once, by number. */
function rowClaims(row: Row): ClaimLink[] {
  const lines = [...row.lines, ...(row.folded?.lines ?? [])];
  return [...new Map(lines.flatMap((l) => l.claims).map((link) => [link.number, link])).values()].sort((a, b) => a.number - b.number);
}

/** The build's words for a doubt: the strings table's, numbers and values as the pages write them. */
const DOUBT_WORDING: DoubtWording = {
  disputed: (values) => t('keyFacts.disputed', { values }),
  unverified: t('keyFacts.unverified'),
  or: t('keyFacts.or'),
  number: formatNumber,
  value: formatValue,
};

/**
 * A fact's doubt in words: the values its sources give (`sources disagree: 9 or 8.5 oz/yd²`), or `not verified`.
 * @example doubtText({ kind: 'disputed', values: [{ value: 9, unit: 'oz/yd²' }, { value: 8.5, unit: 'oz/yd²' }] }) → 'sources disagree: 9 or 8.5 oz/yd²'
 */
export function doubtText(doubt: FactDoubt | null): string | null {
  return doubtWords(doubt, DOUBT_WORDING);
}

function commerceRows(facts: CommerceFacts, backed: Backing): Row[] {
  const offered = facts.decoration.filter((d) => d.supported !== false);
  const unsupported = facts.decoration.filter((d) => d.supported === false);
  const provider = (name: string | null) => name ?? t('keyFacts.providerNotStated');
  const from = facts.priceFrom;
  // Each provider's most public price, folded under the one price from: the offers table has the rest.
  const providerLines = facts.prices.map((prices) => {
    const range = prices.ranges[0]!;
    return line(`${sellerName(prices)}: ${priceText(range)}`, backed(range.claimIds), { detail: priceDetail(range) });
  });
  const rows: Row[] = [
    {
      key: 'price',
      label: t('keyFacts.price'),
      layout: 'list',
      lines: from
        ? [
            line(
              t('keyFacts.priceFrom', { price: moneyText(from.money), seller: sellerName({ name: from.provider, site: from.site }) }),
              backed(from.claimIds),
              { detail: priceDetail(from) },
            ),
          ]
        : [],
      folded:
        providerLines.length > 1 || facts.prices.some((p) => p.ranges.length > 1)
          ? { summary: tCount('keyFacts.providerPrices', facts.prices.length), lines: providerLines }
          : null,
    },
    {
      key: 'sizes',
      label: t('keyFacts.sizes'),
      layout: 'list',
      lines: sizeLines(facts, backed),
    },
    {
      key: 'colors',
      label: t('keyFacts.colors'),
      layout: 'row',
      lines: facts.colors.map((color) => line(color.name, backed(color.claimIds), { swatch: color.swatch })),
    },
    {
      key: 'stock',
      label: t('keyFacts.stock'),
      layout: 'list',
      lines: facts.stock.map((stock) => {
        const total = stock.inStock + stock.outOfStock + stock.unknown;
        const text = total === 0 ? t('keyFacts.stockNotListed') : t('keyFacts.stockCount', { inStock: stock.inStock, total });
        return line(`${provider(stock.name)}: ${text}`, backed(stock.claimIds), {
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
                backed(facts.decoration.flatMap((d) => d.claimIds)),
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

/** A seller as a shopper knows it: its name, else the site its price was read on, else that the record does not name it. */
function sellerName(prices: Pick<ProviderPrices, 'name' | 'site'>): string {
  return prices.name ?? (prices.site ? t('keyFacts.sellerAt', { site: prices.site }) : t('keyFacts.providerNotStated'));
}

/** The sizes, with their system and fit, and a link to the size chart where the record has one. */
function sizeLines(facts: KeyFacts, backed: Backing): KeyFactLine[] {
  const sizes = facts.sizes.value;
  if (!sizes) return [];
  return [
    line(sizes.labels.join(', '), backed(facts.sizes.claimIds), {
      detail: [sizes.system, sizes.fit].filter(Boolean).join(', ') || null,
      link: sizes.chartUrl ? { text: t('keyFacts.sizeChart'), href: sizes.chartUrl } : null,
    }),
  ];
}

const SHORT_DATE = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeZone: 'UTC' });

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
function nextStepRow(facts: KeyFacts): Row {
  return {
    key: 'next-step',
    label: t('keyFacts.nextStep'),
    layout: 'list',
    lines: facts.nextStep
      ? [line(facts.nextStep.label ?? t('keyFacts.nextStepLink'), {}, { href: facts.nextStep.url })]
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

/** What a price is, in a shopper's words: its basis (else what it is for), the smallest quantity when more than one, and when it was seen. */
function priceDetail(range: Pick<PriceRange, 'basis' | 'kind' | 'quantityMin' | 'observedAt'>): string {
  return [
    basisText(range.basis, range.kind),
    range.quantityMin !== null && range.quantityMin > 1 ? t('keyFacts.quantityMin', { count: range.quantityMin }) : null,
    range.observedAt ? t('keyFacts.observed', { date: shortDate(range.observedAt) }) : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** A price basis as a shopper says it (`list price`, `volume price`); a basis not stated, or "other", by what the price is for. */
function basisText(basis: PriceBasis | null, kind: OfferKind | null): string {
  if (basis !== null && basis !== 'other') return t(`keyFacts.basis.${basis}`);
  return kind ? t(`keyFacts.kind.${kind}`) : t('keyFacts.basis.notStated');
}

function technicalRows(facts: TechnicalFacts, backed: Backing): Row[] {
  const assetsWith = (allowed: (asset: TechnicalFacts['assets'][number]) => boolean | null) =>
    facts.assets.filter((a) => allowed(a) === true).length;
  const total = facts.assets.length;
  return [
    // A row per fabric: its fibres, its weight (both units), its construction and whether knit or woven.
    ...facts.fabrics.map(
      (fabric): Row => ({
        key: 'fabric',
        label: fabric.name ?? fabric.id,
        layout: 'row',
        lines: (['fibres', 'weight', 'construction'] as const).map((fact) => {
          const claims =
            fact === 'construction' ? [...fabric.construction.claimIds, ...fabric.knitOrWoven.claimIds] : fabric[fact].claimIds;
          const value = fabricFact(fabric, fact);
          return line(value ?? t(`keyFacts.${fact}NotStated`), backed([...new Set(claims)]), {
            detail: fact === 'fibres' && fabric.compositionComplete === false ? t('keyFacts.compositionIncomplete') : null,
          });
        }),
      }),
    ),
    {
      key: 'sizes',
      label: t('keyFacts.sizeRange'),
      layout: 'list',
      lines: sizeLines(facts, backed),
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
                backed(facts.measurePoints.flatMap((p) => p.claimIds)),
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
                {},
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
                backed(facts.assets.flatMap((a) => a.claimIds)),
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
