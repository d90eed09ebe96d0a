import type { Projection } from '../record/types.ts';

/**
 * Every fixed piece of UI text, by dotted key grouped by feature. Placeholders are named
 * (`{count}`); counted phrases have separate `.one` / `.many` keys. A second language is only data.
 */
export const STRINGS = {
  'site.name': 'garment-press',
  'site.tagline': 'Garment research records, every statement traced to its sources.',
  'site.footer':
    'Research snapshots: prices are timestamped observations, not quotes. The absence of an asset does not prove that none exists.',
  'site.docs': 'API documentation',

  'llms.summary':
    '{tagline} Each garment has research records (schema {schema}) in one or two projections: commerce (`svc`) and technical (`tech`). Every record is published as an HTML page, as JSON and as Markdown.',
  'llms.about':
    'Prices in the records are timestamped observations, not quotes. Statements cite claims; each claim names its sources and how it was verified. The Markdown twins carry claims as footnotes.',
  'llms.records': 'Records',
  'llms.record.name': '{title} ({projection})',
  'llms.record.kind': '{projection} research record',
  'llms.record.status': 'research {status}',
  'llms.record.revision': 'revision {revision}',
  'llms.docs': 'Docs',
  'llms.docs.api': 'API and mirroring',
  'llms.docs.api.notes': 'what each URL holds, the record schema, links, records.json, and how to mirror the site',
  'llms.docs.webhooks': 'Completion webhooks',
  'llms.docs.webhooks.notes': 'the publish API, signed completion callbacks, verification and retries',
  'llms.docs.mcp': 'MCP tools and resources',
  'llms.docs.mcp.notes': 'search, read, list and publish records from an MCP client: the tools, their schemas, the resources',
  'llms.docs.schema': 'JSON Schema {schema}',
  'llms.docs.schema.notes': 'the schema every record validates against (draft 2020-12)',
  'llms.docs.records': 'Records index',
  'llms.docs.records.notes': 'every published record with its links, as JSON',

  'nav.skip': 'Skip to content',
  'nav.home': 'All garments',
  'nav.search': 'Search',
  'nav.primary': 'Site',
  'nav.breadcrumb': 'Breadcrumb',
  'nav.contents': 'On this page',

  'projection.svc': 'Commerce',
  'projection.tech': 'Technical',
  'projection.svc.long': 'Commerce page',
  'projection.tech.long': 'Technical page',
  'projection.svc.about': 'What it costs, how it decorates, what customers report.',
  'projection.tech.about': 'Materials, measurements, assets and manufacturing for a technical handoff.',
  'projection.label': 'Projection',
  'projection.other': 'Read the {projection} page',

  'index.title': 'Garments',
  'index.metaTitle': 'Garments: research records',
  'index.description': 'Every garment researched so far, with commerce and technical research records.',
  'index.filter.heading': 'Narrow the list',
  'index.filter.category': 'By category',
  'index.filter.projection': 'By projection',
  'index.filter.status': 'By research status',
  'index.filter.showAll': 'Show all garments',
  'index.count.one': '{count} garment',
  'index.count.many': '{count} garments',
  'index.empty': 'No garments are published yet.',
  'index.uncategorised': 'Uncategorised',
  'index.brandUnknown': 'Brand not stated',
  'index.noImage': 'No image',
  'index.previews': 'Each category shows its first {count} garments here; its own pages list them all.',
  'index.more.one': 'The {count} garment in {category}',
  'index.more.many': 'All {count} garments in {category}',

  'category.metaTitle': '{category}: garments',
  'category.metaTitlePage': '{category}: garments, page {page} of {pages}',
  'category.description': 'Every garment in {category}, with commerce and technical research records.',
  'category.range': 'Garments {first} to {last} of {total}.',
  'pagination.label': 'Pages of {category}',
  'pagination.previous': 'Previous page',
  'pagination.next': 'Next page',
  'pagination.page': 'Page {page}',

  'search.title': 'Search',
  'search.metaTitle': 'Search the garment records',
  'search.description':
    'Search every garment record, commerce and technical, and narrow the results by projection, category, brand, materials, decoration and more.',
  'search.heading': 'Search the records',
  'search.label': 'Search garments',
  'search.placeholder': 'fleece, twill, DTG…',
  'search.submit': 'Search',
  'search.sort': 'Sort by',
  'search.sort.relevance': 'Best match',
  'search.sort.title': 'Title (A–Z)',
  'search.sort.published': 'Newest published',
  'search.filters': 'Filters',
  'search.clearFilters': 'Clear filters',
  'search.filter.projection': 'Projection',
  'search.filter.category': 'Category',
  'search.filter.brand': 'Brand',
  'search.filter.manufacturer': 'Manufacturer',
  'search.filter.status': 'Research status',
  'search.filter.decoration': 'Decoration method',
  'search.filter.fabric': 'Knit or woven',
  'search.filter.construction': 'Fabric construction',
  'search.filter.fiber': 'Fibre',
  'search.filter.color': 'Colour',
  'search.filter.size': 'Size',
  'search.prompt': 'Type a word, or choose a filter, to search every garment.',
  'search.loading': 'Searching…',
  'search.results.one': '{count} garment for “{query}”',
  'search.results.many': '{count} garments for “{query}”',
  'search.resultsIn.one': '{count} garment for “{query}” in {filters}',
  'search.resultsIn.many': '{count} garments for “{query}” in {filters}',
  'search.matches.one': '{count} garment in {filters}',
  'search.matches.many': '{count} garments in {filters}',
  'search.none': 'No garments for “{query}”.',
  'search.noneIn': 'No garments for “{query}” in {filters}.',
  'search.noneFiltered': 'No garments in {filters}.',
  'search.corrected': 'No garment says “{asked}”; showing “{searched}” instead.',
  'search.suggest': 'Words that find garments:',
  'search.suggestFor': 'Search for {word}',
  'search.activeFilters': 'Active filters',
  'search.toFilters': 'Filters and sorting',
  'search.removeFilter': 'Remove filter {filter}: {value}',
  'search.hit.priceFrom': 'From {price}',
  'search.hit.sizes': 'Sizes {sizes}',
  'search.hit.sizeRange': '{first}–{last}',
  'search.hit.projections': 'Research records',
  'search.hit.projectionLink': '{projection} record',
  'search.showMore': 'Show more results',
  'search.unavailable': 'Search is not available right now ({message}). Every garment can be found from the home page.',
  'search.noscript': 'Search runs in your browser and needs JavaScript. Every garment can be found from the home page.',
  'search.browseAll': 'Browse all garments',

  'garment.title': '{title}: research records',
  'garment.lead': 'Research records of this garment, with the key facts of each:',
  'garment.read': 'Read the {projection}',
  'garment.missing': 'No {projection} record has been published for this garment.',

  'notFound.title': 'Page not found',
  'notFound.lead': 'There is no page at this address. It may have moved, or the record may not be published.',
  'notFound.search': 'Search the garments',
  'notFound.browse.one': 'Browse the {count} garment',
  'notFound.browse.many': 'Browse all {count} garments',

  'record.revision': 'Revision',
  'record.published': 'Published',
  'record.researchStatus': 'Research status',
  'record.factReview': 'Fact review',
  'record.identity': 'Identity',
  'record.productInput': 'Researched from',
  'record.seed': 'Research seed',
  'record.identityResolved': 'Resolved',
  'record.identityUnresolved': 'Not resolved',
  'record.limitations': 'Limitations',
  'record.scopeNote': 'Research scope',
  'record.researchPeriod': 'Researched',
  'record.defaults': 'Research defaults',
  'record.defaultsValue': 'market {market}, currency {currency}',
  'record.id': 'Record id',
  'record.period': '{start} to {end}',
  'record.periodOpen': 'Started {start}, not completed',
  'record.gapsBlocking': '{gaps} ({blocking} blocking)',
  'record.seeGaps': 'Check the {gaps} before relying on this page.',
  'record.downloads': 'This record as data',
  'record.downloadJson': 'JSON',
  'record.downloadMarkdown': 'Markdown',
  'record.untitled': 'Garment {slug}',
  'record.metaTitle': '{title}: {projection}',
  'record.fallbackDescription': '{projection} research record for {title}.',

  'status.in_progress': 'In progress',
  'status.complete_with_gaps': 'Complete with gaps',
  'status.complete': 'Complete',
  'status.identity_unresolved': 'Identity unresolved',
  'status.incomplete': 'Incomplete',
  'status.in_progress.note': 'Research is still in progress. Statements below may change and some sections are not yet researched.',
  'status.complete_with_gaps.note': 'Research is finished but has known gaps: some facts are missing or unverified.',
  'status.complete.note': 'Research is complete for the stated scope.',
  'status.identity_unresolved.note':
    'The garment’s identity is not confirmed: statements below may describe a different product than the one named.',
  'status.incomplete.note': 'Research stopped before it was complete. Treat this page as partial.',

  'section.svc.overview': 'Overview',
  'section.svc.when_it_fits': 'When it fits',
  'section.svc.fit_and_sizing': 'Fit and sizing',
  'section.svc.fabric_and_colors': 'Fabric and colors',
  'section.svc.decoration': 'Decoration',
  'section.svc.standard_pricing': 'Standard pricing',
  'section.svc.customer_evidence': 'Customer evidence',
  'section.svc.tradeoffs': 'Trade-offs',
  'section.svc.alternatives': 'Alternatives',
  'section.svc.sample_before_launch': 'Sample before launch',
  'section.svc.technical_handoff': 'Technical handoff',
  'section.tech.overview': 'Overview',
  'section.tech.construction_and_materials': 'Construction and materials',
  'section.tech.sizes_and_measurements': 'Sizes and measurements',
  'section.tech.connected_assets': 'Connected assets',
  'section.tech.patterns_and_grading': 'Patterns and grading',
  'section.tech.decoration_geometry': 'Decoration geometry',
  'section.tech.avatar_and_simulation': 'Avatar and simulation',
  'section.tech.customization_and_lineage': 'Customization and lineage',
  'section.tech.manufacturing': 'Manufacturing',
  'section.tech.validation_and_rights': 'Validation and rights',
  'section.tech.commerce_handoff': 'Commerce handoff',

  'part.selectionSummary': 'Selection summary',
  'part.suitableFor': 'Suitable for',
  'part.tradeoffs': 'Trade-offs',
  'part.limitations': 'Limitations',
  'part.faq': 'Questions and answers',
  'part.images': 'Images',
  'part.catalog': 'Catalog',
  'part.measurementTables': 'Measurement tables',
  'part.careInstructions': 'Care instructions',
  'part.data': 'Data',
  'part.claims': 'Claims',
  'part.sources': 'Sources',
  'part.conflicts': 'Conflicts',
  'part.decisions': 'Decisions',
  'part.gaps': 'Research gaps',

  'place.title': 'Title',
  'place.headline': 'Headline',
  'place.summary': 'Summary',
  'place.description': 'Description',
  'place.paragraph': '{place}, paragraph {number}',
  'place.faq': 'Answer {number}',

  'textBlock.fact': 'Fact',
  'textBlock.interpretation': 'Interpretation',
  'textBlock.generic_navigation': 'Navigation',

  'claim.value': 'Value',
  'claim.scope': 'Scope',
  'claim.kind': 'Kind',
  'claim.verification': 'Verification',
  'claim.targets': 'About',
  'claim.references': 'References',
  'claim.derivedFrom': 'Derived from',
  'claim.calculation': 'Calculation',
  'claim.checked': 'Checked',
  'claim.checkNote': 'Check note',
  'claim.conflicts': 'Conflicts',
  'claim.citedBy': 'Cited by',
  'claim.notCited': 'Not cited in the text above.',
  'claim.locator': 'at',
  'claim.unknownSource': 'Unknown source {id}',
  'claim.unknownClaim': 'Unknown claim {id}',
  'claim.noValue': 'No value',
  'claim.id': 'Claim id',

  'source.publisher': 'Publisher',
  'source.type': 'Type',
  'source.access': 'Access',
  'source.accessed': 'Accessed',
  'source.published': 'Published',
  'source.updated': 'Updated',
  'source.independenceGroup': 'Independence group',
  'source.limitations': 'Limitations',
  'source.untitled': 'Untitled source {id}',
  'source.unlinked': 'Address not linkable: {url}',

  'conflict.target': 'About',
  'conflict.resolution': 'Resolution',
  'conflict.selected': 'Selected claim',
  'conflict.noSelection': 'No claim selected',
  'conflict.reason': 'Reason',
  'conflict.followUp': 'Follow-up',

  'decision.scenario': 'Scenario',
  'decision.interpretation': 'Interpretation',
  'decision.brief_assumptions': 'Brief assumptions',
  'decision.hard_requirements': 'Hard requirements',
  'decision.preference_dimensions': 'Preference dimensions',
  'decision.tradeoffs': 'Trade-offs',
  'decision.unknowns': 'Unknowns',
  'decision.claims': 'Claims',
  'decision.alternative_names': 'Alternative names',

  'gap.priority.blocking': 'Blocking',
  'gap.priority.important': 'Important',
  'gap.priority.future': 'Future',
  'gap.target': 'About',
  'gap.reason': 'Reason',
  'gap.impact': 'Impact',
  'gap.nextAction': 'Next action',
  'gap.owner': 'Owner',
  'gap.count.one': '{count} gap',
  'gap.count.many': '{count} gaps',

  'image.alt': '{title}: {kind}, {view} view',
  'image.altColor': '{title}: {kind}, {view} view, {color}',
  'image.unavailable': 'Image address not usable',
  'image.kind': 'Kind',
  'image.view': 'View',
  'image.color': 'Color',

  'catalog.title': 'Title',
  'catalog.sku': 'SKU',
  'catalog.handle': 'Handle',
  'catalog.launch': 'Catalog page',
  'catalog.sizeChart': 'Size chart image',
  'catalog.tableCaption': '{type} ({unit})',
  'catalog.rowLabel': 'Measurement',
  'catalog.range': '{min}–{max}',

  'data.items.one': '{count} item',
  'data.items.many': '{count} items',
  'data.showAll': 'Show all {count}',
  'data.allDetails': 'Every measurement with its method and conditions ({count})',
  'data.sizeChart': 'Size chart: {caption}',
  'data.measurement': 'Measurement',
  'data.none': 'None recorded.',

  'duration.seconds.one': '{count} second',
  'duration.seconds.many': '{count} seconds',
  'duration.minutes.one': '{count} minute',
  'duration.minutes.many': '{count} minutes',
  'duration.hours.one': '{count} hour',
  'duration.hours.many': '{count} hours',
  'value.notStated': 'Not stated',
  'value.yes': 'Yes',
  'value.no': 'No',
  'value.empty': 'None',
  'value.blankText': 'Blank text',
  'value.currencyNotStated': '{amount} (currency not stated)',
  'value.minorUnits': '{amount} minor units (exponent {exponent})',
  'value.range': '{min} to {max}',
  'value.atLeast': '{min} or more',
  'value.atMost': 'up to {max}',
  'value.linkNotShown': '{url} (not linked)',

  'collection.identity': 'Identity',
  'collection.material_profiles': 'Material profiles',
  'collection.colors': 'Colors',
  'collection.size_ranges': 'Size ranges',
  'collection.variants': 'Variants',
  'collection.measurements': 'Measurements',
  'collection.construction': 'Construction',
  'collection.decoration_methods': 'Decoration methods',
  'collection.decoration_placements': 'Decoration placements',
  'collection.provider_listings': 'Provider listings',
  'collection.provider_variants': 'Provider variants',
  'collection.offers': 'Offers',
  'collection.price_components': 'Price components',
  'collection.shipping_options': 'Shipping options',
  'collection.branding_packaging': 'Branding and packaging',
  'collection.reviews': 'Reviews',
  'collection.review_summaries': 'Review summaries',
  'collection.performance_tests': 'Performance tests',
  'collection.certifications': 'Certifications',
  'collection.supply_chain': 'Supply chain',
  'collection.assets': 'Assets',
  'collection.asset_relationships': 'Asset relationships',
  'collection.manufacturing': 'Manufacturing',
  'collection.capabilities': 'Capabilities',
  'collection.additional_facts': 'Additional facts',

  // Field labels where turning snake_case into words would read badly.
  'field.id': 'Id',
  'field.gtin': 'GTIN',
  'field.sha256': 'SHA-256',
  'field.dpi_min': 'Minimum DPI',
  'field.weight_gsm': 'Weight (g/m²)',
  'field.normalized_value_mm': 'Value (mm)',
  'field.uv_sets': 'UV sets',
  'field.svc_public_price_eligible': 'Public price eligible',
  'field.base_amount_minor': 'Base price',
  'field.amount_minor': 'Amount',
  'field.minimum_charge_minor': 'Minimum charge',
  'field.first_item_minor': 'First item',
  'field.additional_item_minor': 'Each additional item',
  'field.manufacturer_url': 'Manufacturer page',
  'field.size_chart_url': 'Size chart',
  'field.product_url': 'Product page',
  'field.price_url': 'Price page',
  'field.template_url': 'Template',
  'field.report_url': 'Report',
  'field.verification_url': 'Verification',
  'field.review_url': 'Review',
  'field.source_url': 'Source',
  'field.license_url': 'License',
  'field.pantone_reference': 'Pantone reference',
  'field.up_axis': 'Up axis',
  'field.podone_product_id': 'Podone product id',
  'field.podtwo_blueprint_ids': 'Podtwo blueprint ids',
  'field.podtwo_print_provider_ids': 'Podtwo print provider ids',
  'field.svc_skus': 'SKUs',
  'field.seed_unit': 'Kind',
  'field.composition': 'Composition',
  'field.face_composition': 'Face composition',

  'enum.decoration_method.dtg': 'DTG (direct to garment)',
  'enum.decoration_method.dtf': 'DTF (direct to film)',
  'enum.decoration_method.cut_and_sew_print': 'Cut-and-sew print',
  'enum.placement_key.chest_left': 'Left chest',
  'enum.placement_key.chest_right': 'Right chest',
  'enum.placement_key.sleeve_left': 'Left sleeve',
  'enum.placement_key.sleeve_right': 'Right sleeve',
  'enum.placement_key.label_inside': 'Inside label',
  'enum.placement_key.label_outside': 'Outside label',
  'enum.placement_key.leg_left': 'Left leg',
  'enum.placement_key.leg_right': 'Right leg',
  'enum.placement_key.all_over': 'All over',
  'enum.platform.podone': 'Podone',
  'enum.platform.podtwo': 'Podtwo',
  'enum.source_type.pod_provider': 'Print-on-demand provider',
  'enum.source_type.provider_api': 'Provider API',
  'enum.access_status.fully_read': 'Fully read',
  'enum.access_status.partially_read': 'Partially read',
  'enum.access_status.snippet_only': 'Snippet only',
  'enum.access_status.not_opened': 'Not opened',
  'enum.claim_kind.source_claim': 'Source claim',
  'enum.claim_kind.user_supplied_fact': 'User-supplied fact',
  'enum.verification.source_checked': 'Checked against source',
  'enum.verification.independently_corroborated': 'Independently corroborated',
  'enum.verification.single_report': 'Single report',
  'enum.verification.not_verified': 'Not verified',
  'enum.resolution.reference_selected': 'Reference selected',
  'enum.resolution.resolved_by_scope': 'Resolved by scope',
  'enum.resolution.resolved_by_correction': 'Resolved by correction',
  'enum.gap_reason.requires_physical_test': 'Requires a physical test',
  'enum.gap_reason.requires_internal_assets': 'Requires internal assets',
  'enum.gap_reason.requires_live_quote': 'Requires a live quote',
  'enum.gap_owner.internal_asset_team': 'Internal asset team',
  'enum.fact_review_status.not_run': 'Not run',
  'enum.seed_unit.podone_native': 'Podone native',
  'enum.seed_unit.podtwo_native': 'Podtwo native',
  'enum.measurement_name.body_length_hps': 'Body length (HPS)',
  // Record pages: key facts, comparable tables, claim previews, citing.
  'keyFacts.heading': 'Key facts',
  'keyFacts.price': 'Price',
  'keyFacts.providerNotStated': 'Provider not stated',
  'keyFacts.priceRange': '{low} to {high}',
  'keyFacts.quantityMin': 'from {count} pieces',
  'keyFacts.observed': '{date}',
  'keyFacts.sizes': 'Sizes',
  'keyFacts.colors': 'Colors',
  'keyFacts.stock': 'Stock',
  'keyFacts.stockCount': '{inStock} of {total} in stock',
  'keyFacts.stockNotListed': 'stock not listed',
  'keyFacts.noneOffered': 'None offered',
  'keyFacts.fibresNotStated': 'Fibres not stated',
  'keyFacts.weightNotStated': 'Weight not stated',
  'keyFacts.constructionNotStated': 'Construction not stated',
  'keyFacts.decoration': 'Decoration',
  'keyFacts.notOffered': 'not {methods}',
  'keyFacts.nextStep': 'Next step',
  'keyFacts.nextStepLink': 'Go to the product',
  'keyFacts.compositionIncomplete': 'composition incomplete',
  'keyFacts.sizeRange': 'Size range',
  'keyFacts.measurePoints': 'Points of measure',
  'keyFacts.pointCount.one': '{count} point',
  'keyFacts.pointCount.many': '{count} points',
  'keyFacts.assets': 'Assets and rights',
  'keyFacts.assetCount.one': '{count} asset: {kinds}',
  'keyFacts.assetCount.many': '{count} assets: {kinds}',
  'keyFacts.rights': 'Redistribution allowed for {redistribution} of {total}, manufacturing for {manufacturing}, training for {training}',
  'offers.provider': 'Provider',
  'offers.size': 'Size',
  'offers.color': 'Color',
  'offers.price': 'Price',
  'offers.basis': 'Basis',
  'offers.quantity': 'Quantity',
  'offers.included': 'Includes',
  'offers.observed': 'Seen',
  'offers.anyVariant': 'Any',
  'offers.blank': 'blank',
  'offers.decoration': 'decoration',
  'offers.placements.one': 'decoration ({count} placement)',
  'offers.placements.many': 'decoration ({count} placements)',
  'offers.shipping': 'shipping',
  'offers.tax': 'tax',
  'offers.excluded': 'not {items}',
  'variants.color': 'Color',
  'variants.notListed': 'Not listed',
  'variants.inStock.one': 'In stock',
  'variants.inStock.many': 'In stock ({count} providers)',
  'variants.outOfStock': 'Out of stock',
  'variants.stockNotStated': 'Stock not stated',
  'variants.inStockSome': 'In stock at {inStock} of {total}',
  'variants.none': 'No such variant',
  'table.scrolls': 'Scroll sideways for more',
  'claim.markers': 'Claims',
  'claim.moreReferences': 'More references',
  'claim.fullEntry': 'Full entry',
  'claim.preview': 'Claim preview',
  'claim.close': 'Close',
  'conflict.values': 'Values',
  'conflict.versus': 'vs',
  'data.item': 'Item',
  'part.evidence': 'The evidence behind this page (in its tables, a dash means not stated).',
  'nav.backToContents': 'Contents',
  'cite.summary': 'Cite this record',
  'cite.plainText': 'Plain text',
  'cite.bibtex': 'BibTeX',
  'cite.copy': 'Copy',
  'cite.copied': 'Copied',
  'cite.text': '{title}. {projection} research record, revision {revision}, published {published}. {site}. {url}',
  'cite.recordKind': '{projection} research record',
  'cite.note': 'Revision {revision}, published {published}',
  'record.aboutResearch': 'About this research',
  'record.aboutResearchLimits': 'Limitations and research details',
  'status.complete.noteWithGaps': 'Research is complete for the stated scope, but it left gaps it could not close.',
  'claim.subjectMore': '{subjects} and {count} more',
  'enum.asset_kind.3d_garment': '3D garment',
  'enum.asset_kind.3d_export': '3D export',
  'enum.asset_kind.tech_pack': 'Tech pack',
} as const;

/** A key of the UI strings. */
export type StringKey = keyof typeof STRINGS;

/** Values for a string's named placeholders. */
export type StringValues = Record<string, string | number>;

/**
 * The UI text for a key, with named placeholders filled.
 * @example t('projection.other', { projection: 'Technical' }) → 'Read the Technical page'
 */
export function t(key: StringKey, values?: StringValues): string {
  const text: string | undefined = STRINGS[key];
  if (text === undefined) throw new Error(`unknown UI string "${key}": add it to STRINGS in src/lib/site/strings.ts`);
  return values ? fill(text, values) : text;
}

/**
 * The UI text for a key that may or may not exist (for keys built from record values).
 * @returns undefined when there is no such key
 */
export function lookup(key: string, values?: StringValues): string | undefined {
  const text = (STRINGS as Record<string, string>)[key];
  return text === undefined || !values ? text : fill(text, values);
}

/**
 * The counted phrase for a base key: `<key>.one` when count is 1, else `<key>.many`; `{count}` is filled.
 * @example tCount('gap.count', 3) → '3 gaps'
 */
export function tCount(baseKey: CountKey, count: number, values: StringValues = {}): string {
  const key = `${baseKey}.${count === 1 ? 'one' : 'many'}` as StringKey;
  return t(key, { count: countFormat.format(count), ...values });
}

/** Counts as `toLocaleString('en')` writes them, without making a formatter per call. */
const countFormat = new Intl.NumberFormat('en');

/** The base keys that have `.one` and `.many` forms. */
export type CountKey = {
  [K in StringKey]: K extends `${infer Base}.one` ? (`${Base}.many` extends StringKey ? Base : never) : never;
}[StringKey];

function fill(text: string, values: StringValues): string {
  let pieces = templates.get(text);
  if (!pieces) templates.set(text, (pieces = text.split(/\{(\w+)\}/)));
  if (pieces.length === 1) return text;
  // Placeholders are replaced in one pass, so a value containing `{name}` is never expanded again.
  let filled = pieces[0]!;
  for (let i = 1; i < pieces.length; i += 2) {
    const name = pieces[i]!;
    filled += `${name in values ? String(values[name]) : `{${name}}`}${pieces[i + 1]}`;
  }
  return filled;
}

/**
 * Each UI string split at its placeholders, once: text at even indexes, placeholder names at odd ones.
 * Keys are the strings of STRINGS, so the cache is as small as the table.
 * @example 'Read the {projection} page' → ['Read the ', 'projection', ' page']
 */
const templates = new Map<string, string[]>();

/**
 * The human heading of a page section; unknown keys are turned into words.
 * @example sectionHeading('svc', 'fit_and_sizing') → 'Fit and sizing'
 */
export function sectionHeading(projection: Projection, section: string): string {
  return lookup(`section.${projection}.${section}`) ?? humanize(section);
}

/** The projection's short name. @example projectionLabel('svc') → 'Commerce' */
export function projectionLabel(projection: Projection): string {
  return t(`projection.${projection}`);
}

/**
 * A snake_case key as words, first letter capitalised.
 * @example humanize('chest_width_flat') → 'Chest width flat'
 */
export function humanize(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
