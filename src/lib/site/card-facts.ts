import type { GarmentRecord } from '../record/types.ts';
import { formatMoney } from './format.ts';
import { moneyAmount } from './money.ts';
import { formatNumber } from './number-text.ts';
import { factDoubt } from './claim-standing.ts';
import { keyFacts, type KeyFacts } from './key-facts.ts';
import { doubtText } from './key-facts-view.ts';
import { t } from './strings.ts';

/**
 * The few facts a garment's card and its search result show, worked out once per record: a
 * commerce record's lowest price and sizes, a technical record's main fabric, its weight and sizes,
 * with the numbers a listing sorts by. Every value is plain text; absent when the record has none.
 * A fact in doubt says so after its value, as the key facts do: `9 oz/yd², 305 g/m² (sources disagree: 9 or 8.5 oz/yd²)`.
 */
export interface CardFacts {
  /** The lowest price, formatted (`$18.40`): commerce records. */
  price?: string;
  /** That price in the currency's major unit, to sort by (currencies aside). */
  priceValue?: number;
  /** The sizes, shortened past four (`XS–3XL`). */
  sizes?: string;
  /** The main fabric: construction and fibres (`Fleece, 80% cotton, 20% polyester`): technical records. */
  fabric?: string;
  /** The main fabric's weight, in the units given (`9.5 oz/yd², 322 g/m²`). */
  weight?: string;
  /** That weight in g/m², to sort by. */
  weightGsm?: number;
}

/** A record's card facts, from its key facts (read here when the caller has not read them already). */
export function cardFacts(record: GarmentRecord, facts: KeyFacts = keyFacts(record)): CardFacts {
  const card: CardFacts = {};
  const doubted = (text: string, claimIds: string[]) => {
    const doubt = doubtText(factDoubt(facts.standing, claimIds));
    return doubt ? `${text} (${doubt})` : text;
  };
  if (facts.projection === 'svc') {
    const from = facts.priceFrom;
    const price = from && formatMoney(from.money.amountMinor, from.money.currency, from.money.exponent);
    if (from && price)
      Object.assign(card, {
        price: doubted(price, from.claimIds),
        priceValue: moneyAmount(from.money.amountMinor, from.money.currency, from.money.exponent),
      });
  } else {
    const fabric = facts.fabrics[0];
    const fibres = fabric?.fibres.value?.map((f) => (f.percent === null ? f.name : `${formatNumber(f.percent, '%')} ${f.name}`)).join(', ');
    const kind = fabric?.construction.value ?? fabric?.knitOrWoven.value;
    const described = [kind && kind.charAt(0).toLocaleUpperCase('en') + kind.slice(1), fibres].filter(Boolean).join(', ');
    if (described) card.fabric = doubted(described, [...new Set([...fabric!.fibres.claimIds, ...fabric!.construction.claimIds])]);
    const weight = fabric?.weight.value;
    const weights = [
      weight?.original && formatNumber(weight.original.value, weight.original.unit),
      weight?.gsm ? formatNumber(weight.gsm, 'g/m²') : null,
    ].filter((text): text is string => Boolean(text));
    if (weights.length > 0) card.weight = doubted([...new Set(weights)].join(', '), fabric!.weight.claimIds);
    if (weight?.gsm) card.weightGsm = weight.gsm;
  }
  const sizes = sizesText(record.data.size_ranges.flatMap((range) => range.labels ?? []));
  if (sizes) card.sizes = doubted(sizes, facts.sizes.claimIds);
  return card;
}

/**
 * Sizes as a card shows them: up to four listed, more as the first to the last.
 * @example sizesText(['S', 'M', 'L']) → 'S, M, L'; sizesText(['XS', 'S', 'M', 'L', 'XL']) → 'XS–XL'
 */
export function sizesText(labels: readonly string[]): string | null {
  // Whitespace collapsed, repeats (letter case aside) dropped: the first spelling kept.
  const sizes: string[] = [];
  const seen = new Set<string>();
  for (const label of labels) {
    const size = label.replace(/\s+/g, ' ').trim();
    const key = size.toLocaleLowerCase('en');
    if (size === '' || seen.has(key)) continue;
    seen.add(key);
    sizes.push(size);
  }
  if (sizes.length === 0) return null;
  return sizes.length > 4 ? t('search.hit.sizeRange', { first: sizes[0]!, last: sizes.at(-1)! }) : sizes.join(', ');
}
