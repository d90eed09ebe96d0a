import type { ClaimLink, CollectionView, FieldView, ItemView, Part } from './data-view.ts';
import type { ClaimView, TargetView } from './page-view.ts';
import { trustedHtml, type Html } from './html.ts';
import { t } from './strings.ts';
import { escapeHtml } from './text.ts';

/**
 * Small HTML fragments that a record page repeats hundreds of times (a value, a field list, claim
 * markers, a target, a data item's card or table row, a claim entry), built by plain string
 * concatenation, the cheapest way there is, every piece of record text through escapeHtml; each
 * returns Html, which the page's templates (record-page.ts, record-parts.ts) insert as it is.
 */

/**
 * One displayed value: text, links (external ones marked and opened without referrer) and code, comma-separated.
 * @example partsHtml([{ kind: 'code', text: '<b>' }, { kind: 'text', text: 'x' }]) → '<code>&lt;b&gt;</code>, x'
 */
export function partsHtml(parts: Part[]): Html {
  let html = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i > 0) html += ', ';
    const text = escapeHtml(part.text);
    if (part.kind === 'link') {
      html += part.external
        ? `<a href="${escapeHtml(part.href)}" class="external" rel="noopener noreferrer">${text}</a>`
        : `<a href="${escapeHtml(part.href)}">${text}</a>`;
    } else {
      html += part.kind === 'code' ? `<code>${text}</code>` : text;
    }
  }
  return trustedHtml(html);
}

/** The rows of a description list of labelled values (what goes inside `<dl>`). */
export function fieldRowsHtml(fields: FieldView[]): Html {
  let html = '';
  for (const field of fields) html += `<div><dt>${escapeHtml(field.label)}</dt><dd>${partsHtml(field.parts).markup}</dd></div>`;
  return trustedHtml(html);
}

/**
 * Numbered links to claim entries, like footnote markers: sorted, each number once, and runs of
 * three or more merged (`[1–3, 7]`). A merged run links to its first claim; the preview script
 * shows each claim of the run, by number (claims are numbered 1 to n in the claims list). Empty when there are no links.
 * @example claimLinksHtml([7, 2, 1, 3] as links, 'marker') → '…[<a …>1–3</a>, <a …>7</a>]…'
 */
export function claimLinksHtml(links: ClaimLink[], variant: 'marker' | 'inline'): Html {
  if (links.length === 0) return NO_HTML;
  // One spoken word for a marker's cluster ("Claims 4, 7"): each link's own name is its number, read in
  // that context. An inline list follows its own visible label ("Claims:", "Derived from:").
  let html = `<span class="claim-refs claim-refs--${variant}">${variant === 'marker' ? MARKERS_WORD : ''}`;
  const groups = markerGroups(links);
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    const first = group[0]!;
    if (g > 0) html += ', ';
    html += `<a href="${escapeHtml(first.href)}" class="claim-ref">${runText(group)}</a>`;
  }
  return trustedHtml(`${html}</span>`);
}

/**
 * Claim numbers as a printed page gives them, where the screen has links: a marker's runs, as text.
 * @example claimNumbersHtml(links numbered [3, 26, 27, 48, 49, 50], 'x') → '<span class="x">3, 26, 27, 48–50</span>'
 */
export function claimNumbersHtml(links: { number: number }[], className: string): Html {
  if (links.length === 0) return NO_HTML;
  return trustedHtml(`<span class="${className}">${markerGroups(links).map(runText).join(', ')}</span>`);
}

/** A run of claim numbers: `7`, or `1–3`. */
const runText = (run: { number: number }[]) => (run.length === 1 ? `${run[0]!.number}` : `${run[0]!.number}–${run.at(-1)!.number}`);

const NO_HTML = trustedHtml('');

const MARKERS_WORD = `<span class="visually-hidden">${escapeHtml(t('claim.markers'))} </span>`;

/**
 * Claim links sorted by number, each once, in runs: consecutive numbers of three or more together, others alone.
 * @example markerGroups(links numbered [7, 2, 1, 3, 2]) → [[1, 2, 3], [7]]
 */
export function markerGroups<Numbered extends { number: number }>(links: Numbered[]): Numbered[][] {
  if (links.length === 1) return [links];
  const sorted = [...new Map(links.map((link) => [link.number, link])).values()].sort((a, b) => a.number - b.number);
  const runs: Numbered[][] = [];
  for (const link of sorted) {
    const run = runs.at(-1);
    if (run && run.at(-1)!.number === link.number - 1) run.push(link);
    else runs.push([link]);
  }
  // A run of two reads better as two numbers than as a range.
  return runs.flatMap((run) => (run.length === 2 ? [[run[0]!], [run[1]!]] : [run]));
}

/** What a claim, conflict or gap is about: in words (else its path as code), linked when the page shows it. */
export function targetHtml(target: TargetView): Html {
  // Named in words where the page knows what it names; a path only where it does not.
  const text = target.label ? escapeHtml(target.label) : `<code>${escapeHtml(target.text)}</code>`;
  return trustedHtml(target.href ? `<a href="${escapeHtml(target.href)}">${text}</a>` : text);
}

/**
 * The cards of a collection's items: title and id, fields, claim markers. `anchored` false leaves
 * out the items' fragment ids (they are on the cells of a size chart).
 */
export function itemCardsHtml(collection: CollectionView, items: ItemView[], anchored: boolean): Html {
  const claimsLabel = escapeHtml(t('part.claims'));
  let html = '';
  for (const item of items) {
    const title = escapeHtml(item.title);
    html += `<article${idAttribute(anchored, item)} class="item-card" aria-label="${escapeHtml(collection.heading)}: ${title}">`;
    html += `<h4>${title}</h4>`;
    if (item.title !== item.id) html += `<p class="item-id"><code>${escapeHtml(item.id)}</code></p>`;
    if (item.fields.length > 0) html += `<dl class="fields">${fieldRowsHtml(item.fields).markup}</dl>`;
    if (item.claims.length > 0) html += `<p class="item-claims">${claimsLabel}: ${claimLinksHtml(item.claims, 'inline').markup}</p>`;
    html += '</article>';
  }
  return trustedHtml(html);
}

/**
 * The table rows of a collection's items: name, a cell per column (a dash where the item has no
 * value) and, when any item has claims, their markers.
 */
export function itemRowsHtml(collection: CollectionView, items: ItemView[], anchored: boolean): Html {
  const withClaims = collection.items.some((item) => item.claims.length > 0);
  // A dash, which the data part's note explains: a table may have hundreds of empty cells.
  const notStated = '<td class="not-stated">–</td>';
  // Each cell names its column: a wide table prints stacked, a row as "label: value" lines (global.css).
  const cellStarts = collection.columns.map((column) => `<td data-label="${escapeHtml(column.label)}">`);
  let html = '';
  for (const item of items) {
    html += `<tr${idAttribute(anchored, item)}><th scope="row">${item.title === item.id ? `<code>${escapeHtml(item.id)}</code>` : escapeHtml(item.title)}</th>`;
    for (let at = 0; at < item.cells.length; at++) {
      const field = item.cells[at];
      html += field ? `${cellStarts[at]}${partsHtml(field.parts).markup}</td>` : notStated;
    }
    if (withClaims) html += `<td data-label="${escapeHtml(t('part.claims'))}">${claimLinksHtml(item.claims, 'inline').markup}</td>`;
    html += '</tr>';
  }
  return trustedHtml(html);
}

/** ` id="<anchor>"` for an anchored item, else nothing (an item with a duplicated id has no anchor). */
function idAttribute(anchored: boolean, item: ItemView): string {
  return anchored && item.anchor ? ` id="${escapeHtml(item.anchor)}"` : '';
}

/** Verification levels shown as a warning badge. */
const WEAK_VERIFICATION = new Set<ClaimView['verification']>(['conflicting', 'not_verified']);

/** Whether a claim is about one place the page shows, under the name it has there: its subject then links there. */
function aboutOnePlace(claim: ClaimView): boolean {
  const [only] = claim.targets;
  return claim.targets.length === 1 && only!.href !== null && only!.label === claim.subject;
}

/** A claim's head line: its number (linking to its entry), what it says about what, and its verification. */
export function claimHeadHtml(claim: ClaimView): Html {
  const badge = WEAK_VERIFICATION.has(claim.verification) ? 'badge--warn' : 'badge--ok';
  const subject = aboutOnePlace(claim)
    ? `<a href="${escapeHtml(claim.targets[0]!.href!)}">${escapeHtml(claim.subject)}</a>`
    : escapeHtml(claim.subject);
  return trustedHtml(
    `<p class="claim-head"><a href="#${escapeHtml(claim.anchor)}" class="claim-number">${claim.number}</a>` +
      `<span class="claim-value"><span class="claim-subject">${subject}:</span> ${escapeHtml(claim.value)}</span><span class="badge ${badge}">${escapeHtml(claim.verificationLabel)}</span></p>`,
  );
}

/**
 * A claim's entry: its number (its permalink), what it is about with its value, its verification;
 * its kind and scope; its first reference (these make the preview a marker shows); then, where
 * given, what else it is about, calculation, derivation, check and conflicts; the other references
 * to sources with locators and excerpts; backlinks to every text block citing it.
 */
export function claimEntryHtml(claim: ClaimView): Html {
  const anchor = escapeHtml(claim.anchor);
  const single = aboutOnePlace(claim);
  // The preview (what a marker shows in place) is the head, the kind and scope, and the first reference.
  let html =
    `<li id="${anchor}" class="claim">${claimHeadHtml(claim).markup}` +
    `<p class="claim-scope">${escapeHtml(claim.kindLabel)} · ${escapeHtml(t('claim.scope'))}: ${escapeHtml(claim.scope)}</p>`;
  if (claim.references.length > 0)
    html += `<ul class="references" aria-label="${escapeHtml(t('claim.references'))}">${referenceHtml(claim.references[0]!)}</ul>`;
  let facts = '';
  if (!single) facts += factHtml(t('claim.targets'), claim.targets.map((target) => targetHtml(target).markup).join(', '));
  if (claim.calculation) facts += factHtml(t('claim.calculation'), escapeHtml(claim.calculation));
  if (claim.derivedFrom.length > 0) {
    facts += factHtml(
      t('claim.derivedFrom'),
      claim.derivedFrom.map((from) => ('number' in from ? claimLinksHtml([from], 'inline').markup : escapeHtml(from.text))).join(' '),
    );
  }
  if (claim.checkedAt) facts += factHtml(t('claim.checked'), escapeHtml(claim.checkedAt));
  if (claim.checkNote) facts += factHtml(t('claim.checkNote'), escapeHtml(claim.checkNote));
  if (claim.conflicts.length > 0) {
    facts += factHtml(
      t('claim.conflicts'),
      claim.conflicts.map((c) => `<a href="${escapeHtml(c.href)}">${escapeHtml(c.text)}</a>`).join(', '),
    );
  }
  if (facts) html += `<dl class="fields fields--inline">${facts}</dl>`;
  if (claim.references.length > 1) {
    html += `<ul class="references" aria-label="${escapeHtml(t('claim.moreReferences'))}">`;
    for (const reference of claim.references.slice(1)) html += referenceHtml(reference);
    html += '</ul>';
  }
  html += '<p class="backlinks">';
  if (claim.citedBy.length > 0) {
    // "Cited by: Overview, paragraph 2": each link names the place it returns to (its arrow is the style's).
    html += `${escapeHtml(t('claim.citedBy'))}: `;
    for (const back of claim.citedBy) html += `<a href="${escapeHtml(back.href)}" class="backlink">${escapeHtml(back.place)}</a>`;
  } else {
    html += escapeHtml(t('claim.notCited'));
  }
  return trustedHtml(`${html}</p></li>`);
}

/** A claim's reference to a source: the source, its web address's host, where in it, and the excerpt. */
function referenceHtml(reference: ClaimView['references'][number]): string {
  const title = escapeHtml(reference.sourceTitle);
  let html = `<li>${reference.sourceHref ? `<a href="${escapeHtml(reference.sourceHref)}">${title}</a>` : title}`;
  if (reference.url)
    html += ` (<a href="${escapeHtml(reference.url)}" class="external" rel="noopener noreferrer">${escapeHtml(reference.host ?? '')}</a>)`;
  html += `, ${escapeHtml(t('claim.locator'))} ${escapeHtml(reference.locator)}`;
  if (reference.excerpt) html += `<blockquote class="excerpt"><p>${escapeHtml(reference.excerpt)}</p></blockquote>`;
  return `${html}</li>`;
}

/** One labelled row of a description list, its value already HTML. */
function factHtml(label: string, valueHtml: string): string {
  return `<div><dt>${escapeHtml(label)}</dt><dd>${valueHtml}</dd></div>`;
}
