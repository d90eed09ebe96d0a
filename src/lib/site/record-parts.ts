import type { MeasurementGrid } from './data-view.ts';
import { claimEntryHtml, claimLinksHtml, fieldRowsHtml, itemCardsHtml, itemRowsHtml, targetHtml } from './fragments.ts';
import { classList, html, trustedHtml, type HtmlValue, type SafeHtml } from './html.ts';
import type { CatalogView, ClaimView, CollectionView, ConflictView, DecisionView, FieldView, ImageView, PageView, SourceView, TextBlockView } from './page-view.ts';
import { t, tCount } from './strings.ts';

/**
 * The parts of a record page below its header, as markup: every piece of record text is
 * escaped by `html` or by the fragment builders, and only the text renderer's output is
 * inserted as it is.
 */

/** A titled part of the page with its own anchor, in pieces: its start, its content's (see markupPieces), its end. */
export function pagePartHtml(anchor: string, heading: string, content: HtmlValue, className?: string): HtmlValue[] {
  return [
    html`<section id="${anchor}" class="${classList('page-part', className)}" aria-labelledby="${anchor}-heading"><h2 id="${anchor}-heading">${heading}</h2>`,
    content,
    html`</section>`,
  ];
}

/** A text block as a paragraph: its kind named in a visible label, its sanitised text, its claim markers. */
export function textBlockHtml(block: TextBlockView, className?: string): SafeHtml {
  return html`<p id="${block.anchor}" class="${classList('text-block', `text-block--${block.kind}`, className)}"><span class="text-kind">${block.kindLabel}<span class="visually-hidden">:</span></span> <span class="text-body" dir="auto">${trustedHtml(
    block.html,
  )}</span>${trustedHtml(claimLinksHtml(block.citations, 'marker'))}</p>`;
}

/** Labelled values as a description list; nothing when there are none. */
function fieldListHtml(fields: FieldView[], className?: string): SafeHtml | null {
  return fields.length > 0 ? html`<dl class="${classList('fields', className)}">${trustedHtml(fieldRowsHtml(fields))}</dl>` : null;
}

/** What the garment suits, its trade-offs and the summary's limitations. */
export function selectionSummaryHtml(summary: PageView['selectionSummary']): HtmlValue[] {
  const column = (heading: string, blocks: TextBlockView[]) => blocks.length > 0 && html`<div><h3>${heading}</h3>${blocks.map((block) => textBlockHtml(block))}</div>`;
  return pagePartHtml(
    'selection-summary',
    t('part.selectionSummary'),
    html`<div class="summary-columns">${column(t('part.suitableFor'), summary.suitableFor)}${column(t('part.tradeoffs'), summary.tradeoffs)}</div><h3>${t(
      'part.limitations',
    )}</h3><p>${summary.limitations}</p>`,
  );
}

/** Questions and answers; answers are text blocks with their claim links. */
export function faqHtml(faq: PageView['faq']): HtmlValue[] {
  return pagePartHtml('faq', t('part.faq'), faq.map((entry) => html`<div class="faq-entry" id="${entry.anchor}"><h3>${entry.question}</h3>${textBlockHtml(entry.answer)}</div>`));
}

/** The record's images, lazy-loaded; an address that is not http(s) is never used as a source. */
export function imagesHtml(images: ImageView[]): HtmlValue[] {
  const image = (view: ImageView) =>
    html`<li><figure>${
      view.src
        ? html`<img src="${view.src}" alt="${view.alt}" loading="lazy" decoding="async" width="400" height="400">`
        : html`<div class="image-placeholder" role="img" aria-label="${view.alt}"><span aria-hidden="true">${t('image.unavailable')}</span></div>`
    }<figcaption>${[view.kind, view.view, view.color].filter(Boolean).join(' · ')}</figcaption></figure></li>`;
  return pagePartHtml('images', t('part.images'), html`<ul class="gallery">${images.map(image)}</ul>`);
}

/** The catalog entry: identifiers, measurement tables (real tables) and care instructions. */
export function catalogHtml(catalog: CatalogView): HtmlValue[] {
  const table = (view: CatalogView['tables'][number]) =>
    html`<div class="table-scroll" tabindex="0" role="region" aria-label="${view.caption}"><table><caption>${view.caption}</caption><thead><tr><th scope="col">${t(
      'catalog.rowLabel',
    )}</th>${view.sizes.map((size) => html`<th scope="col">${size}</th>`)}</tr></thead><tbody>${view.rows.map(
      (row) => html`<tr><th scope="row">${row.label}</th>${row.cells.map((cell) => html`<td>${cell}</td>`)}</tr>`,
    )}</tbody></table></div>`;
  const care = catalog.care.length > 0 && html`<h3>${t('part.careInstructions')}</h3><ul class="care">${catalog.care.map(
    (entry) => html`<li>${entry.icon && html`<img src="${entry.icon}" alt="" width="24" height="24" loading="lazy">`}<strong>${entry.label}:</strong> ${entry.instruction}</li>`,
  )}</ul>`;
  return pagePartHtml(
    'catalog',
    t('part.catalog'),
    html`${fieldListHtml(catalog.facts)}${catalog.tables.length > 0 && html`<h3>${t('part.measurementTables')}</h3>`}${catalog.tables.map(table)}${care}`,
  );
}

/** Research gaps by priority, each with what is missing, why it matters and the next action. */
export function gapsHtml(groups: PageView['gapGroups']): HtmlValue[] {
  return pagePartHtml(
    'research-gaps',
    t('part.gaps'),
    groups.map(
      (group) => html`<section class="${classList('gap-group', `gap-group--${group.priority}`)}" aria-labelledby="gaps-${group.priority}"><h3 id="gaps-${group.priority}">${group.label} <span class="count">(${tCount(
        'gap.count',
        group.gaps.length,
      )})</span></h3><ul class="entries">${group.gaps.map(
        (gap) => html`<li id="${gap.anchor}" class="entry"><p class="entry-title">${trustedHtml(targetHtml(gap.target))}: ${gap.reason}</p><dl class="fields"><div><dt>${t('gap.impact')}</dt><dd>${
          gap.impact
        }</dd></div><div class="next-action"><dt>${t('gap.nextAction')}</dt><dd>${gap.nextAction}</dd></div><div><dt>${t('gap.owner')}</dt><dd>${gap.owner}</dd></div></dl></li>`,
      )}</ul></section>`,
    ),
  );
}

/**
 * The record's data for this projection: identity, then each non-empty collection as a table or
 * cards; every item carries its anchor (`<collection>-<id>`) and links to the claims about it.
 */
export function dataCollectionsHtml(view: PageView): HtmlValue[] {
  const identity = view.identity.length > 0 && html`<section id="data-identity" aria-labelledby="data-identity-heading" class="collection"><h3 id="data-identity-heading">${t(
    'collection.identity',
  )}</h3>${fieldListHtml(view.identity)}</section>`;
  const seed = view.seed.length > 0 && html`<section id="data-seed" aria-labelledby="data-seed-heading" class="collection"><h3 id="data-seed-heading">${t(
    'record.seed',
  )}</h3>${fieldListHtml(view.seed)}</section>`;
  const details = (summary: string, content: HtmlValue): HtmlValue[] => [html`<details class="collection-details"><summary>${summary}</summary>`, content, html`</details>`];
  const collection = (view: CollectionView): HtmlValue[] => {
    const { items, foldAt } = view;
    const shown = view.grids
      ? [view.grids.map(sizeChartHtml), details(t('data.allDetails', { count: items.length }), collectionHtml(view, items, false))]
      : [
          foldAt > 0 && collectionHtml(view, items.slice(0, foldAt), true),
          foldAt < items.length &&
            details(t(foldAt > 0 ? 'data.showMore' : 'data.showAll', { count: items.length, more: items.length - foldAt }), collectionHtml(view, items.slice(foldAt), true)),
        ];
    return [
      html`<section id="${view.anchor}" aria-labelledby="${view.anchor}-heading" class="collection"><h3 id="${view.anchor}-heading">${view.heading} <span class="count">(${tCount(
        'data.items',
        items.length,
      )})</span></h3>`,
      shown,
      html`</section>`,
    ];
  };
  const empty = view.emptyCollections.length > 0 && html`<p class="empty-collections"><strong>${t('data.none')}</strong> ${view.emptyCollections.join(', ')}.</p>`;
  return pagePartHtml('data', t('part.data'), [identity, seed, view.collections.map(collection), empty]);
}

/**
 * One data collection's items: a table when items have few fields, else a card per item, in
 * pieces of ITEMS_PER_PIECE items (see markupPieces). `anchored` false leaves out the items'
 * anchors (they are on a size chart's cells).
 */
function collectionHtml(collection: CollectionView, items: CollectionView['items'], anchored: boolean): HtmlValue[] {
  if (collection.layout !== 'table') return [html`<div class="cards">`, inPieces(items, (some) => itemCardsHtml(collection, some, anchored)), html`</div>`];
  const withClaims = collection.items.some((item) => item.claims.length > 0);
  return [
    html`<div class="table-scroll" tabindex="0" role="region" aria-label="${t('data.table', { heading: collection.heading })}"><table class="data-table"><caption class="visually-hidden">${
      collection.heading
    }</caption><thead><tr><th scope="col">${t('field.id')}</th>${collection.columns.map((column) => html`<th scope="col">${column.label}</th>`)}${
      withClaims && html`<th scope="col">${t('part.claims')}</th>`
    }</tr></thead><tbody>`,
    inPieces(items, (some) => itemRowsHtml(collection, some, anchored)),
    html`</tbody></table></div>`,
  ];
}

const ITEMS_PER_PIECE = 20;

/** Items' markup in pieces, one per ITEMS_PER_PIECE items: a collection of hundreds never becomes one long string. */
function inPieces<Item>(items: Item[], markup: (some: Item[]) => string): SafeHtml[] {
  const pieces: SafeHtml[] = [];
  for (let start = 0; start < items.length; start += ITEMS_PER_PIECE) pieces.push(trustedHtml(markup(items.slice(start, start + ITEMS_PER_PIECE))));
  return pieces;
}

/** Measurements as a size chart: a row per measurement, a column per size; each cell is its item's anchor. */
function sizeChartHtml(grid: MeasurementGrid): SafeHtml {
  const caption = t('data.sizeChart', { caption: grid.caption });
  const notStated = html`<td><span aria-hidden="true" class="not-stated">–</span><span class="visually-hidden">${t('value.notStated')}</span></td>`;
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label="${caption}"><table class="size-chart"><caption>${caption}</caption><thead><tr><th scope="col">${t(
    'data.measurement',
  )}</th>${grid.sizes.map((size) => html`<th scope="col">${size}</th>`)}</tr></thead><tbody>${grid.rows.map(
    (row) => html`<tr><th scope="row">${row.label}</th>${row.cells.map((cell) =>
      cell
        ? html`<td${cell.anchor ? html` id="${cell.anchor}"` : ''}>${cell.text}${trustedHtml(claimLinksHtml(cell.claims, 'marker'))}</td>`
        : notStated,
    )}</tr>`,
  )}</tbody></table></div>`;
}

/** Conflicts between claims: what they disagree about, how it was resolved and which claim was selected. */
export function conflictsHtml(conflicts: ConflictView[]): HtmlValue[] {
  const conflict = (view: ConflictView) =>
    html`<li id="${view.anchor}" class="${classList('entry', !view.resolved && 'entry--open')}"><p class="entry-title">${trustedHtml(targetHtml(view.target))} <span class="${classList(
      'badge',
      view.resolved ? 'badge--ok' : 'badge--warn',
    )}">${view.resolution}</span></p><dl class="fields">${view.claims.length > 0 && html`<div><dt>${t('conflict.claims')}</dt><dd>${trustedHtml(claimLinksHtml(view.claims, 'inline'))}</dd></div>`}<div><dt>${t(
      'conflict.selected',
    )}</dt>${view.selected ? html`<dd>${trustedHtml(claimLinksHtml([view.selected], 'inline'))}</dd>` : html`<dd>${t('conflict.noSelection')}</dd>`}</div><div><dt>${t('conflict.reason')}</dt><dd>${
      view.reason
    }</dd></div>${view.followUp && html`<div><dt>${t('conflict.followUp')}</dt><dd>${view.followUp}</dd></div>`}</dl></li>`;
  return pagePartHtml('conflicts', t('part.conflicts'), html`<ul class="entries">${conflicts.map(conflict)}</ul>`);
}

/** Decisions: the scenario, its interpretation and the assumptions and unknowns behind it. */
export function decisionsHtml(decisions: DecisionView[]): HtmlValue[] {
  // `~heading`: no anchor token ends so (it writes `~` only in escapes of hex digits), where `-heading` may be another decision's.
  const decision = (view: DecisionView) =>
    html`<article id="${view.anchor}" class="entry" aria-labelledby="${view.anchor}~heading"><h3 id="${view.anchor}~heading">${view.scenario}</h3><p>${view.interpretation}</p><dl class="fields">${view.lists.map(
      (list) => html`<div><dt>${list.label}</dt><dd><ul class="plain-list">${list.items.map((item) => html`<li>${item}</li>`)}</ul></dd></div>`,
    )}${view.claims.length > 0 && html`<div><dt>${t('decision.claims')}</dt><dd>${trustedHtml(claimLinksHtml(view.claims, 'inline'))}</dd></div>`}</dl></article>`;
  return pagePartHtml('decisions', t('part.decisions'), decisions.map(decision));
}

/** Claim entries, numbered in order of first citation (each built by claimEntryHtml: a page has dozens). */
export function claimsHtml(claims: ClaimView[]): HtmlValue[] {
  return pagePartHtml('claims', t('part.claims'), [html`<ol class="claims">`, claims.map((claim) => trustedHtml(claimEntryHtml(claim))), html`</ol>`]);
}

/** Every source: title, address (linked only when http(s)), publisher, type, access and dates, and the claims resting on it. */
export function sourcesHtml(sources: SourceView[]): HtmlValue[] {
  const source = (view: SourceView) =>
    html`<li id="${view.anchor}" class="source"><p class="source-title"><cite>${view.title}</cite>${
      view.url && html` <a href="${view.url}" class="external source-url" rel="noopener noreferrer">${view.url}</a>`
    }${view.unlinkedUrl && html` <span class="unlinked">${t('source.unlinked', { url: view.unlinkedUrl })}</span>`}</p>${fieldListHtml(view.facts, 'fields--inline')}${
      view.citedBy.length > 0 && html`<p class="source-claims">${t('part.claims')}: ${trustedHtml(claimLinksHtml(view.citedBy, 'inline'))}</p>`
    }</li>`;
  return pagePartHtml('sources', t('part.sources'), html`<ol class="sources">${sources.map(source)}</ol>`);
}
