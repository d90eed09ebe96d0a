// The compare page's words, from strings.ts, for its script (browser/compare-client.ts), which cannot import them: the page passes them as data.
import type { CompareMessages } from './browser/compare-client.ts';
import { t } from './strings.ts';

/** The words compare-client.ts shows, as the page's data-messages. */
export function compareMessages(): CompareMessages {
  return {
    garment: t('compare.garment'),
    table: t('compare.table'),
    remove: t('compare.remove'),
    clear: t('compare.clear'),
    loading: t('compare.loading'),
    missing: t('compare.missing'),
    repeated: t('compare.repeated'),
    invalid: t('compare.invalid'),
    beyond: t('compare.beyond'),
    addMore: t('compare.addMore'),
    brand: t('compare.brand'),
    category: t('compare.category'),
    priceFrom: t('compare.priceFrom'),
    sizes: t('compare.sizes'),
    colors: t('compare.colors'),
    fabric: t('compare.fabric'),
    weight: t('compare.weight'),
    commerce: t('compare.commerce'),
    technical: t('compare.technical'),
    disputed: t('keyFacts.disputed'),
    unverified: t('keyFacts.unverified'),
    or: t('keyFacts.or'),
    currencyNotStated: t('value.currencyNotStated'),
    minorUnits: t('value.minorUnits'),
  };
}
