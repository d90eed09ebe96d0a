import { Lexer, type Token, type Tokens } from 'marked';
import type { GarmentRecord, Links, TextBlock } from '../record/types.ts';
import { BIDI_FORMATTING, unicodeEscape } from '../unicode.ts';
import { fieldLabel } from './format.ts';
import { pageView, type ClaimLink, type ClaimView, type CollectionView, type FieldView, type PageView, type Part, type TargetView } from './page-view.ts';
import { SECTION_ORDER, sectionHeading, t, tCount } from './strings.ts';
import { closeBidi, FORBIDDEN_IN_HTML, readsMarkdown, safeHref, withoutForbiddenCharacters } from './text.ts';

/**
 * The Markdown twin of a record: YAML front matter, the page's text in order with claims as GFM
 * footnotes, then what the page shows (images, catalog, gaps, data, conflicts, decisions, claims,
 * sources), formatted as the page formats it. Record text is untrusted: text blocks keep their
 * inline Markdown, but nothing in them can start a block (heading, list, table, quote, HTML,
 * footnote definition) or end the front matter. `view` is the record page's view, when already built.
 * The text comes in pieces, a block each, to be written one after another.
 */
export function recordMarkdown(record: GarmentRecord, links: Links, view: PageView = pageView(record, { otherProjectionExists: links.other_projection !== null })): string[] {
  const labels = footnoteLabels(record.claims.map((claim) => claim.id));
  const ref = (claimId: string) => {
    const label = labels.get(claimId);
    return label ? `[^${label}]` : escapeData(t('claim.unknownClaim', { id: claimId }));
  };
  const refs = (claimIds: string[]) => [...new Set(claimIds)].map(ref).join(' ');
  const linkRefs = (claimLinks: ClaimLink[]) => refs(claimLinks.map((link) => link.id));
  const base = links.page ?? undefined;
  // Each block says its kind first, as on the page: a reader tells fact from interpretation.
  const blockLines = (block: TextBlock) => withKind(t(`textBlock.${block.kind}`), withRefs(textBlockLines(block.text, base), refs(block.claim_ids)));
  const paragraph = (block: TextBlock) => blockLines(block).join('\n');
  const listItem = (block: TextBlock) => indented('- ', blockLines(block));
  const none = escapeData(t('data.none'));

  const { page } = record;
  const out: Block[] = [frontMatter(record, view, links)];
  // The title as the record writes it (its Markdown kept), or as the page falls back when it is blank.
  const title = page.title?.text.trim() ? oneLine(inlineMarkdown(page.title.text, base)) : escapeData(view.title);
  out.push(`# ${title}${page.title ? ` ${refs(page.title.claim_ids)}` : ''}`);
  // Every text block appears, even a description the page leaves out for repeating the headline.
  for (const block of [page.headline, page.summary, page.description]) if (block) out.push(paragraph(block));
  if (view.callToAction) out.push(`**${t('record.callToAction')}:** ${escapeData(view.callToAction)}`);
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

  // Every section in the specification's order, an empty one marked as such.
  const sections = page.sections as unknown as Record<string, TextBlock[]>;
  for (const key of SECTION_ORDER[record.projection]) {
    const blocks = sections[key] ?? [];
    out.push(`## ${escapeData(sectionHeading(record.projection, key))}`, blocks.length ? blocks.map(paragraph).join('\n\n') : none);
  }

  const summary = record.selection_summary;
  out.push(
    `## ${t('part.selectionSummary')}`,
    `### ${t('part.suitableFor')}`,
    summary.suitable_for.length ? summary.suitable_for.map(listItem).join('\n') : none,
    `### ${t('part.tradeoffs')}`,
    summary.tradeoffs.length ? summary.tradeoffs.map(listItem).join('\n') : none,
    `### ${t('part.limitations')}`,
    withoutBlockStart(escapeData(summary.limitations)),
  );

  if (page.faq.length) {
    out.push(`## ${t('part.faq')}`);
    for (const { question, answer } of page.faq) out.push(`### ${escapeData(question)}`, paragraph(answer));
  }

  if (view.images.length) {
    out.push(
      `## ${t('part.images')}`,
      table(
        [t('image.view'), t('image.kind'), t('image.color'), fieldLabel('url')],
        view.images.map((image, i) => [
          escapeData(image.view),
          escapeData(image.kind),
          escapeData(image.color ?? t('value.notStated')),
          image.src ? `[${escapeData(image.alt)}](${linkDestination(image.src)})` : escapeData(t('value.linkNotShown', { url: record.images[i]!.url })),
        ]),
      ),
    );
  }

  if (view.catalog) {
    out.push(`## ${t('part.catalog')}`, fieldList(view.catalog.facts));
    if (view.catalog.tables.length) {
      out.push(`### ${t('part.measurementTables')}`);
      for (const measurements of view.catalog.tables) {
        out.push(
          `#### ${escapeData(measurements.caption)}`,
          table([t('catalog.rowLabel'), ...measurements.sizes], measurements.rows.map((row) => [row.label, ...row.cells].map(escapeData))),
        );
      }
    }
    if (view.catalog.care.length) {
      out.push(`### ${t('part.careInstructions')}`, facts(view.catalog.care.map((care) => [care.label, escapeData(care.instruction)])));
    }
  }

  out.push(`## ${t('part.gaps')}`);
  if (view.gapGroups.length === 0) out.push(none);
  for (const group of view.gapGroups) {
    out.push(
      `### ${escapeData(group.label)} (${escapeData(tCount('gap.count', group.gaps.length))})`,
      table(
        [t('gap.target'), t('gap.reason'), t('gap.impact'), t('gap.nextAction'), t('gap.owner')],
        group.gaps.map((gap) => [targetMarkdown(gap.target), ...[gap.reason, gap.impact, gap.nextAction, gap.owner].map(escapeData)]),
      ),
    );
  }

  out.push(`## ${t('part.data')}`);
  if (view.identity.length) out.push(`### ${t('collection.identity')}`, fieldList(view.identity));
  if (view.seed.length) out.push(`### ${t('record.seed')}`, fieldList(view.seed));
  for (const collection of view.collections) out.push(...collectionMarkdown(collection, linkRefs));
  if (view.emptyCollections.length) out.push(`${none} ${escapeData(view.emptyCollections.join(', '))}.`);

  if (view.conflicts.length) {
    out.push(`## ${t('part.conflicts')}`);
    for (const conflict of view.conflicts) {
      out.push(
        `### ${escapeData(conflict.id)}`,
        facts([
          [t('conflict.target'), targetMarkdown(conflict.target)],
          [t('conflict.resolution'), escapeData(conflict.resolution)],
          [t('conflict.claims'), conflict.claims.length ? linkRefs(conflict.claims) : null],
          [t('conflict.selected'), conflict.selected ? linkRefs([conflict.selected]) : escapeData(t('conflict.noSelection'))],
          [t('conflict.reason'), escapeData(conflict.reason)],
          [t('conflict.followUp'), conflict.followUp && escapeData(conflict.followUp)],
        ]),
      );
    }
  }

  if (view.decisions.length) {
    out.push(`## ${t('part.decisions')}`);
    for (const decision of view.decisions) {
      out.push(
        `### ${escapeData(decision.id)}`,
        facts([
          [t('decision.scenario'), escapeData(decision.scenario)],
          [t('decision.interpretation'), escapeData(decision.interpretation)],
          ...decision.lists.map(({ label, items }): [string, string] => [label, items.map(escapeData).join('; ')]),
          [t('decision.claims'), decision.claims.length ? linkRefs(decision.claims) : null],
        ]),
      );
    }
  }

  out.push(`## ${t('part.claims')}`);
  out.push(
    view.claims.length
      ? table(
          [t('claim.id'), t('claim.targets'), t('claim.value'), t('claim.verification')],
          view.claims.map((claim) => [
            `${escapeData(claim.id)} ${ref(claim.id)}`,
            claim.targets.map(targetMarkdown).join(', '),
            escapeData(claimValue(claim)),
            escapeData(claim.verificationLabel),
          ]),
        )
      : none,
  );

  out.push(`## ${t('part.sources')}`);
  if (view.sources.length === 0) out.push(none);
  for (const source of view.sources) {
    const address = source.url ? urlMarkdown(source.url) : source.unlinkedUrl ? escapeData(t('value.linkNotShown', { url: source.unlinkedUrl })) : null;
    out.push(`### ${escapeData(source.title)}`, facts([[fieldLabel('id'), escapeData(source.id)], [fieldLabel('url'), address]]) + (source.facts.length ? `\n${fieldList(source.facts)}` : ''));
  }

  // Definitions last, in the page's claim order; every one is referenced from the claims table.
  out.push(...view.claims.map((claim) => claimFootnote(claim, labels.get(claim.id)!, ref)));
  return out.flatMap((block, i) => {
    const pieces = typeof block === 'string' ? [block] : block;
    return [...pieces.slice(0, -1), `${pieces.at(-1)}${i < out.length - 1 ? '\n\n' : '\n'}`];
  });
}

/** A block of the twin (blocks are separated by a blank line): its text, or its text in pieces. */
type Block = string | readonly string[];

function frontMatter(record: GarmentRecord, view: PageView, links: Links): string {
  const fields = {
    schema_version: record.schema_version,
    slug: record.slug,
    projection: record.projection,
    title: view.title,
    record_revision: record.record_revision,
    published_at: record.published_at,
    research_status: record.research.status,
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

/**
 * Plain data (not Markdown) as inline Markdown that renders exactly as given, on one line:
 * syntax characters are backslash-escaped, `&` before an entity name is escaped, line breaks
 * become spaces, and characters HTML forbids become U+FFFD as on the page. Safe in a table
 * cell, a list item or a heading.
 * @example escapeData('a|b *c* <i>') → 'a\\|b \\*c\\* \\<i>'
 */
export function escapeData(value: string): string {
  // Most values (names, numbers, labels) hold nothing to escape: one cheap test spares the full expression.
  if (!MAY_NEED_ESCAPES.test(value)) return value.trim();
  return closeBidi(value.replace(DATA_ESCAPES, (match) => (/[\r\n]/.test(match) ? ' ' : FORBIDDEN_CHARACTER.test(match) ? '\uFFFD' : `\\${match}`)).trim());
}

// One pass each, since every string of a record goes through them. Escaped: inline syntax
// characters (`>` only matters at the start of a line, which these strings never take); `&` before
// an entity name (data only: in text blocks entities render as on the page); and the `:` of
// `http://` and the `.` of `www.`, which stops micromark's GFM from autolinking a bare address (a
// parser that links addresses found in the parsed text, as remark's GFM does, still links it, to an
// http(s) or mailto address only). In data, line breaks and the space around them become one space.
const URL_START = String.raw`(?<=\b(?:https?|ftp)):(?=//)|(?<=\bwww)\.`;
// Data and literal text are plain text on the page, so their `@` is escaped too: no mailto autolink.
const DATA_ESCAPES = new RegExp(String.raw`[\\\`*_[\]<|~#@${FORBIDDEN_IN_HTML}]|&(?=#?[A-Za-z0-9]+;)|${URL_START}|\s*(?:\r\n|\r|\n)\s*`, 'gi');
// Matches wherever DATA_ESCAPES could: at each of its characters, any `&`, `://` and `www.`.
const MAY_NEED_ESCAPES = new RegExp(String.raw`[\\\`*_[\]<|~#@&\r\n${FORBIDDEN_IN_HTML}${BIDI_FORMATTING}]|:\/\/|www\.`, 'i');
const FORBIDDEN_CHARACTER = new RegExp(`[${FORBIDDEN_IN_HTML}]`);
const TEXT_ESCAPES = new RegExp(String.raw`[\\\`*_[\]<|~#!]|${URL_START}`, 'gi');
// Text shown as plain text escapes an entity's `&` too: on the page, `&amp;` reads as written.
const LITERAL_TEXT_ESCAPES = new RegExp(String.raw`${TEXT_ESCAPES.source}|&(?=#?[A-Za-z0-9]+;)|@`, 'gi');

/**
 * A text block's light Markdown with only inline syntax left: emphasis, code, strikethrough and
 * safe links are kept (site-relative links made absolute from `base`); raw HTML and everything the
 * page's renderer treats as plain text is escaped; images become their alt text and unsafe links
 * their label, as on the page. Line breaks are kept: see {@link textBlockLines}.
 */
function inlineMarkdown(raw: string, base?: string): string {
  const text = withoutForbiddenCharacters(raw);
  return readsMarkdown(text) ? serializeInline(Lexer.lexInline(text, { gfm: true }), base) : text.replace(LITERAL_TEXT_ESCAPES, '\\$&');
}

/**
 * A text block as paragraph lines that cannot start any block construct: blank lines dropped,
 * surrounding whitespace trimmed, and a line that would begin a heading, quote, list, table row,
 * thematic break or setext underline gets its first character escaped.
 * @example textBlockLines('# Big\n\n- item') → ['\\# Big', '\\- item']
 */
export function textBlockLines(text: string, base?: string): string[] {
  return inlineMarkdown(text, base)
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    // Closed line by line: formatting left open would reorder the claim references after it.
    .map((line) => withoutBlockStart(closeBidi(line)));
}

/**
 * A line that cannot start a block construct: a first character that would begin a heading,
 * quote, list, table row, thematic break or setext underline is escaped.
 * @example withoutBlockStart('1. item') → '1\\. item'
 */
function withoutBlockStart(line: string): string {
  return /^[#>|\-+=:]/.test(line) ? `\\${line}` : line.replace(/^(\d{1,9})([.)])/, '$1\\$2');
}

function serializeInline(tokens: Token[], base: string | undefined): string {
  return tokens.map((token) => serializeToken(token, base)).join('');
}

function serializeToken(token: Token, base: string | undefined): string {
  switch (token.type) {
    case 'escape':
      return token.raw;
    case 'codespan':
      // Literal already; on one line it can never open a fenced code block (CommonMark turns
      // line breaks inside code spans into spaces anyway).
      return token.raw.replace(/\s*(?:\r\n|\r|\n)\s*/g, ' ');
    case 'strong':
    case 'em':
    case 'del': {
      // Emphasis takes one mark, strong two, strikethrough what it was written with (`***a***` is em around strong).
      const delimiter = token.type === 'em' ? token.raw[0]! : token.type === 'strong' ? token.raw.slice(0, 2) : (/^~~?/.exec(token.raw)?.[0] ?? '~');
      return `${delimiter}${serializeInline((token as Tokens.Strong).tokens, base)}${delimiter}`;
    }
    case 'link': {
      const link = token as Tokens.Link;
      const label = serializeInline(link.tokens, base);
      const href = safeHref(link.href);
      if (!href) return label;
      return `[${label}](${linkDestination(base && /^[/#]/.test(href) ? new URL(href, base).href : href)})`;
    }
    case 'image':
      return (token as Tokens.Image).text.replace(TEXT_ESCAPES, '\\$&');
    case 'br':
      return '\\\n';
    default:
      // Plain text, raw HTML and anything else: shown as the characters it is.
      return token.raw.replace(TEXT_ESCAPES, '\\$&');
  }
}

/** A link destination in angle brackets; characters that could end it or split a table cell are percent-encoded. */
function linkDestination(href: string): string {
  return `<${href.trim().replace(/[\s<>\\|]/g, (ch) => encodeURIComponent(ch))}>`;
}

function urlMarkdown(url: string): string {
  return `[${escapeData(url)}](${linkDestination(url)})`;
}

function oneLine(text: string): string {
  return text.replace(/\s*(?:\r\n|\r|\n)\s*/g, ' ').trim();
}

/** Claim references after the last line of a paragraph (or on their own line). */
function withRefs(lines: string[], refs: string): string[] {
  if (!refs) return lines;
  if (lines.length === 0) return [refs];
  return [...lines.slice(0, -1), `${lines.at(-1)} ${refs}`];
}

/** A paragraph's lines led by its kind: `*Fact:* …`. */
function withKind(kind: string, lines: string[]): string[] {
  const label = `*${escapeData(kind)}:*`;
  return lines.length === 0 ? [label] : [`${label} ${lines[0]}`, ...lines.slice(1)];
}

/** A list item whose continuation lines stay inside the item. */
function indented(marker: string, lines: string[]): string {
  return lines.map((line, i) => `${i === 0 ? marker : ' '.repeat(marker.length)}${line}`).join('\n');
}

/** A bullet list of `**label**: value` lines, values already Markdown; empty values are left out. */
function facts(rows: [string, string | null | undefined][]): string {
  let list = '';
  for (const [label, value] of rows) if (value) list += fact(label, value, list);
  return list;
}

/** The fields of an item or a source as {@link facts}, without building the rows first (a twin lists thousands). */
function fieldList(fields: FieldView[]): string {
  let list = '';
  for (const field of fields) {
    const value = partsMarkdown(field.parts, false);
    if (value) list += fact(field.label, value, list);
  }
  return list;
}

/** One `- **label**: value` line, after a line break unless it starts the list. */
function fact(label: string, value: string, listSoFar: string): string {
  return `${listSoFar ? '\n' : ''}- **${escapeData(label)}**: ${value}`;
}

/** A GFM table, in pieces of ROWS_PER_PIECE lines: a table of hundreds of rows is never one long string. Cells are Markdown already. */
function table(header: string[], rows: string[][]): string[] {
  const line = (cells: string[]) => `| ${cells.map((cell) => cell || ' ').join(' | ')} |`;
  const lines = [line(header.map(escapeData)), line(header.map(() => '---')), ...rows.map(line)];
  const pieces: string[] = [];
  for (let start = 0; start < lines.length; start += ROWS_PER_PIECE) {
    const end = start + ROWS_PER_PIECE;
    pieces.push(`${lines.slice(start, end).join('\n')}${end < lines.length ? '\n' : ''}`);
  }
  return pieces;
}

const ROWS_PER_PIECE = 20;

/** A displayed value as Markdown: text escaped, external links kept, links within the page as text, code as code. */
function partsMarkdown(parts: Part[], inTable: boolean): string {
  let markdown = '';
  for (let i = 0; i < parts.length; i++) markdown += `${i > 0 ? ', ' : ''}${partMarkdown(parts[i]!, inTable)}`;
  return markdown;
}

function partMarkdown(part: Part, inTable: boolean): string {
  if (part.kind === 'link' && part.external) return `[${escapeData(part.text)}](${linkDestination(part.href)})`;
  // In a table GFM unescapes `\|` even inside code, so the cell cannot split.
  if (part.kind === 'code') {
    const code = part.text.replace(/\r\n|\r|\n/g, ' ');
    return codeSpan(inTable ? code.replace(/\|/g, '\\|') : code);
  }
  return escapeData(part.text);
}

/** A collection as the page shows it: size charts first where it has them, then a table for few fields, else one entry per item. */
function collectionMarkdown(collection: CollectionView, linkRefs: (links: ClaimLink[]) => string): Block[] {
  const heading = `### ${escapeData(collection.heading)} (${escapeData(tCount('data.items', collection.items.length))})`;
  const charts = (collection.grids ?? []).flatMap((grid) => [
    `#### ${escapeData(t('data.sizeChart', { caption: grid.caption }))}`,
    table(
      [t('data.measurement'), ...grid.sizes],
      grid.rows.map((row) => [escapeData(row.label), ...row.cells.map((cell) => (cell ? `${escapeData(cell.text)} ${linkRefs(cell.claims)}`.trim() : escapeData(t('value.notStated'))))]),
    ),
  ]);
  const withClaims = collection.items.some((item) => item.claims.length > 0);
  if (collection.layout === 'table') {
    const header = [fieldLabel('id'), ...collection.columns.map((column) => column.label), ...(withClaims ? [t('part.claims')] : [])];
    const notStated = escapeData(t('value.notStated'));
    const rows = collection.items.map((item) => [
      codeSpan(item.id),
      ...collection.columns.map((column) => {
        const field = item.fields.find((f) => f.name === column.name);
        return field ? partsMarkdown(field.parts, true) : notStated;
      }),
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

function targetMarkdown(target: TargetView): string {
  return escapeData(target.text);
}

function claimValue(claim: ClaimView): string {
  return claim.unit ? `${claim.value} ${claim.unit}` : claim.value;
}

/** A claim's footnote definition: value, unit, scope, kind, verification, then each source reference. */
function claimFootnote(claim: ClaimView, label: string, ref: (id: string) => string): string {
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
  const head = `[^${label}]: **${escapeData(claim.id)}**: ${escapeData(claimValue(claim))}. ${details.map(([name, value]) => `${name}: ${value}`).join('. ')}.`;
  if (claim.references.length === 0) return head;
  const references = claim.references.map((reference) => {
    const source = reference.url ? `[${escapeData(reference.sourceTitle)}](${linkDestination(reference.url)})` : withoutBlockStart(escapeData(reference.sourceTitle));
    const excerpt = reference.excerpt ? `: “${escapeData(reference.excerpt)}”` : '';
    return `    - ${source}, ${escapeData(t('claim.locator'))} ${escapeData(reference.locator)}${excerpt}`;
  });
  return `${head}\n\n    ${t('claim.references')}:\n\n${references.join('\n')}`;
}

/** Literal text in a code span, fenced with more backticks than any run inside. */
function codeSpan(text: string): string {
  // Ids rarely hold a backtick: look for runs only when there is one.
  const longest = text.includes('`') ? Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) : 0;
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each end when both ends have one, or to separate a backtick.
  const pad = /^[`]|[`]$/.test(text) || (/^ .*[^ ].* $/s.test(text)) ? ' ' : '';
  return `${fence}${pad}${withoutForbiddenCharacters(text)}${pad}${fence}`;
}
