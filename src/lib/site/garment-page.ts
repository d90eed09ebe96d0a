import { feedLinksHtml } from '../revisions/feeds.ts';
import { compareAddingPath } from './comparison.ts';
import { classList, html } from './html.ts';
import { garmentCard } from './index-view.ts';
import type { KeyFacts } from './key-facts.ts';
import { keyFactsView } from './key-facts-view.ts';
import { pageDocument } from './page-frame.ts';
import { keyFactsPanelHtml } from './record-parts.ts';
import type { GarmentEntries } from './site-index.ts';
import { t } from './strings.ts';
import { absoluteUrl } from './urls.ts';
import { PROJECTIONS } from '../record/projections.ts';

/**
 * /garments/<slug>/, the whole HTML document in pieces: the garment (title, image, brand and
 * category) and, for each projection it has, that record's key facts (keyFacts, read once for its pages) and a link to its page.
 */
export function garmentPageHtml(
  slug: string,
  records: GarmentEntries,
  facts: readonly KeyFacts[],
  site: string,
  stylesheet: string,
): string[] {
  const garment = garmentCard(slug, records);
  const missing = PROJECTIONS.filter((projection) => !records[projection]);
  const head = {
    title: t('garment.title', { title: garment.title }),
    description: records.svc?.description ?? records.tech?.description,
    canonical: absoluteUrl(garment.href, site),
    ogType: 'website' as const,
    stylesheet,
    path: garment.href,
    image: garment.image?.src ?? null,
    recordImages: garment.image !== null,
  };
  const projection = (choice: (typeof garment.projections)[number]) => {
    const read = facts.find((f) => f.projection === choice.projection);
    // The garment page has no claims of its own: its facts link to the record page, where each has its claims.
    const view = read && keyFactsView(read, () => []);
    return html`<section class="projection-choice" aria-labelledby="${choice.projection}-heading"><h2 id="${choice.projection}-heading"><a href="${choice.href}">${t(
      `projection.${choice.projection}.long`,
    )}</a></h2><p>${t(`projection.${choice.projection}.about`)}</p><p><span class="${classList('badge', choice.finished ? 'badge--ok' : 'badge--warn')}">${t('record.researchStatus')}: ${
      choice.statusLabel
    }</span></p>${
      view &&
      keyFactsPanelHtml(view, `${choice.projection}-key-facts`, 3, {
        // "Commerce … Key facts": one panel per projection, each landmark named for its own.
        labelledBy: `${choice.projection}-heading ${choice.projection}-key-facts-heading`,
      })
    }<p><a href="${choice.href}" class="read-more">${t('garment.read', {
      projection: t(`projection.${choice.projection}.long`),
    })}</a></p></section>`;
  };
  const main = html`<nav aria-label="${t('nav.breadcrumb')}" class="breadcrumb"><ol><li><a href="/">${t('nav.home')}</a></li><li><a href="${garment.href}" aria-current="page"><bdi>${
    garment.title
  }</bdi></a></li></ol></nav><div class="garment-intro">${
    garment.image &&
    html`<img class="lead-image garment-image" src="${garment.image.src}" alt="${garment.image.alt}" width="240" height="240" decoding="async">`
  }<div><h1><bdi>${garment.title}</bdi></h1><p class="garment-meta">${garment.brand ?? t('index.brandUnknown')} · ${garment.category}</p><p>${t(
    'garment.lead',
  )}</p><p class="compare-link"><a href="${compareAddingPath(slug)}">${t('compare.add')}</a></p></div></div><div class="projection-choices">${garment.projections.map(projection)}</div>${missing.map(
    (projection) => html`<p class="count">${t('garment.missing', { projection: t(`projection.${projection}`) })}</p>`,
  )}`;
  return pageDocument(head, main, feedLinksHtml(slug));
}
