import { readingOrder, type ReadingBlock } from '../record/reading-order.ts';
import type { Claim, GarmentRecord, TextBlock } from '../record/types.ts';
import {
  claimAnchor,
  collectionAnchor,
  conflictAnchor,
  decisionAnchor,
  distinctAnchors,
  gapAnchor,
  itemAnchor,
  sectionAnchor,
  sourceAnchor,
  textBlockAnchor,
} from './anchors.ts';
import {
  COLLECTION_ORDER,
  collectionViews,
  emptyCollections,
  identityFields,
  urlPart,
  type ClaimLink,
  type CollectionView,
  type FieldView,
} from './data-view.ts';
import { type ItemIds, itemIdsOf } from './item-ids.ts';
import { enumLabel, fieldLabel, formatDate, researchStatusLabel, researchStatusNote } from './format.ts';
import { isoDate } from '../record/timestamp.ts';
import { lookup, projectionLabel, sectionHeading, t, tCount } from './strings.ts';
import { firstPresent, plainText, renderInline } from './text.ts';
import { type WebLink, webLink, webUrl } from './web-address.ts';
import { trustedHtml, type Html } from './html.ts';
import { imageAlt } from './image-alt.ts';
import { recordTitle } from './record-title.ts';
import { targetPath } from './claim-targets.ts';
import { claimValueText } from './claim-value.ts';
import { comparisonViews, type ComparisonViews } from './comparison-view.ts';
import { itemNamer, NAMED_IN_WORDS, subjectNamer, type ItemNamer, type SubjectNamer } from './item-names.ts';
import { datasetFacts, type DatasetFacts } from './json-ld.ts';
import { keyFacts, type KeyFacts } from './key-facts.ts';
import { keyFactsView, type KeyFactsView } from './key-facts-view.ts';
import { pageParts, partAnchorFor, type PagePart } from './page-parts.ts';
import { garmentPath, otherProjection, pagePath } from './urls.ts';

export type { ClaimLink, CollectionView, FieldView, Part } from './data-view.ts';

/** A text block ready to show: safe HTML, its kind, and numbered links to its claims. */
export interface TextBlockView {
  /** Fragment id `text-<n>`, the target of claim backlinks. */
  anchor: string;
  kind: TextBlock['kind'];
  /** The visible (and spoken) name of the kind: Fact, Interpretation, Navigation. */
  kindLabel: string;
  /** Output of the sanitising renderer: the only record markup a page injects. */
  html: Html;
  /** The text as the record writes it (inline Markdown), for the twin. */
  markdown: string;
  /** The claims as the block names them, for the twin's footnotes. */
  claimIds: readonly string[];
  /** The claims the page cites here, each once (with a repeated description's, on the block it repeats). */
  citations: ClaimLink[];
  /** Where the block sits, for backlinks: "Overview", "Overview, paragraph 2". */
  place: string;
}

/** A section of the page with its blocks. */
export interface SectionView {
  key: string;
  anchor: string;
  heading: string;
  blocks: TextBlockView[];
}

/** A place in the record a claim, conflict or gap is about, linked when the page shows it. */
export interface TargetView {
  /** The target as the record writes it. */
  text: string;
  href: string | null;
  /** What it names, in words (item-names.ts), where the page has worked it out. */
  label?: string;
}

/** A claim's reference to a source. */
export interface ReferenceView {
  sourceHref: string | null;
  sourceTitle: string;
  /** The source's address when it is http(s). */
  url: string | null;
  /** The address's host name, the link's text. */
  host: string | null;
  locator: string;
  excerpt: string | null;
}

/** A claim entry, numbered in order of first citation. */
export interface ClaimView {
  id: string;
  number: number;
  /** Its place among the record's claims, from 0. */
  position: number;
  anchor: string;
  /** What the claim is about, in words, from its targets: `Drawcord`, `Body jersey: weight (g/m²)`. */
  subject: string;
  /** The value with its unit (the claim's `unit`), formatted. */
  value: string;
  scope: string;
  kindLabel: string;
  verification: Claim['verification'];
  verificationLabel: string;
  targets: TargetView[];
  references: ReferenceView[];
  derivedFrom: (ClaimLink | TargetView)[];
  calculation: string | null;
  checkedAt: string | null;
  checkNote: string | null;
  conflicts: { href: string; text: string }[];
  /** One backlink per citing text block, in reading order. */
  citedBy: { href: string; place: string }[];
}

/** A source entry. */
export interface SourceView {
  id: string;
  anchor: string;
  title: string;
  /** Linked only when http(s). */
  url: string | null;
  /** A non-web address, shown as text. */
  unlinkedUrl: string | null;
  facts: FieldView[];
  citedBy: ClaimLink[];
}

/** A conflict between claims and how it was resolved. */
export interface ConflictView {
  id: string;
  anchor: string;
  /** What the claims disagree about, in words. */
  subject: string;
  target: TargetView;
  /** Each claim's value, side by side. */
  values: { claim: ClaimLink; value: string }[];
  resolution: string;
  resolved: boolean;
  claims: ClaimLink[];
  selected: ClaimLink | null;
  reason: string;
  followUp: string | null;
}

/** A decision with its reasoning lists. */
export interface DecisionView {
  id: string;
  anchor: string;
  scenario: string;
  interpretation: string;
  lists: { label: string; items: string[] }[];
  claims: ClaimLink[];
}

/** A research gap. */
export interface GapView {
  id: string;
  anchor: string;
  /** What is missing, in words. */
  subject: string;
  target: TargetView;
  reason: string;
  impact: string;
  nextAction: string;
  owner: string;
}

/** An image, with a usable address or none. */
export interface ImageView {
  /** Null when the record's address is not http(s): the page shows a placeholder instead. */
  src: string | null;
  /** The address as the record writes it. */
  url: string;
  alt: string;
  kind: string;
  view: string;
  color: string | null;
}

/** Everything a record page shows, built once per page. */
export interface PageView {
  slug: string;
  projection: GarmentRecord['projection'];
  projectionLabel: string;
  schemaVersion: string;
  /** The page's parts in reading order, shown or not (page-parts.ts): its body, contents and twin follow them. */
  parts: PagePart[];
  /** Head: plain text. */
  meta: { title: string; description: string; path: string; image: string | null };
  title: string;
  /** The title as the record writes it (inline Markdown) and the claims it names; null when it has none. */
  writtenTitle: { markdown: string; claimIds: readonly string[] } | null;
  titleCitations: ClaimLink[];
  headline: TextBlockView | null;
  summary: TextBlockView | null;
  /** The description block, shown only when it says something the headline and summary do not (else its claims back the one it repeats). */
  description: TextBlockView | null;
  /** The description when it repeats the headline or summary: the page leaves it out, the twin writes it. */
  repeatedDescription: TextBlockView | null;
  /** The page's call to action (`cta_label`), as written: the record gives it no destination to link. */
  callToAction: string | null;
  leadImage: ImageView | null;
  otherProjection: { label: string; href: string } | null;
  garmentHref: string;
  revision: string;
  /** `value` as the record writes it. */
  published: { text: string; iso: string | null; value: string };
  research: {
    status: GarmentRecord['research']['status'];
    statusLabel: string;
    /** What the status means for a reader; every status but `complete` reads as unfinished. */
    note: string;
    finished: boolean;
    limitations: string | null;
    scopeNote: string;
    /** The product as the research was asked for it. */
    productInput: string;
    factReview: string;
    identityResolved: boolean;
    period: string;
    gapSummary: string | null;
    /** The market and currency the research assumes where a record states none (spec §1: US, USD). */
    defaults: string;
    /** The research service's own id of the record, when it gives one. */
    recordId: string | null;
  };
  /** What the page's schema.org JSON-LD says of the record (json-ld.ts). */
  linkedData: DatasetFacts;
  /** The key facts, read from the record's data. */
  keyFacts: KeyFactsView;
  /** Offers as one comparable table, and variants as a size × colour grid with stock (commerce only). */
  comparisons: ComparisonViews;
  sections: SectionView[];
  selectionSummary: { suitableFor: TextBlockView[]; tradeoffs: TextBlockView[]; limitations: string };
  faq: { anchor: string; question: string; answer: TextBlockView }[];
  images: ImageView[];
  catalog: CatalogView | null;
  identity: FieldView[];
  /** The catalog entry the research started from: its kind, then each name and id it came with. */
  seed: FieldView[];
  collections: CollectionView[];
  emptyCollections: string[];
  gapGroups: { priority: string; label: string; gaps: GapView[] }[];
  conflicts: ConflictView[];
  decisions: DecisionView[];
  claims: ClaimView[];
  sources: SourceView[];
}

/** The catalog entry: identifiers, measurement tables and care. */
export interface CatalogView {
  facts: FieldView[];
  tables: { caption: string; sizes: string[]; rows: { label: string; cells: string[] }[] }[];
  care: { label: string; instruction: string; icon: string | null }[];
}

const GAP_PRIORITIES = ['blocking', 'important', 'future'] as const;

/**
 * Builds the view of a record page: claims numbered in order of first citation as the text is read
 * (readingOrder: title, headline, summary, description, sections, selection summary, FAQ), each
 * text block anchored, every claim with backlinks to the blocks citing it, targets resolved to
 * anchors, empty sections and collections left out. `facts` are the record's key facts, when the caller has read them already.
 */
export function pageView(record: GarmentRecord, options: { otherProjectionExists: boolean; facts?: KeyFacts }): PageView {
  const numbering = claimNumbering(record);
  // Claims are numbered, and blocks anchored, as the blocks are read; then the claims no text cites.
  const reading = readingView(record, numbering);
  for (const claim of record.claims) numbering.number(claim.id);
  const parts = pageParts(record);
  const targets = targetContext(record, parts, numbering);
  const title = recordTitle(record);
  const images = record.images.map((image) => imageView(image, title));
  const { claimLinks } = numbering;
  const linkOf = sourceLinks();
  const claims = claimViews(record, numbering, targets, reading.citedBy, linkOf);
  return {
    slug: record.slug,
    projection: record.projection,
    projectionLabel: projectionLabel(record.projection),
    schemaVersion: record.schema_version,
    parts,
    meta: metaView(record, title, images),
    title,
    writtenTitle: record.page.title && { markdown: record.page.title.text, claimIds: record.page.title.claim_ids },
    titleCitations: reading.titleCitations,
    headline: reading.headline,
    summary: reading.summary,
    description: reading.description,
    repeatedDescription: reading.repeatedDescription,
    callToAction: firstPresent(record.page.cta_label) ?? null,
    leadImage: images.find((i) => i.src) ?? null,
    otherProjection: options.otherProjectionExists ? otherProjectionLink(record) : null,
    garmentHref: garmentPath(record.slug),
    revision: record.record_revision,
    published: { text: formatDate(record.published_at), iso: isoDate(record.published_at), value: record.published_at },
    research: researchView(record),
    linkedData: datasetFacts(record),
    keyFacts: keyFactsView(options.facts ?? keyFacts(record), claimLinks),
    comparisons: comparisonViews(record, targets),
    sections: reading.sections,
    selectionSummary: { suitableFor: reading.suitableFor, tradeoffs: reading.tradeoffs, limitations: record.selection_summary.limitations },
    faq: reading.faq,
    images,
    catalog: catalogView(record),
    identity: targets.identity,
    seed: seedFields(record.research.seed),
    collections: collectionViews({
      record,
      claimsByAnchor: targets.claimsByAnchor,
      ids: targets.ids,
      nameOf: targets.nameOf,
      namedInWords: NAMED_IN_WORDS,
    }),
    emptyCollections: emptyCollections(record),
    gapGroups: gapGroupViews(record, targets),
    conflicts: conflictViews(record, numbering, targets),
    decisions: decisionViews(record, claimLinks),
    claims,
    sources: sourceViews(record, numbering, claims, linkOf),
  };
}

/** How a page links its claims: numbered in order of first citation, one link per claim, an unknown id linked to nothing. */
interface ClaimNumbering {
  /** The record's claims by id, the first of any two with one id. */
  byId: Map<string, Claim>;
  /** Gives a claim its number, when it has none yet. */
  number: (id: string) => number | undefined;
  claimLink: (id: string) => ClaimLink | null;
  claimLinks: (ids: string[]) => ClaimLink[];
}

function claimNumbering(record: GarmentRecord): ClaimNumbering {
  const byId = new Map<string, Claim>();
  for (const claim of record.claims) if (!byId.has(claim.id)) byId.set(claim.id, claim);
  const numbers = new Map<string, number>();
  const number = (id: string) => {
    if (!numbers.has(id) && byId.has(id)) numbers.set(id, numbers.size + 1);
    return numbers.get(id);
  };
  // A claim is linked from many places: one link each.
  const linksById = new Map<string, ClaimLink>();
  const claimLink = (id: string): ClaimLink | null => {
    let link = linksById.get(id);
    if (!link) {
      const n = number(id);
      if (n === undefined) return null;
      linksById.set(id, (link = { number: n, href: `#${claimAnchor(id)}`, id }));
    }
    return link;
  };
  const claimLinks = (ids: string[]) => ids.map(claimLink).filter((link): link is ClaimLink => link !== null);
  return { byId, number, claimLink, claimLinks };
}

/** The page's text, read in reading order, and which blocks cite each claim. */
interface ReadingView {
  titleCitations: ClaimLink[];
  headline: TextBlockView | null;
  summary: TextBlockView | null;
  description: TextBlockView | null;
  repeatedDescription: TextBlockView | null;
  sections: SectionView[];
  suitableFor: TextBlockView[];
  tradeoffs: TextBlockView[];
  faq: PageView['faq'];
  /** Backlinks to the blocks citing each claim, in reading order. */
  citedBy: Map<string, { href: string; place: string }[]>;
}

function readingView(record: GarmentRecord, { claimLinks }: ClaimNumbering): ReadingView {
  const citedBy = new Map<string, { href: string; place: string }[]>();
  let ordinal = 0;
  // `backing` are the claims of a description the block stands for.
  const blockView = (block: TextBlock, place: string, backing: string[] = []): TextBlockView => {
    const anchor = textBlockAnchor(++ordinal);
    const citations = claimLinks([...new Set([...block.claim_ids, ...backing])]);
    for (const { id } of citations) append(citedBy, id, { href: `#${anchor}`, place });
    return textBlockView(block, anchor, place, citations);
  };
  // A block of a list of several is placed by its number in it: "Overview, paragraph 2".
  const placed = (heading: string, { position, count }: ReadingBlock) =>
    count > 1 ? t('place.paragraph', { place: heading, number: position + 1 }) : heading;

  const { page } = record;
  // A description that repeats the headline or summary is not shown again; its claims back that block.
  const descriptionText = page.description && plainText(page.description.text).trim();
  const repeated = [page.headline, page.summary].find((b) => b && plainText(b.text).trim() === descriptionText);
  const backingOf = (b: TextBlock) => (b === repeated ? page.description!.claim_ids : []);

  const view: ReadingView = {
    titleCitations: [],
    headline: null,
    summary: null,
    description: null,
    repeatedDescription: null,
    sections: [],
    suitableFor: [],
    tradeoffs: [],
    faq: [],
    citedBy,
  };
  for (const read of readingOrder(record)) {
    const { block, position } = read;
    switch (read.part) {
      case 'title':
        // The title is the h1 (not a paragraph): its claims link back to the heading.
        view.titleCitations = claimLinks([...new Set(block.claim_ids)]);
        for (const { id } of view.titleCitations) append(citedBy, id, { href: '#title', place: t('place.title') });
        break;
      case 'headline':
        view.headline = blockView(block, t('place.headline'), backingOf(block));
        break;
      case 'summary':
        view.summary = blockView(block, t('place.summary'), backingOf(block));
        break;
      case 'description':
        if (repeated) {
          const shownAs = (repeated === page.headline ? view.headline : view.summary)!;
          view.repeatedDescription = textBlockView(block, shownAs.anchor, shownAs.place, claimLinks([...new Set(block.claim_ids)]));
        } else view.description = blockView(block, t('place.description'));
        break;
      case 'section': {
        const key = read.section!;
        if (position === 0)
          view.sections.push({ key, anchor: sectionAnchor(key), heading: sectionHeading(record.projection, key), blocks: [] });
        const section = view.sections.at(-1)!;
        section.blocks.push(blockView(block, placed(section.heading, read)));
        break;
      }
      case 'suitable_for':
        view.suitableFor.push(blockView(block, placed(t('part.suitableFor'), read)));
        break;
      case 'tradeoffs':
        view.tradeoffs.push(blockView(block, placed(t('part.tradeoffs'), read)));
        break;
      case 'faq':
        view.faq.push({
          anchor: `faq-${position + 1}`,
          question: page.faq[position]!.question,
          answer: blockView(block, t('place.faq', { number: position + 1 })),
        });
        break;
    }
  }
  return view;
}

function textBlockView(block: TextBlock, anchor: string, place: string, citations: ClaimLink[]): TextBlockView {
  return {
    anchor,
    kind: block.kind,
    kindLabel: t(`textBlock.${block.kind}`),
    html: trustedHtml(renderInline(block.text)),
    markdown: block.text,
    claimIds: block.claim_ids,
    citations,
    place,
  };
}

/** What the evidence needs to name and link the record's items and the places its claims are about. */
interface TargetContext {
  ids: ItemIds;
  nameOf: ItemNamer;
  subjectOf: SubjectNamer;
  identity: FieldView[];
  resolve: (target: string) => TargetView;
  /** The claims whose targets land on each anchor. */
  claimsByAnchor: Map<string, ClaimLink[]>;
}

function targetContext(record: GarmentRecord, parts: PagePart[], { byId, claimLink }: ClaimNumbering): TargetContext {
  const ids = itemIdsOf(record);
  const nameOf = itemNamer(record);
  const subjectOf = subjectNamer(record, nameOf, ids);
  const identity = identityFields(record, ids);
  // A claim's targets are resolved twice (its anchors, its entry), and many claims share targets.
  const resolved = new Map<string, TargetView>();
  const resolve = (target: string) => {
    let view = resolved.get(target);
    if (!view)
      resolved.set(target, (view = { ...resolveTarget(target, record, ids, identity.length > 0, parts), label: subjectOf([target]) }));
    return view;
  };
  const claimsByAnchor = new Map<string, ClaimLink[]>();
  for (const claim of byId.values()) {
    for (const target of new Set(
      claim.targets
        .map(resolve)
        .map((r) => r.href)
        .filter((href): href is string => href !== null),
    )) {
      append(claimsByAnchor, target.slice(1), claimLink(claim.id)!);
    }
  }
  return { ids, nameOf, subjectOf, identity, resolve, claimsByAnchor };
}

/** The page's head: plain text. */
function metaView(record: GarmentRecord, title: string, images: ImageView[]): PageView['meta'] {
  const { page } = record;
  const description = [page.description, page.summary, page.headline].find(Boolean);
  return {
    title: t('record.metaTitle', { title, projection: projectionLabel(record.projection) }),
    description: description
      ? plainText(description.text)
      : t('record.fallbackDescription', { projection: projectionLabel(record.projection), title }),
    path: pagePath(record.slug, record.projection),
    image: images.find((i) => i.src)?.src ?? null,
  };
}

function otherProjectionLink(record: GarmentRecord): PageView['otherProjection'] {
  const other = otherProjection(record.projection);
  return { label: t('projection.other', { projection: projectionLabel(other) }), href: pagePath(record.slug, other) };
}

function researchView(record: GarmentRecord): PageView['research'] {
  const { research } = record;
  const blocking = record.gaps.filter((g) => g.priority === 'blocking').length;
  return {
    status: research.status,
    statusLabel:
      (record.projection === 'tech' ? lookup(`status.${research.status}.technical`) : undefined) ?? researchStatusLabel(research.status),
    // "Complete" beside open gaps would read as two messages: the note says the gaps remain.
    note:
      (research.status === 'complete' && record.gaps.length > 0
        ? t('status.complete.noteWithGaps')
        : researchStatusNote(research.status)) ?? '',
    finished: research.status === 'complete',
    limitations: research.limitations,
    scopeNote: research.scope_note,
    productInput: research.product_input,
    factReview: enumLabel('fact_review_status', research.fact_review_status),
    identityResolved: research.identity_resolved,
    defaults: t('record.defaultsValue', { market: research.default_market, currency: research.default_currency }),
    recordId: firstPresent(record.record_id) ?? null,
    period: research.completed_at
      ? t('record.period', { start: formatDate(research.started_at), end: formatDate(research.completed_at) })
      : t('record.periodOpen', { start: formatDate(research.started_at) }),
    gapSummary:
      record.gaps.length === 0
        ? null
        : blocking > 0
          ? t('record.gapsBlocking', { gaps: tCount('gap.count', record.gaps.length), blocking })
          : tCount('gap.count', record.gaps.length),
  };
}

/** A source's address as the page links it, with its host (see webLink); null when it is not linked. */
type SourceLinks = (source: Source) => WebLink | null;

/** Each source's address parsed once per page: claims cite the same few sources many times, and the sources list them again. */
function sourceLinks(): SourceLinks {
  const links = new Map<Source, WebLink | null>();
  return (source) => {
    let link = links.get(source);
    if (link === undefined) links.set(source, (link = webLink(source.url)));
    return link;
  };
}

/** The claim entries, in number order. */
function claimViews(
  record: GarmentRecord,
  { byId, claimLink }: ClaimNumbering,
  { ids, subjectOf, resolve }: TargetContext,
  citedBy: ReadingView['citedBy'],
  linkOf: SourceLinks,
): ClaimView[] {
  const sourcesById = new Map(record.sources.map((s) => [s.id, s]));
  const conflictsOf = new Map<string, { href: string; text: string }[]>();
  for (const conflict of record.conflicts) {
    for (const id of new Set([...conflict.claim_ids, ...(conflict.selected_claim_id ? [conflict.selected_claim_id] : [])])) {
      append(conflictsOf, id, { href: `#${conflictAnchor(conflict.id)}`, text: subjectOf([conflict.target]) });
    }
  }
  return [...byId.values()]
    .map((claim, position) => ({
      id: claim.id,
      number: claimLink(claim.id)!.number,
      position,
      anchor: claimAnchor(claim.id),
      subject: subjectOf(claim.targets),
      value: claimValueText(record, claim, ids),
      scope: claim.scope,
      kindLabel: enumLabel('claim_kind', claim.kind),
      verification: claim.verification,
      verificationLabel: enumLabel('verification', claim.verification),
      targets: claim.targets.map(resolve),
      references: claim.references.map((reference) => {
        const source = sourcesById.get(reference.source_id);
        const link = source ? linkOf(source) : null;
        return {
          sourceHref: source ? `#${sourceAnchor(source.id)}` : null,
          sourceTitle: source ? sourceTitle(source) : t('claim.unknownSource', { id: reference.source_id }),
          url: link?.url ?? null,
          host: link?.host ?? null,
          locator: reference.locator,
          excerpt: reference.short_excerpt,
        };
      }),
      derivedFrom: claim.derived_from.map((id) => claimLink(id) ?? { text: t('claim.unknownClaim', { id }), href: null }),
      calculation: claim.calculation,
      checkedAt: claim.checked_at ? formatDate(claim.checked_at) : null,
      checkNote: claim.check_note,
      conflicts: conflictsOf.get(claim.id) ?? [],
      citedBy: citedBy.get(claim.id) ?? [],
    }))
    .sort((a, b) => a.number - b.number);
}

/** The source entries, each with the claims resting on it. */
function sourceViews(record: GarmentRecord, { byId, claimLink }: ClaimNumbering, claims: ClaimView[], linkOf: SourceLinks): SourceView[] {
  const claimsOfSource = new Map<string, ClaimLink[]>();
  for (const claim of claims) {
    for (const sourceId of new Set(byId.get(claim.id)!.references.map((r) => r.source_id))) {
      append(claimsOfSource, sourceId, claimLink(claim.id)!);
    }
  }
  const seenSources = new Set<string>();
  return record.sources
    .filter((s) => !seenSources.has(s.id) && seenSources.add(s.id))
    .map((source) => ({
      id: source.id,
      anchor: sourceAnchor(source.id),
      title: sourceTitle(source),
      url: linkOf(source)?.url ?? null,
      unlinkedUrl: source.url && !linkOf(source) ? source.url : null,
      facts: [
        fact('source.publisher', source.publisher),
        fact('source.type', enumLabel('source_type', source.source_type)),
        fact('source.access', enumLabel('access_status', source.access_status)),
        fact('source.accessed', source.accessed_at && formatDate(source.accessed_at)),
        fact('source.published', source.published_at && formatDate(source.published_at)),
        fact('source.updated', source.updated_at && formatDate(source.updated_at)),
        fact('source.independenceGroup', source.independence_group),
        fact('source.limitations', source.limitations),
      ].filter((f): f is FieldView => f !== null),
      citedBy: claimsOfSource.get(source.id) ?? [],
    }));
}

function conflictViews(
  record: GarmentRecord,
  { byId, claimLink, claimLinks }: ClaimNumbering,
  { ids, subjectOf, resolve }: TargetContext,
): ConflictView[] {
  const anchors = distinctAnchors(
    record.conflicts.map((conflict) => conflict.id),
    conflictAnchor,
  );
  return record.conflicts.map((conflict, i) => ({
    id: conflict.id,
    anchor: anchors[i]!,
    subject: subjectOf([conflict.target]),
    target: resolve(conflict.target),
    values: claimLinks([...new Set(conflict.claim_ids)]).map((claim) => {
      const entry = byId.get(claim.id)!;
      return { claim, value: claimValueText(record, entry, ids) };
    }),
    resolution: enumLabel('resolution', conflict.resolution),
    resolved: conflict.resolution !== 'unresolved',
    claims: claimLinks(conflict.claim_ids),
    selected: conflict.selected_claim_id ? claimLink(conflict.selected_claim_id) : null,
    reason: conflict.reason,
    followUp: conflict.follow_up,
  }));
}

function decisionViews(record: GarmentRecord, claimLinks: ClaimNumbering['claimLinks']): DecisionView[] {
  const anchors = distinctAnchors(
    record.decisions.map((decision) => decision.id),
    decisionAnchor,
  );
  return record.decisions.map((decision, i) => ({
    id: decision.id,
    anchor: anchors[i]!,
    scenario: decision.scenario,
    interpretation: decision.interpretation,
    lists: (['brief_assumptions', 'hard_requirements', 'preference_dimensions', 'tradeoffs', 'unknowns', 'alternative_names'] as const)
      .map((key) => ({ label: t(`decision.${key}`), items: decision[key] }))
      .filter((list) => list.items.length > 0),
    claims: claimLinks(decision.claim_ids),
  }));
}

function gapGroupViews(record: GarmentRecord, { subjectOf, resolve }: TargetContext): PageView['gapGroups'] {
  const anchors = new Map(
    distinctAnchors(
      record.gaps.map((gap) => gap.id),
      gapAnchor,
    ).map((anchor, i) => [record.gaps[i]!, anchor]),
  );
  return GAP_PRIORITIES.map((priority) => ({
    priority,
    label: t(`gap.priority.${priority}`),
    gaps: record.gaps
      .filter((gap) => gap.priority === priority)
      .map((gap) => ({
        id: gap.id,
        anchor: anchors.get(gap)!,
        subject: subjectOf([gap.target]),
        target: resolve(gap.target),
        reason: enumLabel('gap_reason', gap.reason),
        impact: gap.impact,
        nextAction: gap.next_action,
        owner: enumLabel('gap_owner', gap.owner),
      })),
  })).filter((group) => group.gaps.length > 0);
}

/** Adds a value to the list under a key. */
function append<T>(lists: Map<string, T[]>, key: string, value: T): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

/** The research seed's fields with a value: its kind in words, names as text, codes and ids as code. */
function seedFields(seed: GarmentRecord['research']['seed']): FieldView[] {
  const field = (name: string, values: (string | null)[], kind: 'text' | 'code'): FieldView | null => {
    const present = values.filter((value): value is string => Boolean(value));
    return present.length > 0 ? { name, label: fieldLabel(name), parts: present.map((text) => ({ kind, text })) } : null;
  };
  return [
    field('seed_unit', [enumLabel('seed_unit', seed.unit)], 'text'),
    field('catalog_title', [seed.catalog_title], 'text'),
    field('category_code', [seed.category_code], 'code'),
    field('svc_skus', seed.svc_skus, 'code'),
    field('podone_product_id', [seed.podone_product_id], 'code'),
    field('podtwo_blueprint_ids', seed.podtwo_blueprint_ids, 'code'),
    field('podtwo_print_provider_ids', seed.podtwo_print_provider_ids, 'code'),
  ].filter((field): field is FieldView => field !== null);
}

function fact(key: Parameters<typeof t>[0], value: string | null | undefined): FieldView | null {
  return value ? { name: key, label: t(key), parts: [{ kind: 'text', text: value }] } : null;
}

type Source = GarmentRecord['sources'][number];

function sourceTitle(source: Source): string {
  return firstPresent(source.title, source.publisher) ?? t('source.untitled', { id: source.id });
}

/** An image's view: its address only when http(s), and its alt text (imageAlt). */
export function imageView(image: GarmentRecord['images'][number], title: string): ImageView {
  return {
    src: webUrl(image.url),
    url: image.url,
    alt: imageAlt(image, title),
    kind: enumLabel('image_kind', image.kind),
    view: enumLabel('image_view', image.view),
    color: image.color_name,
  };
}

function catalogView(record: GarmentRecord): CatalogView | null {
  const { catalog } = record;
  if (!catalog) return null;
  const facts: FieldView[] = [
    fact('catalog.title', catalog.title),
    fact('catalog.sku', catalog.svc_sku),
    fact('catalog.handle', catalog.handle),
    catalog.launch_url ? { name: 'launch_url', label: t('catalog.launch'), parts: [urlPart(catalog.launch_url)] } : null,
    catalog.size_chart_image_url
      ? { name: 'size_chart_image_url', label: t('catalog.sizeChart'), parts: [urlPart(catalog.size_chart_image_url)] }
      : null,
  ].filter((f): f is FieldView => f !== null);
  const tables = catalog.measurement_tables.map((table) => {
    // Sizes in the order of the row that has most of them (the others' order may skip some), then any others.
    const fullest = table.rows.reduce<(typeof table.rows)[number] | undefined>(
      (most, row) => (most && most.values.length >= row.values.length ? most : row),
      undefined,
    );
    const sizes = [...new Set([...(fullest?.values ?? []), ...table.rows.flatMap((row) => row.values)].map((v) => v.size))];
    return {
      caption: t('catalog.tableCaption', { type: table.type, unit: table.unit }),
      sizes,
      rows: table.rows.map((row) => ({
        label: row.label,
        cells: sizes.map((size) => {
          const given = row.values.filter((v) => v.size === size);
          if (given.length === 0) return t('value.notStated');
          // A range is only left out when it says nothing the value does not; a size given twice shows both.
          return given
            .map((cell) =>
              cell.min_value === cell.value && cell.max_value === cell.value
                ? cell.value
                : `${cell.value} (${t('catalog.range', { min: cell.min_value, max: cell.max_value })})`,
            )
            .join('; ');
        }),
      })),
    };
  });
  const care = catalog.care_instructions.map((c) => ({ label: c.label, instruction: c.instruction, icon: webUrl(c.icon_url) }));
  return { facts, tables, care };
}

/** Entries of a record part by id, and the anchor of one: where a target naming an entry lands. */
const ENTRIES: Record<string, [(record: GarmentRecord) => { id: string }[], (id: string) => string]> = {
  sources: [(r) => r.sources, sourceAnchor],
  claims: [(r) => r.claims, claimAnchor],
  conflicts: [(r) => r.conflicts, conflictAnchor],
  decisions: [(r) => r.decisions, decisionAnchor],
  gaps: [(r) => r.gaps, gapAnchor],
};

/**
 * Where a target (of a claim, conflict or gap) points on the page. Accepts the spellings
 * {@link targetPath} reads. Links only to things the page shows (the parts model, page-parts.ts,
 * says which parts are shown and where); anything else stays plain text.
 * @example resolveTarget('offers/o1/currency', …) → { text: 'offers/o1/currency', href: '#offers-o1' }
 */
export function resolveTarget(
  target: string,
  record: GarmentRecord,
  ids: ItemIds = itemIdsOf(record),
  identityShown = true,
  parts: readonly PagePart[] = pageParts(record),
): TargetView {
  const none = { text: target, href: null };
  const path = targetPath(target, record.claim_target_base);
  if (!path) return none;
  const { head, item: second, field: third } = path;

  if (head === 'identity') return identityShown ? { text: target, href: `#${collectionAnchor('identity')}` } : none;
  const items = ids.get(head);
  if (items) {
    const shown = (COLLECTION_ORDER[record.projection] as readonly string[]).includes(head) && items.size > 0;
    if (!shown) return none;
    if (second === undefined) return { text: target, href: `#${collectionAnchor(head)}` };
    if (items.has(second)) return { text: target, href: `#${itemAnchor(head, second)}` };
    const index = /^\d+$/.test(second) ? Number(second) : -1;
    const data = record.data as unknown as Record<string, { id: string }[]>;
    const byIndex = data[head]?.[index];
    return byIndex && items.get(byIndex.id) === index ? { text: target, href: `#${itemAnchor(head, byIndex.id)}` } : none;
  }

  const partAnchor = partAnchorFor(parts, head === 'page' && second === 'sections' && third ? `section.${third}` : head);
  if (partAnchor === null) return none;
  const entries = ENTRIES[head];
  if (!entries || second === undefined) return { text: target, href: `#${partAnchor}` };
  const list = entries[0](record);
  const found = list.find((x) => x.id === second) ?? (/^\d+$/.test(second) ? list[Number(second)] : undefined);
  return found ? { text: target, href: `#${entries[1](found.id)}` } : none;
}
