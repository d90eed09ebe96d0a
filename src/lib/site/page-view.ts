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
  itemIdsOf,
  urlPart,
  type ClaimLink,
  type CollectionView,
  type FieldView,
  type ItemIds,
} from './data-view.ts';
import { enumLabel, fieldLabel, formatDate, formatValue, isoDate, researchStatusLabel, researchStatusNote } from './format.ts';
import { projectionLabel, sectionHeading, t, tCount } from './strings.ts';
import { firstPresent, plainText, renderInline, webUrl } from './text.ts';
import { trustedHtml, type Html } from './html.ts';
import { imageAlt } from './image-alt.ts';
import { recordTitle } from './record-title.ts';
import { targetPath } from './claim-targets.ts';
import { comparisonViews, type ComparisonViews } from './comparison-view.ts';
import { itemNamer, NAMED_IN_WORDS, subjectNamer } from './item-names.ts';
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
  /** The page's parts in reading order, shown or not (page-parts.ts): its body, contents and twin follow them. */
  parts: PagePart[];
  /** Head: plain text. */
  meta: { title: string; description: string; path: string; image: string | null };
  title: string;
  titleCitations: ClaimLink[];
  headline: TextBlockView | null;
  summary: TextBlockView | null;
  /** The description block, shown only when it says something the headline and summary do not (else its claims back the one it repeats). */
  description: TextBlockView | null;
  /** The page's call to action (`cta_label`), as written: the record gives it no destination to link. */
  callToAction: string | null;
  leadImage: ImageView | null;
  otherProjection: { label: string; href: string } | null;
  garmentHref: string;
  revision: string;
  published: { text: string; iso: string | null };
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
  const claimsById = new Map<string, Claim>();
  for (const claim of record.claims) if (!claimsById.has(claim.id)) claimsById.set(claim.id, claim);

  // Numbering: first citation in reading order, then claims never cited in text, in record order.
  const numbers = new Map<string, number>();
  const number = (id: string) => {
    if (!numbers.has(id) && claimsById.has(id)) numbers.set(id, numbers.size + 1);
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

  const citedBy = new Map<string, { href: string; place: string }[]>();
  let ordinal = 0;
  const blockView = (block: TextBlock, place: string): TextBlockView => {
    const anchor = textBlockAnchor(++ordinal);
    const citations = claimLinks([...new Set(block.claim_ids)]);
    for (const { id } of citations) append(citedBy, id, { href: `#${anchor}`, place });
    return {
      anchor,
      kind: block.kind,
      kindLabel: t(`textBlock.${block.kind}`),
      html: trustedHtml(renderInline(block.text)),
      citations,
      place,
    };
  };
  // A block of a list of several is placed by its number in it: "Overview, paragraph 2".
  const placed = (heading: string, { position, count }: ReadingBlock) =>
    count > 1 ? t('place.paragraph', { place: heading, number: position + 1 }) : heading;

  const { page } = record;
  // Only text blocks carry Markdown; identity and catalog names are plain data.
  const title = recordTitle(record);
  // A description that repeats the headline or summary is not shown again; its claims back that block.
  const descriptionText = page.description && plainText(page.description.text).trim();
  const repeated = [page.headline, page.summary].find((b) => b && plainText(b.text).trim() === descriptionText);
  const backed = (b: TextBlock) => (b === repeated ? { ...b, claim_ids: [...b.claim_ids, ...page.description!.claim_ids] } : b);

  // Claims are numbered, and blocks anchored, as the blocks are read.
  let titleCitations: ClaimLink[] = [];
  let headline: TextBlockView | null = null;
  let summary: TextBlockView | null = null;
  let description: TextBlockView | null = null;
  const sections: SectionView[] = [];
  const suitableFor: TextBlockView[] = [];
  const tradeoffs: TextBlockView[] = [];
  const faq: PageView['faq'] = [];
  for (const read of readingOrder(record)) {
    const { block, position } = read;
    switch (read.part) {
      case 'title':
        // The title is the h1 (not a paragraph): its claims link back to the heading.
        titleCitations = claimLinks([...new Set(block.claim_ids)]);
        for (const { id } of titleCitations) append(citedBy, id, { href: '#title', place: t('place.title') });
        break;
      case 'headline':
        headline = blockView(backed(block), t('place.headline'));
        break;
      case 'summary':
        summary = blockView(backed(block), t('place.summary'));
        break;
      case 'description':
        if (!repeated) description = blockView(block, t('place.description'));
        break;
      case 'section': {
        const key = read.section!;
        if (position === 0) sections.push({ key, anchor: sectionAnchor(key), heading: sectionHeading(record.projection, key), blocks: [] });
        const section = sections.at(-1)!;
        section.blocks.push(blockView(block, placed(section.heading, read)));
        break;
      }
      case 'suitable_for':
        suitableFor.push(blockView(block, placed(t('part.suitableFor'), read)));
        break;
      case 'tradeoffs':
        tradeoffs.push(blockView(block, placed(t('part.tradeoffs'), read)));
        break;
      case 'faq':
        faq.push({
          anchor: `faq-${position + 1}`,
          question: page.faq[position]!.question,
          answer: blockView(block, t('place.faq', { number: position + 1 })),
        });
        break;
    }
  }
  const { selection_summary: selection } = record;

  // Claims cited only by conflicts, decisions or other claims are numbered after those cited in text.
  for (const claim of record.claims) number(claim.id);

  const ids = itemIdsOf(record);
  const nameOf = itemNamer(record);
  const subjectOf = subjectNamer(record, nameOf, ids);
  const parts = pageParts(record);
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
  for (const claim of claimsById.values()) {
    for (const target of new Set(
      claim.targets
        .map(resolve)
        .map((r) => r.href)
        .filter((href): href is string => href !== null),
    )) {
      append(claimsByAnchor, target.slice(1), claimLink(claim.id)!);
    }
  }

  const sourcesById = new Map(record.sources.map((s) => [s.id, s]));
  // A source's web address and host, parsed once: claims cite the same few sources many times.
  const webAddresses = new Map<Source, { url: string; host: string } | null>();
  const webAddressOf = (source: Source) => {
    let address = webAddresses.get(source);
    if (address === undefined) {
      const url = webUrl(source.url);
      address = url ? { url, host: new URL(url).hostname } : null;
      webAddresses.set(source, address);
    }
    return address;
  };
  const conflictsOf = new Map<string, { href: string; text: string }[]>();
  for (const conflict of record.conflicts) {
    for (const id of new Set([...conflict.claim_ids, ...(conflict.selected_claim_id ? [conflict.selected_claim_id] : [])])) {
      append(conflictsOf, id, { href: `#${conflictAnchor(conflict.id)}`, text: subjectOf([conflict.target]) });
    }
  }

  const claims: ClaimView[] = [...claimsById.values()]
    .map((claim) => ({
      id: claim.id,
      number: numbers.get(claim.id)!,
      anchor: claimAnchor(claim.id),
      subject: subjectOf(claim.targets),
      value: formatValue(claim.value, claim.unit),
      scope: claim.scope,
      kindLabel: enumLabel('claim_kind', claim.kind),
      verification: claim.verification,
      verificationLabel: enumLabel('verification', claim.verification),
      targets: claim.targets.map(resolve),
      references: claim.references.map((reference) => {
        const source = sourcesById.get(reference.source_id);
        const address = source ? webAddressOf(source) : null;
        return {
          sourceHref: source ? `#${sourceAnchor(source.id)}` : null,
          sourceTitle: source ? sourceTitle(source) : t('claim.unknownSource', { id: reference.source_id }),
          url: address?.url ?? null,
          host: address?.host ?? null,
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

  const claimsOfSource = new Map<string, ClaimLink[]>();
  for (const claim of claims) {
    for (const sourceId of new Set(claimsById.get(claim.id)!.references.map((r) => r.source_id))) {
      append(claimsOfSource, sourceId, claimLink(claim.id)!);
    }
  }
  const seenSources = new Set<string>();
  const sources: SourceView[] = record.sources
    .filter((s) => !seenSources.has(s.id) && seenSources.add(s.id))
    .map((source) => ({
      id: source.id,
      anchor: sourceAnchor(source.id),
      title: sourceTitle(source),
      url: webAddressOf(source)?.url ?? null,
      unlinkedUrl: source.url && !webAddressOf(source) ? source.url : null,
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

  const conflictAnchors = distinctAnchors(
    record.conflicts.map((conflict) => conflict.id),
    conflictAnchor,
  );
  const conflicts: ConflictView[] = record.conflicts.map((conflict, i) => ({
    id: conflict.id,
    anchor: conflictAnchors[i]!,
    subject: subjectOf([conflict.target]),
    target: resolve(conflict.target),
    values: claimLinks([...new Set(conflict.claim_ids)]).map((claim) => {
      const entry = claimsById.get(claim.id)!;
      return { claim, value: formatValue(entry.value, entry.unit) };
    }),
    resolution: enumLabel('resolution', conflict.resolution),
    resolved: conflict.resolution !== 'unresolved',
    claims: claimLinks(conflict.claim_ids),
    selected: conflict.selected_claim_id ? claimLink(conflict.selected_claim_id) : null,
    reason: conflict.reason,
    followUp: conflict.follow_up,
  }));

  const decisionAnchors = distinctAnchors(
    record.decisions.map((decision) => decision.id),
    decisionAnchor,
  );
  const decisions: DecisionView[] = record.decisions.map((decision, i) => ({
    id: decision.id,
    anchor: decisionAnchors[i]!,
    scenario: decision.scenario,
    interpretation: decision.interpretation,
    lists: (['brief_assumptions', 'hard_requirements', 'preference_dimensions', 'tradeoffs', 'unknowns', 'alternative_names'] as const)
      .map((key) => ({ label: t(`decision.${key}`), items: decision[key] }))
      .filter((list) => list.items.length > 0),
    claims: claimLinks(decision.claim_ids),
  }));

  const gapAnchors = new Map(
    distinctAnchors(
      record.gaps.map((gap) => gap.id),
      gapAnchor,
    ).map((anchor, i) => [record.gaps[i]!, anchor]),
  );
  const gapGroups = GAP_PRIORITIES.map((priority) => ({
    priority,
    label: t(`gap.priority.${priority}`),
    gaps: record.gaps
      .filter((gap) => gap.priority === priority)
      .map((gap) => ({
        id: gap.id,
        anchor: gapAnchors.get(gap)!,
        subject: subjectOf([gap.target]),
        target: resolve(gap.target),
        reason: enumLabel('gap_reason', gap.reason),
        impact: gap.impact,
        nextAction: gap.next_action,
        owner: enumLabel('gap_owner', gap.owner),
      })),
  })).filter((group) => group.gaps.length > 0);

  const images = record.images.map((image) => imageView(image, title));
  const collections = collectionViews({ record, claimsByAnchor, ids, nameOf, namedInWords: NAMED_IN_WORDS });
  const seed = seedFields(record.research.seed);
  const catalog = catalogView(record);
  const { research } = record;
  const blocking = record.gaps.filter((g) => g.priority === 'blocking').length;

  const other = otherProjection(record.projection);

  const metaDescription = [page.description, page.summary, page.headline].find(Boolean);
  return {
    slug: record.slug,
    projection: record.projection,
    projectionLabel: projectionLabel(record.projection),
    parts,
    meta: {
      title: t('record.metaTitle', { title, projection: projectionLabel(record.projection) }),
      description: metaDescription
        ? plainText(metaDescription.text)
        : t('record.fallbackDescription', { projection: projectionLabel(record.projection), title }),
      path: pagePath(record.slug, record.projection),
      image: images.find((i) => i.src)?.src ?? null,
    },
    title,
    titleCitations,
    headline,
    summary,
    description,
    callToAction: firstPresent(page.cta_label) ?? null,
    leadImage: images.find((i) => i.src) ?? null,
    otherProjection: options.otherProjectionExists
      ? { label: t('projection.other', { projection: projectionLabel(other) }), href: pagePath(record.slug, other) }
      : null,
    garmentHref: garmentPath(record.slug),
    revision: record.record_revision,
    published: { text: formatDate(record.published_at), iso: isoDate(record.published_at) },
    research: {
      status: research.status,
      statusLabel: researchStatusLabel(research.status),
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
    },
    keyFacts: keyFactsView(options.facts ?? keyFacts(record), claimLinks),
    comparisons: comparisonViews(record, { claimsByAnchor, nameOf }),
    sections,
    selectionSummary: { suitableFor, tradeoffs, limitations: selection.limitations },
    faq,
    images,
    catalog,
    identity,
    seed,
    collections,
    emptyCollections: emptyCollections(record),
    gapGroups,
    conflicts,
    decisions,
    claims,
    sources,
  };
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
