import type { Links } from '../record/types.ts';
import { fieldLabel } from './format.ts';
import type { KeyFactLine, KeyFactsView } from './key-facts-view.ts';
import {
  codeSpan,
  escapeData,
  facts,
  fieldList,
  linkDestination,
  partsMarkdown,
  table,
  targetMarkdown,
  urlMarkdown,
  withoutBlockStart,
  type Block,
} from './markdown-text.ts';
import { sectionPartKey, type PagePart } from './page-parts.ts';
import type { ClaimLink, ClaimView, CollectionView, PageView, TextBlockView } from './page-view.ts';
import { t, tCount } from './strings.ts';

/**
 * The Markdown of each part of a record page, for its twin (the parts model, page-parts.ts, puts
 * them in order). Each part starts with its `##` heading and writes what the page shows.
 */

/** What every part's Markdown needs: the page's view, and how to cite a claim. */
export interface Twin {
  view: PageView;
  links: Links;
  /** The page's address, to make site-relative links in text absolute. */
  base: string | undefined;
  /** A claim's footnote reference, `[^label]`. */
  ref: (claimId: string) => string;
  /** Footnote references of claims, each once. */
  refs: (claimIds: readonly string[]) => string;
  linkRefs: (links: ClaimLink[]) => string;
  /** A text block as a paragraph, its kind first and its claims after. */
  paragraph: (block: TextBlockView) => string;
  /** A text block as a list item. */
  listItem: (block: TextBlockView) => string;
  /** "None recorded." */
  none: string;
}

const heading = (label: string) => `## ${escapeData(label)}`;

/** The key facts as a list: a fact per line, its lines joined, a fact the record does not state said so. */
export function keyFactsMarkdown(twin: Twin, label: string): Block[] {
  return [heading(label), keyFactsList(twin.view.keyFacts, twin.linkRefs)];
}

/** The key-facts list on its own (the twin's head and the garment page's): each line with its detail, its doubt, its link and its claims. */
export function keyFactsList(view: KeyFactsView, linkRefs: (links: ClaimLink[]) => string): string {
  const lineMarkdown = (line: KeyFactLine) => {
    const text =
      line.href && /^https?:/.test(line.href) ? `[${escapeData(line.text)}](${linkDestination(line.href)})` : escapeData(line.text);
    return [
      text,
      line.detail && `(${escapeData(line.detail)})`,
      line.doubt && `**${escapeData(line.doubt)}**`,
      line.link && `[${escapeData(line.link.text)}](${linkDestination(line.link.href)})`,
      linkRefs(line.claims),
    ]
      .filter(Boolean)
      .join(' ');
  };
  return facts(
    view.rows.map((row) => [
      row.label,
      row.lines.length === 0 ? escapeData(t('value.notStated')) : [...row.lines, ...(row.folded?.lines ?? [])].map(lineMarkdown).join('; '),
    ]),
  );
}

/** A page section: its text blocks, or "None recorded." */
export function sectionMarkdown(twin: Twin, label: string, part: PagePart): Block[] {
  const blocks = twin.view.sections.find((section) => sectionPartKey(section.key) === part.key)?.blocks ?? [];
  return [heading(label), blocks.length ? blocks.map(twin.paragraph).join('\n\n') : twin.none];
}

export function selectionSummaryMarkdown(twin: Twin, label: string): Block[] {
  const summary = twin.view.selectionSummary;
  return [
    heading(label),
    `### ${t('part.suitableFor')}`,
    summary.suitableFor.length ? summary.suitableFor.map(twin.listItem).join('\n') : twin.none,
    `### ${t('part.tradeoffs')}`,
    summary.tradeoffs.length ? summary.tradeoffs.map(twin.listItem).join('\n') : twin.none,
    `### ${t('part.limitations')}`,
    withoutBlockStart(escapeData(summary.limitations)),
  ];
}

export function faqMarkdown(twin: Twin, label: string): Block[] {
  return [heading(label), ...twin.view.faq.flatMap(({ question, answer }) => [`### ${escapeData(question)}`, twin.paragraph(answer)])];
}

export function imagesMarkdown({ view }: Twin, label: string): Block[] {
  return [
    heading(label),
    table(
      [t('image.view'), t('image.kind'), t('image.color'), fieldLabel('url')],
      view.images.map((image) => [
        escapeData(image.view),
        escapeData(image.kind),
        escapeData(image.color ?? t('value.notStated')),
        image.src ? `[${escapeData(image.alt)}](${linkDestination(image.src)})` : escapeData(t('value.linkNotShown', { url: image.url })),
      ]),
    ),
  ];
}

export function catalogMarkdown({ view }: Twin, label: string): Block[] {
  const catalog = view.catalog!;
  const out: Block[] = [heading(label), fieldList(catalog.facts)];
  if (catalog.tables.length) {
    out.push(`### ${t('part.measurementTables')}`);
    for (const measurements of catalog.tables) {
      out.push(
        `#### ${escapeData(measurements.caption)}`,
        table(
          [t('catalog.rowLabel'), ...measurements.sizes],
          measurements.rows.map((row) => [row.label, ...row.cells].map(escapeData)),
        ),
      );
    }
  }
  if (catalog.care.length)
    out.push(`### ${t('part.careInstructions')}`, facts(catalog.care.map((care) => [care.label, escapeData(care.instruction)])));
  return out;
}

export function gapsMarkdown({ view, none }: Twin, label: string): Block[] {
  if (view.gapGroups.length === 0) return [heading(label), none];
  return [
    heading(label),
    ...view.gapGroups.flatMap((group) => [
      `### ${escapeData(group.label)} (${escapeData(tCount('gap.count', group.gaps.length))})`,
      table(
        [t('gap.target'), t('gap.reason'), t('gap.impact'), t('gap.nextAction'), t('gap.owner')],
        group.gaps.map((gap) => [escapeData(gap.subject), ...[gap.reason, gap.impact, gap.nextAction, gap.owner].map(escapeData)]),
      ),
    ]),
  ];
}

export function dataMarkdown({ view, none, linkRefs }: Twin, label: string): Block[] {
  const out: Block[] = [heading(label)];
  if (view.identity.length) out.push(`### ${t('collection.identity')}`, fieldList(view.identity));
  if (view.seed.length) out.push(`### ${t('record.seed')}`, fieldList(view.seed));
  for (const collection of view.collections) out.push(...collectionMarkdown(collection, linkRefs));
  if (view.emptyCollections.length) out.push(`${none} ${escapeData(view.emptyCollections.join(', '))}.`);
  return out;
}

export function conflictsMarkdown({ view, linkRefs }: Twin, label: string): Block[] {
  return [
    heading(label),
    ...view.conflicts.flatMap((conflict) => [
      `### ${escapeData(conflict.subject)}`,
      facts([
        [
          t('conflict.values'),
          conflict.values.map((v) => `${escapeData(v.value)} ${linkRefs([v.claim])}`).join(` ${escapeData(t('conflict.versus'))} `) || null,
        ],
        [t('conflict.target'), targetMarkdown(conflict.target)],
        [t('conflict.resolution'), escapeData(conflict.resolution)],
        [t('conflict.selected'), conflict.selected ? linkRefs([conflict.selected]) : escapeData(t('conflict.noSelection'))],
        [t('conflict.reason'), escapeData(conflict.reason)],
        [t('conflict.followUp'), conflict.followUp && escapeData(conflict.followUp)],
      ]),
    ]),
  ];
}

export function decisionsMarkdown({ view, linkRefs }: Twin, label: string): Block[] {
  return [
    heading(label),
    ...view.decisions.flatMap((decision) => [
      `### ${escapeData(decision.scenario)}`,
      facts([
        [t('decision.interpretation'), escapeData(decision.interpretation)],
        ...decision.lists.map(({ label: listLabel, items }): [string, string] => [listLabel, items.map(escapeData).join('; ')]),
        [t('decision.claims'), decision.claims.length ? linkRefs(decision.claims) : null],
      ]),
    ]),
  ];
}

export function claimsMarkdown({ view, ref, none }: Twin, label: string): Block[] {
  return [
    heading(label),
    view.claims.length
      ? table(
          [t('claim.id'), t('claim.targets'), t('claim.value'), t('claim.verification')],
          view.claims.map((claim) => [
            `${escapeData(claim.id)} ${ref(claim.id)}`,
            escapeData(claim.subject),
            escapeData(claim.value),
            escapeData(claim.verificationLabel),
          ]),
        )
      : none,
  ];
}

export function sourcesMarkdown({ view, none }: Twin, label: string): Block[] {
  if (view.sources.length === 0) return [heading(label), none];
  return [
    heading(label),
    ...view.sources.flatMap((source) => {
      const address = source.url
        ? urlMarkdown(source.url)
        : source.unlinkedUrl
          ? escapeData(t('value.linkNotShown', { url: source.unlinkedUrl }))
          : null;
      return [
        `### ${escapeData(source.title)}`,
        facts([
          [fieldLabel('id'), escapeData(source.id)],
          [fieldLabel('url'), address],
        ]) + (source.facts.length ? `\n${fieldList(source.facts)}` : ''),
      ];
    }),
  ];
}

/** A collection as the page shows it: size charts first where it has them, then a table for few fields, else one entry per item. */
function collectionMarkdown(collection: CollectionView, linkRefs: (links: ClaimLink[]) => string): Block[] {
  const heading = `### ${escapeData(collection.heading)} (${escapeData(tCount('data.items', collection.items.length))})`;
  const charts = (collection.grids ?? []).flatMap((grid) => [
    `#### ${escapeData(t('data.sizeChart', { caption: grid.caption }))}`,
    table(
      [t('data.measurement'), ...grid.sizes],
      grid.rows.map((row) => [
        escapeData(row.label),
        ...row.cells.map((cell) => (cell ? `${escapeData(cell.text)} ${linkRefs(cell.claims)}`.trim() : escapeData(t('value.notStated')))),
      ]),
    ),
  ]);
  const withClaims = collection.items.some((item) => item.claims.length > 0);
  if (collection.layout === 'table') {
    const header = [fieldLabel('id'), ...collection.columns.map((column) => column.label), ...(withClaims ? [t('part.claims')] : [])];
    const notStated = escapeData(t('value.notStated'));
    const rows = collection.items.map((item) => [
      codeSpan(item.id),
      ...item.cells.map((field) => (field ? partsMarkdown(field.parts, true) : notStated)),
      ...(withClaims ? [linkRefs(item.claims)] : []),
    ]);
    return [heading, ...charts, table(header, rows)];
  }
  return [
    heading,
    ...charts,
    ...collection.items.map((item) => {
      const title = item.title === item.id ? codeSpan(item.id) : `${escapeData(item.title)} ${codeSpan(item.id)}`;
      const claims = item.claims.length ? `\n- **${escapeData(t('part.claims'))}**: ${linkRefs(item.claims)}` : '';
      return `#### ${title}\n\n${fieldList(item.fields)}${claims}`;
    }),
  ];
}

/** A claim's footnote definition: value with its unit, scope, kind, verification, then each source reference. */
export function claimFootnote(claim: ClaimView, label: string, ref: (id: string) => string): string {
  const details = [
    [t('claim.scope'), escapeData(claim.scope)],
    [t('claim.kind'), escapeData(claim.kindLabel)],
    [t('claim.verification'), escapeData(claim.verificationLabel)],
    [t('claim.targets'), claim.targets.map(targetMarkdown).join(', ')],
    [t('claim.derivedFrom'), claim.derivedFrom.map((d) => ('id' in d ? ref(d.id) : escapeData(d.text))).join(' ')],
    [t('claim.calculation'), claim.calculation && escapeData(claim.calculation)],
    [t('claim.checked'), claim.checkedAt && escapeData(claim.checkedAt)],
    [t('claim.checkNote'), claim.checkNote && escapeData(claim.checkNote)],
  ].filter(([, value]) => value);
  const head = `[^${label}]: **${escapeData(claim.id)}**: ${escapeData(claim.subject)}: ${escapeData(claim.value)}. ${details.map(([name, value]) => `${name}: ${value}`).join('. ')}.`;
  if (claim.references.length === 0) return head;
  const references = claim.references.map((reference) => {
    const source = reference.url
      ? `[${escapeData(reference.sourceTitle)}](${linkDestination(reference.url)})`
      : withoutBlockStart(escapeData(reference.sourceTitle));
    const excerpt = reference.excerpt ? `: “${escapeData(reference.excerpt)}”` : '';
    return `    - ${source}, ${escapeData(t('claim.locator'))} ${escapeData(reference.locator)}${excerpt}`;
  });
  return `${head}\n\n    ${t('claim.references')}:\n\n${references.join('\n')}`;
}
