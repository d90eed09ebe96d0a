import type { Links } from '../record/types.ts';
import { unicodeEscape } from '../unicode.ts';
import {
  catalogMarkdown,
  claimFootnote,
  claimsMarkdown,
  conflictsMarkdown,
  dataMarkdown,
  decisionsMarkdown,
  faqMarkdown,
  gapsMarkdown,
  imagesMarkdown,
  keyFactsMarkdown,
  sectionMarkdown,
  selectionSummaryMarkdown,
  sourcesMarkdown,
  type Twin,
} from './markdown-parts.ts';
import {
  codeSpan,
  escapeData,
  facts,
  indented,
  inlineMarkdown,
  oneLine,
  textBlockLines,
  withKind,
  withRefs,
  type Block,
} from './markdown-text.ts';
import { partKind, type PagePart } from './page-parts.ts';
import type { ClaimLink, PageView, TextBlockView } from './page-view.ts';
import { t } from './strings.ts';

/** Each part's Markdown, by its kind (page-parts.ts), from the page's view alone. */
const PART_MARKDOWN: Record<string, (twin: Twin, label: string, part: PagePart) => Block[]> = {
  'key-facts': keyFactsMarkdown,
  section: sectionMarkdown,
  selection_summary: selectionSummaryMarkdown,
  faq: faqMarkdown,
  images: imagesMarkdown,
  catalog: catalogMarkdown,
  gaps: gapsMarkdown,
  data: dataMarkdown,
  conflicts: conflictsMarkdown,
  decisions: decisionsMarkdown,
  claims: claimsMarkdown,
  sources: sourcesMarkdown,
};

/** Parts the twin writes even when the page leaves them out, saying there is none. */
const WRITTEN_WHEN_EMPTY = new Set(['section', 'gaps', 'claims', 'sources']);

/**
 * The Markdown twin of a record, from its page's view: YAML front matter, the title and the record's facts, then every
 * part of the page in the parts model's order (page-parts.ts: key facts, sections, summary, …,
 * sources), with claims as GFM footnotes, formatted as the page formats it. Record text is
 * untrusted: text blocks keep their inline Markdown, but nothing in them can start a block
 * (heading, list, table, quote, HTML, footnote definition) or end the front matter. The text comes in pieces, a block each, to be written one after another.
 */
export function recordMarkdown(view: PageView, links: Links): string[] {
  const labels = footnoteLabels(
    view.claims
      .slice()
      .sort((a, b) => a.position - b.position)
      .map((claim) => claim.id),
  );
  const ref = (claimId: string) => {
    const label = labels.get(claimId);
    return label ? `[^${label}]` : escapeData(t('claim.unknownClaim', { id: claimId }));
  };
  const refs = (claimIds: readonly string[]) => [...new Set(claimIds)].map(ref).join(' ');
  const base = links.page ?? undefined;
  // Each block says its kind first, as on the page: a reader tells fact from interpretation.
  const blockLines = (block: TextBlockView) =>
    withKind(block.kindLabel, withRefs(textBlockLines(block.markdown, base), refs(block.claimIds)));
  const twin: Twin = {
    view,
    links,
    base,
    ref,
    refs,
    linkRefs: (claimLinks: ClaimLink[]) => refs(claimLinks.map((link) => link.id)),
    paragraph: (block) => blockLines(block).join('\n'),
    listItem: (block) => indented('- ', blockLines(block)),
    none: escapeData(t('data.none')),
  };

  const out: Block[] = [frontMatter(view, links)];
  // The title as the record writes it (its Markdown kept), or as the page falls back when it is blank.
  const { writtenTitle } = view;
  const title = writtenTitle?.markdown.trim() ? oneLine(inlineMarkdown(writtenTitle.markdown, base)) : escapeData(view.title);
  out.push(`# ${title}${writtenTitle ? ` ${refs(writtenTitle.claimIds)}` : ''}`);
  // Every text block appears, even a description the page leaves out for repeating the headline.
  for (const block of [view.headline, view.summary, view.description ?? view.repeatedDescription])
    if (block) out.push(twin.paragraph(block));
  const { research } = view;
  out.push(
    facts([
      [t('projection.label'), escapeData(view.projectionLabel)],
      [t('record.revision'), escapeData(view.revision)],
      [t('record.id'), research.recordId && codeSpan(research.recordId)],
      [t('record.defaults'), escapeData(research.defaults)],
      [t('record.published'), escapeData(view.published.text)],
      [t('record.researchStatus'), escapeData([research.statusLabel, research.note].filter(Boolean).join('. '))],
      [t('record.factReview'), escapeData(research.factReview)],
      [t('record.identity'), escapeData(t(research.identityResolved ? 'record.identityResolved' : 'record.identityUnresolved'))],
      [t('record.researchPeriod'), escapeData(research.period)],
      [t('record.scopeNote'), escapeData(research.scopeNote)],
      [t('record.productInput'), escapeData(research.productInput)],
      [t('record.limitations'), research.limitations && escapeData(research.limitations)],
      [t('part.gaps'), research.gapSummary && escapeData(research.gapSummary)],
    ]),
    `> ${escapeData(t('site.footer'))}`,
  );

  for (const part of view.parts)
    if (part.shown || WRITTEN_WHEN_EMPTY.has(partKind(part))) out.push(...PART_MARKDOWN[partKind(part)]!(twin, part.label, part));

  // Definitions last, in the page's claim order; every one is referenced from the claims table.
  out.push(...view.claims.map((claim) => claimFootnote(claim, labels.get(claim.id)!, ref)));
  return out.flatMap((block, i) => {
    const pieces = typeof block === 'string' ? [block] : block;
    return [...pieces.slice(0, -1), `${pieces.at(-1)}${i < out.length - 1 ? '\n\n' : '\n'}`];
  });
}

function frontMatter(view: PageView, links: Links): string {
  const fields = {
    schema_version: view.schemaVersion,
    slug: view.slug,
    projection: view.projection,
    title: view.title,
    record_revision: view.revision,
    published_at: view.published.value,
    research_status: view.research.status,
    links,
  };
  return `---\n${frontMatterYaml(fields)}---`;
}

/** Front matter fields: strings (or null), and one level of nested fields (`links`). */
type FrontMatterFields = Record<string, string | null | object>;

/**
 * Front matter fields as YAML, every string double-quoted, so YAML 1.1 readers too see strings,
 * never a date or a boolean (`published_at`, a slug like `no`), and each value on its key's line.
 * @example frontMatterYaml({ slug: 'tee', links: { page: null } }) → 'slug: "tee"\nlinks:\n  page: null\n'
 */
export function frontMatterYaml(fields: FrontMatterFields): string {
  let yaml = '';
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || typeof value === 'string') {
      yaml += `${key}: ${yamlScalar(value)}\n`;
      continue;
    }
    const nested = Object.entries(value as Record<string, string | null>);
    yaml += nested.length === 0 ? `${key}: {}\n` : `${key}:\n`;
    for (const [nestedKey, nestedValue] of nested) yaml += `  ${nestedKey}: ${yamlScalar(nestedValue)}\n`;
  }
  return yaml;
}

/**
 * A string as a double-quoted YAML scalar, or null. JSON's escapes are YAML's; what YAML does not
 * allow as a character (DEL, C1 controls, U+FFFE, U+FFFF), or YAML 1.1 reads as a line break
 * (NEL, U+2028, U+2029), is escaped too.
 */
function yamlScalar(value: string | null): string {
  if (value === null) return 'null';
  return JSON.stringify(value).replace(NOT_YAML_PRINTABLE, unicodeEscape);
}

const NOT_YAML_PRINTABLE = /[\x7F-\x9F\u2028\u2029\uFFFE\uFFFF]/g;

/**
 * Footnote labels for claim ids: the id itself when it is a safe label and unique regardless of
 * case (GFM matches labels case-insensitively), else `claim-<n>` with n its 1-based position.
 * @example footnoteLabels(['c1', 'a b']) → Map { 'c1' → 'c1', 'a b' → 'claim-2' }
 */
export function footnoteLabels(claimIds: string[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const id of claimIds) counts.set(id.toLowerCase(), (counts.get(id.toLowerCase()) ?? 0) + 1);
  const labels = new Map<string, string>();
  const taken = new Set(claimIds.filter((id) => SAFE_LABEL.test(id)).map((id) => id.toLowerCase()));
  claimIds.forEach((id, i) => {
    if (labels.has(id)) return;
    if (SAFE_LABEL.test(id) && counts.get(id.toLowerCase()) === 1) {
      labels.set(id, id);
      return;
    }
    let label = `claim-${i + 1}`;
    while (taken.has(label)) label = `${label}-${i + 1}`;
    taken.add(label);
    labels.set(id, label);
  });
  return labels;
}

const SAFE_LABEL = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
