import type { Links } from '../record/types.ts';
import { claimLinksHtml } from './fragments.ts';
import { classList, html, trustedHtml, type Html, type HtmlValue } from './html.ts';
import { datasetJsonLd, scriptSafeJson } from './json-ld.ts';
import { pageDocument } from './page-frame.ts';
import { citationOf } from './citation.ts';
import { compareAddingPath } from './comparison.ts';
import { feedLinksHtml } from '../revisions/feeds.ts';
import { partKind, sectionPartKey, type PagePart, type PartPlace } from './page-parts.ts';
import type { PageView } from './page-view.ts';
import {
  catalogHtml,
  claimsHtml,
  conflictsHtml,
  csvLinker,
  dataCollectionsHtml,
  decisionsHtml,
  faqHtml,
  gapsHtml,
  imagesHtml,
  keyFactsHtml,
  researchFactsHtml,
  sectionHtml,
  selectionSummaryHtml,
  sourcesHtml,
  textBlockHtml,
} from './record-parts.ts';
import { t } from './strings.ts';
import { absoluteUrl, RECORD_SCRIPT_PATH, revisionJsonPath, revisionsPath } from './urls.ts';

/** Which of its revisions a record page shows (src/lib/revisions/), and the day it is built: a citation's access date. */
export interface RevisionShown {
  number: number;
  count: number;
  accessed: string;
}

/** Each part's markup, by its kind (page-parts.ts), from the page's view alone. */
const PART_HTML: Record<string, (view: PageView, part: PagePart) => HtmlValue> = {
  'key-facts': keyFactsHtml,
  section: (view, part) => sectionHtml(view.sections.find((section) => sectionPartKey(section.key) === part.key)!),
  selection_summary: (view) => selectionSummaryHtml(view.selectionSummary),
  faq: (view) => faqHtml(view.faq),
  images: (view) => imagesHtml(view.images),
  catalog: (view) => catalogHtml(view.catalog!, csvLinker(view)),
  gaps: (view) => gapsHtml(view.gapGroups),
  data: dataCollectionsHtml,
  conflicts: (view) => conflictsHtml(view.conflicts),
  decisions: (view) => decisionsHtml(view.decisions),
  claims: (view, part) => claimsHtml(view.claims, foldSummary(part, view.claims.length)),
  sources: (view, part) => sourcesHtml(view.sources, foldSummary(part, view.sources.length)),
};

/** The words on a folded part's summary, or null when the part is not folded. */
function foldSummary(part: PagePart, count: number): string | null {
  return part.folded ? t('data.showAll', { count }) : null;
}

/** A shown part's markup. */
function partHtml(view: PageView, part: PagePart): HtmlValue {
  return PART_HTML[partKind(part)]!(view, part);
}

/**
 * A record's page, the whole HTML document in pieces (see markupPieces): built from its view (not
 * through Astro, whose per-page machinery cost more than the page itself), in the frame Astro's pages share.
 */
export function recordPageHtml(
  view: PageView,
  links: Links,
  site: string,
  stylesheet: string,
  shown: RevisionShown = { number: 1, count: 1, accessed: new Date().toISOString().slice(0, 10) },
): string[] {
  const { meta } = view;
  return pageDocument(
    {
      title: meta.title,
      description: meta.description,
      canonical: absoluteUrl(meta.path, site),
      image: meta.image,
      ogType: 'article',
      stylesheet,
      path: meta.path,
      recordImages: view.leadImage !== null,
    },
    recordBodyHtml(view, site, shown),
    html`${alternatesHtml(view, links)}${feedLinksHtml(view.slug)}<script src="${RECORD_SCRIPT_PATH}" defer></script>`,
  );
}

/** Head links to the record's JSON and Markdown twins, and schema.org JSON-LD describing it. */
function alternatesHtml(view: PageView, links: Links): Html {
  // scriptSafeJson escapes < > & so record text cannot close the script element.
  return html`${links.json && html`<link rel="alternate" type="application/json" href="${links.json}">`}${
    links.markdown && html`<link rel="alternate" type="text/markdown" href="${links.markdown}">`
  }<script type="application/ld+json">${trustedHtml(scriptSafeJson(datasetJsonLd(view.linkedData, links)))}</script>`;
}

/** The body of a record page: the header with the key facts, then the reading parts, then the evidence, as the parts model orders them. */
function recordBodyHtml(view: PageView, site: string, shown: RevisionShown): HtmlValue[] {
  const parts = view.parts.filter((part) => part.shown);
  const contents = html`<nav class="contents" id="contents" aria-labelledby="contents-heading"><h2 id="contents-heading" class="contents-heading">${t('nav.contents')}</h2><ol>${parts.map(
    (part) => html`<li><a href="#${part.anchor}">${part.label}</a></li>`,
  )}</ol></nav>`;
  const inPlace = (place: PartPlace) => parts.filter((part) => part.place === place).map((part) => partHtml(view, part));
  return [
    // The words the page's script shows (public/scripts/record-page.js), from strings.ts.
    html`<article class="record" data-projection="${view.projection}" data-preview-label="${t('claim.preview')}" data-full-entry="${t('claim.fullEntry')}" data-back-to-list="${t('claim.backToList')}" data-close="${t(
      'claim.close',
    )}" data-copy="${t('cite.copy')}" data-copied="${t('cite.copied')}" data-scroll-hint="${t('table.scrolls')}">`,
    printHeadHtml(view, site, shown),
    recordHeaderHtml(view, site, inPlace('header'), shown),
    html`<div class="record-layout">${contents}<div class="record-body">`,
    inPlace('reading'),
    html`<div class="evidence"><p class="evidence-intro">${t('part.evidence')}</p>`,
    inPlace('evidence'),
    html`</div></div></div><a href="#contents" class="back-to-contents">${t('nav.backToContents')}</a></article>`,
  ];
}

/**
 * The top of a record page: where it is, what the garment is, its key facts, the twins and how to
 * cite it (the call to action is among the key facts), how finished the research is, then the page's headline and summary.
 */
function recordHeaderHtml(view: PageView, site: string, headerParts: HtmlValue[], shown: RevisionShown): Html {
  const lead = view.leadImage?.src
    ? html`<img class="lead-image garment-image" src="${view.leadImage.src}" alt="${view.leadImage.alt}" width="320" height="320" decoding="async" fetchpriority="high">`
    : null;
  return html`<header class="record-header"><nav aria-label="${t('nav.breadcrumb')}" class="breadcrumb"><ol><li><a href="/">${t('nav.home')}</a></li><li><a href="${view.garmentHref}"><bdi>${
    view.title
  }</bdi></a></li><li><a href="${view.meta.path}" aria-current="page">${view.projectionLabel}</a></li></ol></nav><div class="record-intro"><div class="record-intro-text"><p class="projection-line"><span class="${classList(
    'projection-badge',
    `projection-badge--${view.projection}`,
  )}"><span class="visually-hidden">${t('projection.label')}: </span>${t(`projection.${view.projection}.long`)}</span>${
    view.otherProjection && html`<a href="${view.otherProjection.href}" class="other-projection">${view.otherProjection.label}</a>`
  }</p><h1 id="title"><bdi>${view.title}</bdi>${claimLinksHtml(view.titleCitations, 'marker')}</h1>${headerParts}${citeHtml(view, site, shown)}</div>${lead}</div>${researchStatusHtml(
    view,
  )}${view.headline && textBlockHtml(view.headline, 'lead')}${view.summary && textBlockHtml(view.summary)}${view.description && textBlockHtml(view.description)}</header>`;
}

/**
 * How finished the research is, as one message: the status, what it means, and the gaps to check;
 * folded beneath it, the limitations and the research's scope, start, period and review.
 */
function researchStatusHtml(view: PageView): Html {
  const { research } = view;
  return html`<section class="${classList('research-status', research.finished ? 'research-status--finished' : 'research-status--unfinished')}" aria-labelledby="research-status-heading"><h2 id="research-status-heading" class="research-status-heading"><span class="status-icon" aria-hidden="true">${
    research.finished ? '✓' : '!'
  }</span>${t('record.researchStatus')}: ${research.statusLabel}</h2><p class="status-note">${research.note}${
    research.gapSummary && html` <a href="#research-gaps">${t('record.seeGaps', { gaps: research.gapSummary })}</a>`
  }</p><details class="status-details" id="about-research"><summary>${t(research.limitations ? 'record.aboutResearchLimits' : 'record.aboutResearch')}</summary>${
    research.limitations && html`<p><strong>${t('record.limitations')}:</strong> ${research.limitations}</p>`
  }${researchFactsHtml(view)}</details></section>`;
}

/** The permalink of the revision a page shows: its JSON as published (src/lib/revisions/). */
function revisionPermalink(view: PageView, site: string, shown: RevisionShown): string {
  return absoluteUrl(revisionJsonPath(view.slug, view.projection, shown.number), site);
}

/** What a printed page says first, where the screen has the citation folded: its permalink, revision and publication date. */
function printHeadHtml(view: PageView, site: string, shown: RevisionShown): Html {
  return html`<p class="print-head"><span>${t('print.permalink')}: ${revisionPermalink(view, site, shown)}</span> · <span>${t(
    'print.revision',
    {
      number: shown.number,
      count: shown.count,
      revision: view.revision,
    },
  )}</span> · <span>${t('print.published', { published: view.published.text })}</span></p>`;
}

/**
 * Which revision the page shows, linking its history, and how to cite it: the revision's permalink,
 * record revision, date and access date, as plain text and BibTeX (its twins are in the key facts' heading row).
 */
function citeHtml(view: PageView, site: string, shown: RevisionShown): Html {
  const { slug, projection } = view;
  const citation = citationOf({
    title: view.title,
    projectionLabel: view.projectionLabel,
    slug,
    projection,
    revision: view.revision,
    publishedText: view.published.text,
    publishedIso: view.published.iso,
    url: revisionPermalink(view, site, shown),
    revisionNumber: shown.number,
    accessed: shown.accessed,
    host: new URL(site).host,
  });
  const copyable = (label: string, text: string) =>
    html`<p class="cite-label">${label}</p><pre class="cite-text" tabindex="0"><code>${text}</code></pre>`;
  return html`<div class="record-links"><p class="record-revision">${t('record.revisionShown', {
    number: shown.number,
    count: shown.count,
    revision: view.revision,
  })} · <a href="${revisionsPath(slug, projection)}">${t('record.revisionHistory')}</a></p><p class="compare-link"><a href="${compareAddingPath(slug)}">${t(
    'compare.add',
  )}</a></p><details class="cite"><summary>${t(
    'cite.summary',
  )}</summary><div class="cite-body">${copyable(t('cite.plainText'), citation.text)}${copyable(t('cite.bibtex'), citation.bibtex)}</div></details></div>`;
}
