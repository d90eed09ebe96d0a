import type { GarmentRecord, Links } from '../record/types.ts';
import { claimLinksHtml } from './fragments.ts';
import { classList, html, trustedHtml, type HtmlValue, type SafeHtml } from './html.ts';
import { recordJsonLd, scriptSafeJson } from './json-ld.ts';
import { pageDocument } from './page-frame.ts';
import type { PageView } from './page-view.ts';
import {
  catalogHtml,
  claimsHtml,
  conflictsHtml,
  dataCollectionsHtml,
  decisionsHtml,
  faqHtml,
  gapsHtml,
  imagesHtml,
  pagePartHtml,
  selectionSummaryHtml,
  sourcesHtml,
  textBlockHtml,
} from './record-parts.ts';
import { t } from './strings.ts';
import { absoluteUrl, jsonPath, markdownPath } from './urls.ts';

/**
 * A record's page, the whole HTML document in pieces (see markupPieces): built from its view (not
 * through Astro, whose per-page machinery cost more than the page itself), in the frame Astro's pages share.
 */
export function recordPageHtml(record: GarmentRecord, view: PageView, links: Links, site: string, stylesheet: string): string[] {
  const { meta } = view;
  return pageDocument(
    { title: meta.title, description: meta.description, canonical: absoluteUrl(meta.path, site), image: meta.image, ogType: 'article', stylesheet },
    recordBodyHtml(view),
    alternatesHtml(record, links),
  );
}

/** Head links to the record's JSON and Markdown twins, and schema.org JSON-LD describing it. */
function alternatesHtml(record: GarmentRecord, links: Links): SafeHtml {
  // scriptSafeJson escapes < > & so record text cannot close the script element.
  return html`${links.json && html`<link rel="alternate" type="application/json" href="${links.json}">`}${
    links.markdown && html`<link rel="alternate" type="text/markdown" href="${links.markdown}">`
  }<script type="application/ld+json">${trustedHtml(scriptSafeJson(recordJsonLd(record, links)))}</script>`;
}

/** The body of a record page, in reading order, a piece per part; parts with nothing to show are left out. */
function recordBodyHtml(view: PageView): HtmlValue[] {
  const contents = html`<nav class="contents" aria-labelledby="contents-heading"><h2 id="contents-heading" class="contents-heading">${t('nav.contents')}</h2><ol>${view.contents.map(
    (entry) => html`<li><a href="${entry.href}">${entry.label}</a></li>`,
  )}</ol></nav>`;
  return [
    html`<article class="record" data-projection="${view.projection}">${recordHeaderHtml(view)}<div class="record-layout">${contents}<div class="record-body">`,
    view.sections.map((section) => pagePartHtml(section.anchor, section.heading, section.blocks.map((block) => textBlockHtml(block)), 'page-section')),
    selectionSummaryHtml(view.selectionSummary),
    view.faq.length > 0 && faqHtml(view.faq),
    view.images.length > 0 && imagesHtml(view.images),
    view.catalog && catalogHtml(view.catalog),
    view.gapGroups.length > 0 && gapsHtml(view.gapGroups),
    (view.identity.length > 0 || view.seed.length > 0 || view.collections.length > 0) && dataCollectionsHtml(view),
    view.conflicts.length > 0 && conflictsHtml(view.conflicts),
    view.decisions.length > 0 && decisionsHtml(view.decisions),
    view.claims.length > 0 && claimsHtml(view.claims),
    view.sources.length > 0 && sourcesHtml(view.sources),
    html`</div></div></article>`,
  ];
}

/** The top of a record page: what the garment is, which projection this is, and how finished the research is. */
function recordHeaderHtml(view: PageView): SafeHtml {
  const lead = view.leadImage?.src
    ? html`<img class="lead-image" src="${view.leadImage.src}" alt="${view.leadImage.alt}" width="320" height="320" decoding="async" fetchpriority="high">`
    : null;
  return html`<header class="record-header"><nav aria-label="${t('nav.breadcrumb')}" class="breadcrumb"><ol><li><a href="/">${t('nav.home')}</a></li><li><a href="${view.garmentHref}">${
    view.garmentName
  }</a></li><li><a href="${view.meta.path}" aria-current="page">${view.projectionLabel}</a></li></ol></nav><div class="record-intro"><div class="record-intro-text"><p class="projection-line"><span class="${classList(
    'projection-badge',
    `projection-badge--${view.projection}`,
  )}"><span class="visually-hidden">${t('projection.label')}: </span>${t(`projection.${view.projection}.long`)}</span>${
    view.otherProjection && html`<a href="${view.otherProjection.href}" class="other-projection">${view.otherProjection.label}</a>`
  }</p><h1 id="title"><bdi>${view.title}</bdi>${trustedHtml(claimLinksHtml(view.titleCitations, 'marker'))}</h1>${view.headline && textBlockHtml(view.headline, 'lead')}${
    view.summary && textBlockHtml(view.summary)
  }${view.description && textBlockHtml(view.description)}${
    view.callToAction && html`<p class="call-to-action"><strong>${t('record.callToAction')}:</strong> ${view.callToAction}</p>`
  }</div>${lead}</div>${researchStatusHtml(view)}${twinDownloadsHtml(view)}</header>`;
}

/** How finished the research is, in words: anything but `complete` is marked unfinished, with its limitations. */
function researchStatusHtml(view: PageView): SafeHtml {
  const { research, published } = view;
  const fact = (label: string, value: string | SafeHtml) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`;
  return html`<section class="${classList('research-status', research.finished ? 'research-status--finished' : 'research-status--unfinished')}" aria-labelledby="research-status-heading"><h2 id="research-status-heading" class="research-status-heading"><span class="status-icon" aria-hidden="true">${
    research.finished ? '✓' : '!'
  }</span>${t('record.researchStatus')}: ${research.statusLabel}</h2><p class="status-note">${research.note}${
    research.gapSummary && html` <a href="#research-gaps">${t('record.seeGaps', { gaps: research.gapSummary })}</a>`
  }</p>${research.limitations && html`<p class="status-limitations"><strong>${t('record.limitations')}:</strong> ${research.limitations}</p>`}<dl class="record-facts">${[
    fact(t('record.scopeNote'), research.scopeNote),
    fact(t('record.productInput'), research.productInput),
    fact(t('record.researchPeriod'), research.period),
    fact(t('record.factReview'), research.factReview),
    fact(t('record.identity'), t(research.identityResolved ? 'record.identityResolved' : 'record.identityUnresolved')),
    fact(t('record.defaults'), research.defaults),
    fact(t('record.revision'), view.revision),
    research.recordId && fact(t('record.id'), html`<code>${research.recordId}</code>`),
    fact(t('record.published'), published.iso ? html`<time datetime="${published.iso}">${published.text}</time>` : published.text),
  ]}</dl></section>`;
}

/** Visible download links for the record's JSON and Markdown twins. */
function twinDownloadsHtml({ slug, projection }: PageView): SafeHtml {
  const twins = [
    { href: jsonPath(slug, projection), file: `${slug}.${projection}.json`, label: t('record.downloadJson'), type: 'application/json' },
    { href: markdownPath(slug, projection), file: `${slug}.${projection}.md`, label: t('record.downloadMarkdown'), type: 'text/markdown' },
  ];
  return html`<ul class="twin-downloads" aria-label="${t('record.downloads')}">${twins.map(
    (twin) => html`<li><a href="${twin.href}" download="${twin.file}" type="${twin.type}">${twin.label}</a></li>`,
  )}</ul>`;
}
