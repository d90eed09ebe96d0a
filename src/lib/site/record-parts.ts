import { OFFER_COLUMNS, offerCells, type ComparisonViews } from './comparison-view.ts';
import type { ClaimLink, MeasurementGrid } from './data-view.ts';
import {
  claimEntryHtml,
  claimHeadHtml,
  claimLinksHtml,
  claimNumbersHtml,
  fieldRowsHtml,
  itemCardsHtml,
  itemRowsHtml,
  targetHtml,
} from './fragments.ts';
import { classList, html, type Html, type HtmlValue } from './html.ts';
import type { KeyFactLine, KeyFactRow, KeyFactsView } from './key-facts-view.ts';
import type {
  CatalogView,
  ClaimView,
  CollectionView,
  ConflictView,
  DecisionView,
  FieldView,
  ImageView,
  PageView,
  SectionView,
  SourceView,
  TextBlockView,
} from './page-view.ts';
import { t, tCount } from './strings.ts';
import { csvPath, jsonPath, markdownPath } from './urls.ts';
import { catalogTableName, pageTables, sizeChartName } from './table-csv.ts';

/**
 * The parts of a record page below its header, as markup: every piece of record text is
 * escaped by `html` or by the fragment builders, and only the text renderer's output is
 * inserted as it is.
 */

/**
 * A titled part of the page with its own anchor, in pieces: its start, its content's (see markupPieces), its end.
 * With `fold` (its summary's words) the content starts folded under the heading; record-page.js opens it for any link into it.
 */
export function pagePartHtml(
  anchor: string,
  heading: string,
  content: HtmlValue,
  className?: string,
  fold: string | null = null,
): HtmlValue[] {
  return [
    html`<section id="${anchor}" class="${classList('page-part', className)}" aria-labelledby="${anchor}-heading"><h2 id="${anchor}-heading">${heading}</h2>${
      fold && html`<details class="fold"><summary>${fold}</summary>`
    }`,
    content,
    html`${fold && html`</details>`}</section>`,
  ];
}

/** A text block as a paragraph: its kind named in a visible label, its sanitised text, its claim markers. */
export function textBlockHtml(block: TextBlockView, className?: string): Html {
  return html`<p id="${block.anchor}" class="${classList('text-block', `text-block--${block.kind}`, className)}"><span class="text-kind">${block.kindLabel}<span class="visually-hidden">:</span></span> <span class="text-body" dir="auto">${block.html}</span>${claimLinksHtml(block.citations, 'marker')}</p>`;
}

/** A page section: its heading and text blocks. */
export function sectionHtml(section: SectionView): HtmlValue[] {
  return pagePartHtml(
    section.anchor,
    section.heading,
    section.blocks.map((block) => textBlockHtml(block)),
    'page-section',
  );
}

/** The key facts panel of a record page (see keyFactsPanelHtml). */
export function keyFactsHtml(view: PageView): Html {
  // The twins sit in the panel's heading row: in the first screen wherever the panel is.
  const tables = pageTables(view);
  const csvLink = csvLinker(view);
  const csv =
    tables.length > 0 &&
    html`<li><details class="csv-downloads"><summary>${tCount('record.downloadCsv', tables.length)}</summary><ul>${tables.map(
      (table) => html`<li>${csvLink(table.name, table.title)}</li>`,
    )}</ul></details></li>`;
  const twins = html`<ul class="twin-downloads" aria-label="${t('record.downloads')}"><li><a href="${jsonPath(view.slug, view.projection)}">${t(
    'record.downloadJson',
  )}</a></li><li><a href="${markdownPath(view.slug, view.projection)}">${t('record.downloadMarkdown')}</a></li>${csv}</ul>`;
  const claims = new Map(view.claims.map((claim) => [claim.id, claim]));
  return keyFactsPanelHtml(view.keyFacts, 'key-facts', 2, { aside: twins, claimOf: (link) => claims.get(link.id) ?? null });
}

/** What a key facts panel holds beside its rows. */
interface PanelOptions {
  /** Beside the heading: the twins' downloads. */
  aside?: Html | null;
  /** The ids naming the panel's landmark; several panels on one page need names of their own. */
  labelledBy?: string;
  /** A row's claims, for the list its evidence link opens; without it (a page with no claims of its own) rows have no evidence link. */
  claimOf?: (link: ClaimLink) => ClaimView | null;
}

/**
 * A key facts panel: a labelled row per fact, each line with what may put it in doubt said beside it; a colour
 * with its swatch beside its name; a fact the record does not state says so. Each row has one link to its
 * evidence, beside its label, opening the list of the row's claims (see rowClaimsHtml).
 */
export function keyFactsPanelHtml(facts: KeyFactsView, id: string, level: 2 | 3, options: PanelOptions = {}): Html {
  const { aside = null, labelledBy = `${id}-heading`, claimOf } = options;
  const row = (fact: KeyFactRow, at: number) => {
    const claims = claimOf ? fact.claims.map(claimOf).filter((claim) => claim !== null) : [];
    const listId = `${id}-claims-${at + 1}`;
    // On paper the evidence link is no use: its claims' numbers print instead, as the page's other markers do.
    const printed = claims.length > 0 ? claimNumbersHtml(claims, 'fact-evidence-print') : null;
    return html`<div data-fact="${fact.key}"><dt>${fact.label}${evidenceLinkHtml(claims, listId)}${printed}</dt><dd>${
      fact.lines.length === 0
        ? html`<span class="not-stated">${t('value.notStated')}</span>`
        : html`<ul${fact.layout === 'row' ? html` class="row"` : ''}>${fact.lines.map(keyFactLineHtml)}</ul>`
    }${fact.folded && html`<details class="fact-more"><summary>${fact.folded.summary}</summary><ul>${fact.folded.lines.map(keyFactLineHtml)}</ul></details>`}${rowClaimsHtml(
      fact.label,
      claims,
      listId,
    )}</dd></div>`;
  };
  const heading = html`<h${level} id="${id}-heading">${t('keyFacts.heading')}</h${level}>`;
  return html`<section id="${id}" class="key-facts" aria-labelledby="${labelledBy}"><div class="key-facts-top">${heading}${aside}</div><dl>${facts.rows.map(row)}</dl></section>`;
}

/** One line of a key fact: its swatch, its text (a link where it has an address), its detail, its doubt and its link (the size chart). */
function keyFactLineHtml(line: KeyFactLine): Html {
  const text = line.href
    ? line.href.startsWith('#')
      ? html`<a href="${line.href}">${line.text}</a>`
      : html`<a href="${line.href}" class="external next-step" rel="noopener noreferrer">${line.text}</a>`
    : line.text;
  return html`<li>${line.swatch && html`<span class="swatch" style="background-color:${line.swatch}" aria-hidden="true"></span>`}${text}${
    line.detail && html` <small>${line.detail}</small>`
  }${line.doubt && html` <span class="fact-doubt">${line.doubt}</span>`}${
    line.link && html` <a href="${line.link.href}" class="external fact-link" rel="noopener noreferrer">${line.link.text}</a>`
  }</li>`;
}

/**
 * A fact row's one link to its evidence: to the list of the row's claims, which the link shows without JavaScript
 * (it is the link's target); the page's script shows them in place instead, by number (`data-claims`).
 */
function evidenceLinkHtml(claims: ClaimView[], listId: string): Html | null {
  if (claims.length === 0) return null;
  return html` <a href="#${listId}" class="claim-ref fact-evidence" data-claims="${claims.map((c) => c.number).join(' ')}">${tCount(
    'keyFacts.evidence',
    claims.length,
  )}</a>`;
}

/** The claims behind a fact row, a line each linking to its entry: shown only as the target of the row's evidence link. */
function rowClaimsHtml(label: string, claims: ClaimView[], listId: string): Html | null {
  if (claims.length === 0) return null;
  return html`<div class="fact-claims" id="${listId}" role="group" aria-labelledby="${listId}-heading"><p id="${listId}-heading" class="fact-claims-heading">${t(
    'keyFacts.evidenceFor',
    { fact: label },
  )}</p><ol>${claims.map((claim) => html`<li>${claimHeadHtml(claim)}</li>`)}</ol></div>`;
}

/** About the research behind the page: its scope, what it started from, when, and how it was reviewed (its revision and date are in the citation). */
export function researchFactsHtml(view: PageView): Html {
  const { research } = view;
  const fact = (label: string, value: string | Html) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`;
  return html`<dl class="fields">${[
    fact(t('record.scopeNote'), research.scopeNote),
    fact(t('record.productInput'), research.productInput),
    fact(t('record.researchPeriod'), research.period),
    fact(t('record.factReview'), research.factReview),
    fact(t('record.identity'), t(research.identityResolved ? 'record.identityResolved' : 'record.identityUnresolved')),
    fact(t('record.defaults'), research.defaults),
    research.recordId && fact(t('record.id'), html`<code>${research.recordId}</code>`),
  ]}</dl>`;
}

/**
 * A table that scrolls sideways on a narrow screen, its first column and its title staying in view
 * (the title sits above the scrolling box). `label` is the title's text, or the id of a heading
 * already naming the table; the scrolling region, which holds the table, carries the name. `csv`
 * is the link to the table's CSV, shown beneath it.
 */
export function scrollingTable(
  label: { title: string; id: string } | { headingId: string },
  className: string,
  head: HtmlValue,
  body: HtmlValue,
  csv: Html | null,
): HtmlValue[] {
  const id = 'headingId' in label ? label.headingId : label.id;
  return [
    html`${'title' in label && html`<p class="table-title" id="${id}">${label.title}</p>`}<div class="table-scroll" tabindex="0" role="region" aria-labelledby="${id}"><table class="${className}"><thead>`,
    head,
    html`</thead><tbody>`,
    body,
    html`</tbody></table></div>${csv && html`<p class="table-csv">${csv}</p>`}`,
  ];
}

/** Links to a page's tables' CSV files (table-csv.ts), by table name and title. */
export type CsvLink = (name: string, title: string) => Html;

/** The link to a table's CSV, named after the table: beside the table, and in the list of the page's downloads. */
export function csvLinker(view: Pick<PageView, 'slug' | 'projection'>): CsvLink {
  return (name, title) => html`<a href="${csvPath(view.slug, view.projection, name)}" type="text/csv">${t('table.csv', { title })}</a>`;
}

/** Labelled values as a description list; nothing when there are none. */
function fieldListHtml(fields: FieldView[], className?: string): Html | null {
  return fields.length > 0 ? html`<dl class="${classList('fields', className)}">${fieldRowsHtml(fields)}</dl>` : null;
}

/** What the garment suits, its trade-offs and the summary's limitations. */
export function selectionSummaryHtml(summary: PageView['selectionSummary']): HtmlValue[] {
  const column = (heading: string, blocks: TextBlockView[]) =>
    blocks.length > 0 && html`<div><h3>${heading}</h3>${blocks.map((block) => textBlockHtml(block))}</div>`;
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
  return pagePartHtml(
    'faq',
    t('part.faq'),
    faq.map((entry) => html`<div class="faq-entry" id="${entry.anchor}"><h3>${entry.question}</h3>${textBlockHtml(entry.answer)}</div>`),
  );
}

/** The record's images, lazy-loaded; an address that is not http(s) is never used as a source. */
export function imagesHtml(images: ImageView[]): HtmlValue[] {
  const image = (view: ImageView) =>
    html`<li><figure>${
      view.src
        ? html`<img class="garment-image" src="${view.src}" alt="${view.alt}" loading="lazy" decoding="async" width="400" height="400">`
        : html`<div class="image-placeholder" role="img" aria-label="${view.alt}"><span aria-hidden="true">${t('image.unavailable')}</span></div>`
    }<figcaption>${[view.kind, view.view, view.color].filter(Boolean).join(' · ')}</figcaption></figure></li>`;
  return pagePartHtml('images', t('part.images'), html`<ul class="gallery">${images.map(image)}</ul>`);
}

/** The catalog entry: identifiers, measurement tables (real tables) and care instructions. */
export function catalogHtml(catalog: CatalogView, csvLink: CsvLink): HtmlValue[] {
  const table = (view: CatalogView['tables'][number], i: number) =>
    scrollingTable(
      { title: view.caption, id: catalogTableName(i + 1) },
      'catalog-table',
      html`<tr><th scope="col">${t('catalog.rowLabel')}</th>${view.sizes.map((size) => html`<th scope="col">${size}</th>`)}</tr>`,
      view.rows.map((row) => html`<tr><th scope="row">${row.label}</th>${row.cells.map((cell) => html`<td>${cell}</td>`)}</tr>`),
      csvLink(catalogTableName(i + 1), view.caption),
    );
  const care =
    catalog.care.length > 0 &&
    html`<h3>${t('part.careInstructions')}</h3><ul class="care">${catalog.care.map(
      (entry) =>
        html`<li>${entry.icon && html`<img src="${entry.icon}" alt="" width="24" height="24" loading="lazy">`}<strong>${entry.label}:</strong> ${entry.instruction}</li>`,
    )}</ul>`;
  return pagePartHtml(
    'catalog',
    t('part.catalog'),
    html`${fieldListHtml(catalog.facts)}${catalog.tables.length > 0 && html`<h3>${t('part.measurementTables')}</h3>`}${catalog.tables.map((view, i) => table(view, i))}${care}`,
  );
}

/** Research gaps by priority, each with what is missing, why it matters and the next action. */
export function gapsHtml(groups: PageView['gapGroups']): HtmlValue[] {
  return pagePartHtml(
    'research-gaps',
    t('part.gaps'),
    groups.map(
      (group) =>
        html`<section class="${classList('gap-group', `gap-group--${group.priority}`)}" aria-labelledby="gaps-${group.priority}"><h3 id="gaps-${group.priority}">${group.label} <span class="count">(${tCount(
          'gap.count',
          group.gaps.length,
        )})</span></h3><ul class="entries">${group.gaps.map(
          (gap) =>
            html`<li id="${gap.anchor}" class="entry"><p class="entry-title">${targetHtml({ ...gap.target, label: gap.subject })}: ${gap.reason}</p><dl class="fields"><div><dt>${t('gap.impact')}</dt><dd>${
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
  const identity =
    view.identity.length > 0 &&
    html`<section id="data-identity" class="collection"><h3 id="data-identity-heading">${t(
      'collection.identity',
    )}</h3>${fieldListHtml(view.identity)}</section>`;
  const seed =
    view.seed.length > 0 &&
    html`<section id="data-seed" class="collection"><h3 id="data-seed-heading">${t(
      'record.seed',
    )}</h3>${fieldListHtml(view.seed)}</section>`;
  const details = (summary: string, content: HtmlValue): HtmlValue[] => [
    html`<details class="collection-details"><summary>${summary}</summary>`,
    content,
    html`</details>`,
  ];
  const { comparisons } = view;
  const csvLink = csvLinker(view);
  const collection = (view: CollectionView): HtmlValue[] => {
    const { items } = view;
    const csv = csvLink(view.name, view.heading);
    // Offers and variants are compared, so they are never folded: a table of offers, a grid of variants.
    const comparison =
      view.name === 'offers' && comparisons.offers
        ? offersTableHtml(comparisons.offers, csv)
        : view.name === 'variants' && comparisons.variants
          ? variantGridHtml(comparisons.variants, csv)
          : null;
    const shown = comparison
      ? [comparison]
      : view.grids
        ? [
            view.grids.map((grid, i) => sizeChartHtml(grid, i, csvLink)),
            details(t('data.allDetails', { count: items.length }), collectionHtml(view, items, false, csv)),
          ]
        : view.folded
          ? details(t('data.showAll', { count: items.length }), collectionHtml(view, items, true, csv))
          : [collectionHtml(view, items, true, csv)];
    return [
      html`<section id="${view.anchor}" class="collection"><h3 id="${view.anchor}-heading">${view.heading} <span class="count">(${tCount(
        'data.items',
        items.length,
      )})</span></h3>`,
      shown,
      html`</section>`,
    ];
  };
  const empty =
    view.emptyCollections.length > 0 &&
    html`<p class="empty-collections"><strong>${t('data.none')}</strong> ${view.emptyCollections.join(', ')}.</p>`;
  return pagePartHtml('data', t('part.data'), [identity, seed, view.collections.map(collection), empty]);
}

/**
 * One data collection's items: a table when items have few fields, else a card per item, in
 * pieces of ITEMS_PER_PIECE items (see markupPieces). `anchored` false leaves out the items'
 * anchors (they are on a size chart's cells).
 */
function collectionHtml(collection: CollectionView, items: CollectionView['items'], anchored: boolean, csv: Html): HtmlValue[] {
  if (collection.layout !== 'table')
    return [html`<div class="cards">`, inPieces(items, (some) => itemCardsHtml(collection, some, anchored)), html`</div>`];
  const withClaims = collection.items.some((item) => item.claims.length > 0);
  return scrollingTable(
    { headingId: `${collection.anchor}-heading` },
    'data-table',
    html`<tr><th scope="col">${t('data.item')}</th>${collection.columns.map((column) => html`<th scope="col">${column.label}</th>`)}${withClaims && html`<th scope="col">${t('part.claims')}</th>`}</tr>`,
    inPieces(items, (some) => itemRowsHtml(collection, some, anchored)),
    csv,
  );
}

const ITEMS_PER_PIECE = 20;

/** Items' markup in pieces, one per ITEMS_PER_PIECE items: a collection of hundreds never becomes one long string. */
function inPieces<Item>(items: Item[], markup: (some: Item[]) => Html): Html[] {
  const pieces: Html[] = [];
  for (let start = 0; start < items.length; start += ITEMS_PER_PIECE) pieces.push(markup(items.slice(start, start + ITEMS_PER_PIECE)));
  return pieces;
}

/** Measurements as a size chart: a row per measurement, a column per size; each cell is its item's anchor. */
function sizeChartHtml(grid: MeasurementGrid, index: number, csvLink: CsvLink): HtmlValue[] {
  const caption = t('data.sizeChart', { caption: grid.caption });
  const notStated = html`<td class="not-stated">–</td>`;
  return scrollingTable(
    { title: caption, id: sizeChartName(index + 1) },
    'size-chart',
    html`<tr><th scope="col">${t('data.measurement')}</th>${grid.sizes.map((size) => html`<th scope="col">${size}</th>`)}</tr>`,
    grid.rows.map(
      (row) =>
        html`<tr><th scope="row">${row.label}</th>${row.cells.map((cell) =>
          cell
            ? html`<td${cell.anchor ? html` id="${cell.anchor}"` : ''}>${cell.text}${claimLinksHtml(cell.claims, 'marker')}</td>`
            : notStated,
        )}</tr>`,
    ),
    csvLink(sizeChartName(index + 1), caption),
  );
}

/** Offers as one table to compare providers: a row per offer, anchored as the offer. */
function offersTableHtml(rows: NonNullable<ComparisonViews['offers']>, csv: Html): HtmlValue[] {
  return scrollingTable(
    { headingId: 'data-offers-heading' },
    'offers-table',
    html`<tr>${OFFER_COLUMNS.map((key) => html`<th scope="col">${t(key)}</th>`)}<th scope="col">${t('part.claims')}</th></tr>`,
    inPieces(
      rows,
      (some) =>
        html`${some.map((row) => {
          const [provider, ...cells] = offerCells(row);
          return html`<tr${row.anchor ? html` id="${row.anchor}"` : ''}><th scope="row">${provider}</th>${cells.map(
            (cell, i) => html`<td${i === PRICE_CELL ? html` class="price"` : ''}>${cell}</td>`,
          )}<td>${claimLinksHtml(row.claims, 'inline')}</td></tr>`;
        })}`,
    ),
    csv,
  );
}

/** The price's place among an offer's cells after the provider. */
const PRICE_CELL = OFFER_COLUMNS.indexOf('offers.price') - 1;

/** Variants as a colour × size grid, each cell the variant's stock at the providers, anchored as the variant. */
function variantGridHtml(grid: NonNullable<ComparisonViews['variants']>, csv: Html): HtmlValue[] {
  return scrollingTable(
    { headingId: 'data-variants-heading' },
    'variant-grid',
    html`<tr><th scope="col">${t('variants.color')}</th>${grid.sizes.map((size) => html`<th scope="col">${size}</th>`)}</tr>`,
    grid.rows.map(
      (row) =>
        html`<tr><th scope="row">${row.swatch && html`<span class="swatch" style="background-color:${row.swatch}" aria-hidden="true"></span>`}${row.color}</th>${row.cells.map(
          (cell) =>
            cell
              ? html`<td${cell.anchor ? html` id="${cell.anchor}"` : ''} class="${`stock stock--${cell.state}`}">${cell.stock}${claimLinksHtml(cell.claims, 'marker')}</td>`
              : html`<td class="not-stated">${t('variants.none')}</td>`,
        )}</tr>`,
    ),
    csv,
  );
}

/** Conflicts between claims: what they disagree about, how it was resolved and which claim was selected. */
export function conflictsHtml(conflicts: ConflictView[]): HtmlValue[] {
  const conflict = (view: ConflictView) =>
    html`<li id="${view.anchor}" class="${classList('entry', !view.resolved && 'entry--open')}"><p class="entry-title">${targetHtml({ ...view.target, label: view.subject })} <span class="${classList(
      'badge',
      view.resolved ? 'badge--ok' : 'badge--warn',
    )}">${view.resolution}</span></p>${
      view.values.length > 0 &&
      html`<p class="conflict-values">${view.values.map(
        (value, i) =>
          html`${i > 0 && ` ${t('conflict.versus')} `}<span class="conflict-value">${value.value}${claimLinksHtml([value.claim], 'marker')}</span>`,
      )}</p>`
    }<dl class="fields"><div><dt>${t('conflict.selected')}</dt>${
      view.selected ? html`<dd>${claimLinksHtml([view.selected], 'inline')}</dd>` : html`<dd>${t('conflict.noSelection')}</dd>`
    }</div><div><dt>${t('conflict.reason')}</dt><dd>${view.reason}</dd></div>${view.followUp && html`<div><dt>${t('conflict.followUp')}</dt><dd>${view.followUp}</dd></div>`}</dl></li>`;
  return pagePartHtml('conflicts', t('part.conflicts'), html`<ul class="entries">${conflicts.map(conflict)}</ul>`);
}

/** Decisions: the scenario, its interpretation and the assumptions and unknowns behind it. */
export function decisionsHtml(decisions: DecisionView[]): HtmlValue[] {
  // `~heading`: no anchor token ends so (it writes `~` only in escapes of hex digits), where `-heading` may be another decision's.
  const decision = (view: DecisionView) =>
    html`<article id="${view.anchor}" class="entry" aria-labelledby="${view.anchor}~heading"><h3 id="${view.anchor}~heading">${view.scenario}</h3><p>${view.interpretation}</p><dl class="fields">${view.lists.map(
      (list) =>
        html`<div><dt>${list.label}</dt><dd><ul class="plain-list">${list.items.map((item) => html`<li>${item}</li>`)}</ul></dd></div>`,
    )}${view.claims.length > 0 && html`<div><dt>${t('decision.claims')}</dt><dd>${claimLinksHtml(view.claims, 'inline')}</dd></div>`}</dl></article>`;
  return pagePartHtml('decisions', t('part.decisions'), decisions.map(decision));
}

/** Claim entries, numbered in order of first citation (each built by claimEntryHtml: a page has dozens); folded under `fold` when given. */
export function claimsHtml(claims: ClaimView[], fold: string | null = null): HtmlValue[] {
  return pagePartHtml('claims', t('part.claims'), [html`<ol class="claims">`, claims.map(claimEntryHtml), html`</ol>`], undefined, fold);
}

/** Every source: title, address (linked only when http(s)), publisher, type, access and dates, and the claims resting on it; folded under `fold` when given. */
export function sourcesHtml(sources: SourceView[], fold: string | null = null): HtmlValue[] {
  const source = (view: SourceView) =>
    html`<li id="${view.anchor}" class="source"><p class="source-title"><cite>${view.title}</cite>${
      view.url && html` <a href="${view.url}" class="external source-url" rel="noopener noreferrer">${view.url}</a>`
    }${view.unlinkedUrl && html` <span class="unlinked">${t('source.unlinked', { url: view.unlinkedUrl })}</span>`}</p>${fieldListHtml(view.facts, 'fields--inline')}${
      view.citedBy.length > 0 && html`<p class="source-claims">${t('part.claims')}: ${claimLinksHtml(view.citedBy, 'inline')}</p>`
    }</li>`;
  return pagePartHtml('sources', t('part.sources'), html`<ol class="sources">${sources.map(source)}</ol>`, undefined, fold);
}
