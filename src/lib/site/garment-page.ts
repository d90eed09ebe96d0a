import { classList, html } from './html.ts';
import { garmentCard } from './index-view.ts';
import { pageDocument } from './page-frame.ts';
import type { GarmentEntries } from './site-index.ts';
import { t } from './strings.ts';
import { absoluteUrl } from './urls.ts';

/** /garments/<slug>/, the whole HTML document in pieces: leads to the projection(s) a garment has. */
export function garmentPageHtml(slug: string, records: GarmentEntries, site: string, stylesheet: string): string[] {
  const garment = garmentCard(slug, records);
  const missing = (['svc', 'tech'] as const).filter((projection) => !records[projection]);
  const head = {
    title: t('garment.title', { title: garment.title }),
    description: records.svc?.description ?? records.tech?.description,
    canonical: absoluteUrl(garment.href, site),
    ogType: 'website' as const,
    stylesheet,
  };
  const main = html`<nav aria-label="${t('nav.breadcrumb')}" class="breadcrumb"><ol><li><a href="/">${t('nav.home')}</a></li><li><a href="${garment.href}" aria-current="page">${
    garment.title
  }</a></li></ol></nav><h1><bdi>${garment.title}</bdi></h1><p class="garment-meta">${garment.brand ?? t('index.brandUnknown')} · ${garment.category}</p><p>${t(
    'garment.lead',
  )}</p><ul class="projection-choices">${garment.projections.map(
    (choice) => html`<li class="projection-choice"><h2><a href="${choice.href}">${t(`projection.${choice.projection}.long`)}</a></h2><p>${t(
      `projection.${choice.projection}.about`,
    )}</p><p><span class="${classList('badge', choice.finished ? 'badge--ok' : 'badge--warn')}">${t('record.researchStatus')}: ${choice.statusLabel}</span></p></li>`,
  )}</ul>${missing.map((projection) => html`<p class="count">${t('garment.missing', { projection: t(`projection.${projection}`) })}</p>`)}`;
  return pageDocument(head, main);
}
