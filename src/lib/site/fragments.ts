import type { ClaimLink, CollectionView, FieldView, ItemView, Part } from './data-view.ts';
import type { ClaimView, TargetView } from './page-view.ts';
import { t } from './strings.ts';
import { escapeHtml } from './text.ts';

/**
 * Small HTML fragments that a record page repeats hundreds of times (a value, a field list, claim
 * markers, a target, a data item's card or table row, a claim entry), built by plain string
 * concatenation, the cheapest way there is. The page's markup (record-page.ts, record-parts.ts)
 * inserts them as trusted, so every piece of record text in them goes through escapeHtml.
 */

/**
 * One displayed value: text, links (external ones marked and opened without referrer) and code, comma-separated.
 * @example partsHtml([{ kind: 'code', text: '<b>' }, { kind: 'text', text: 'x' }]) → '<code>&lt;b&gt;</code>, x'
 */
export function partsHtml(parts: Part[]): string {
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
  return html;
}

/** The rows of a description list of labelled values (what goes inside `<dl>`). */
export function fieldRowsHtml(fields: FieldView[]): string {
  let html = '';
  for (const field of fields) html += `<div><dt>${escapeHtml(field.label)}</dt><dd>${partsHtml(field.parts)}</dd></div>`;
  return html;
}

/**
 * Numbered links to claim entries, like footnote markers (`[1] [4]`): superscript after text, or
 * inline in a list of facts. Empty when there are no links.
 */
export function claimLinksHtml(links: ClaimLink[], variant: 'marker' | 'inline'): string {
  if (links.length === 0) return '';
  const tag = variant === 'marker' ? 'sup' : 'span';
  let html = `<${tag} class="claim-refs claim-refs--${variant}">`;
  for (const link of links) {
    const label = escapeHtml(t('textBlock.claimRef', { number: link.number }));
    html += `<a href="${escapeHtml(link.href)}" class="claim-ref" aria-label="${label}">[${link.number}]</a>`;
  }
  return `${html}</${tag}>`;
}

/** What a claim, conflict or gap is about: linked when the page shows it, else plain code. */
export function targetHtml(target: TargetView): string {
  const text = escapeHtml(target.text);
  return target.href ? `<a href="${escapeHtml(target.href)}" class="target"><code>${text}</code></a>` : `<code class="target">${text}</code>`;
}

/**
 * The cards of a collection's items: title and id, fields, claim markers. `anchored` false leaves
 * out the items' fragment ids (they are on the cells of a size chart).
 */
export function itemCardsHtml(collection: CollectionView, items: ItemView[], anchored: boolean): string {
  const claimsLabel = escapeHtml(t('part.claims'));
  let html = '';
  for (const item of items) {
    const title = escapeHtml(item.title);
    html += `<article${idAttribute(anchored, item)} class="item-card" aria-label="${escapeHtml(collection.heading)}: ${title}">`;
    html += `<h4>${title}${item.title !== item.id ? ` <code class="item-id">${escapeHtml(item.id)}</code>` : ''}</h4>`;
    if (item.fields.length > 0) html += `<dl class="fields">${fieldRowsHtml(item.fields)}</dl>`;
    if (item.claims.length > 0) html += `<p class="item-claims">${claimsLabel}: ${claimLinksHtml(item.claims, 'inline')}</p>`;
    html += '</article>';
  }
  return html;
}

/**
 * The table rows of a collection's items: id, a cell per column (a dash, spoken as "not stated",
 * where the item has no value) and, when any item has claims, their markers.
 */
export function itemRowsHtml(collection: CollectionView, items: ItemView[], anchored: boolean): string {
  const withClaims = collection.items.some((item) => item.claims.length > 0);
  const notStated = `<td><span aria-hidden="true" class="not-stated">–</span><span class="visually-hidden">${escapeHtml(t('value.notStated'))}</span></td>`;
  let html = '';
  for (const item of items) {
    html += `<tr${idAttribute(anchored, item)}><th scope="row"><code>${escapeHtml(item.id)}</code></th>`;
    for (const column of collection.columns) {
      const field = item.fields.find((f) => f.name === column.name);
      html += field ? `<td>${partsHtml(field.parts)}</td>` : notStated;
    }
    if (withClaims) html += `<td>${claimLinksHtml(item.claims, 'inline')}</td>`;
    html += '</tr>';
  }
  return html;
}

/** ` id="<anchor>"` for an anchored item, else nothing (an item with a duplicated id has no anchor). */
function idAttribute(anchored: boolean, item: ItemView): string {
  return anchored && item.anchor ? ` id="${escapeHtml(item.anchor)}"` : '';
}

/** Verification levels shown as a warning badge. */
const WEAK_VERIFICATION = new Set<ClaimView['verification']>(['conflicting', 'not_verified']);

/**
 * A claim's entry: number, value and verification badge; scope, kind, targets, calculation,
 * derivation, check and conflicts; references to sources with locators and excerpts; backlinks
 * to every text block citing it.
 */
export function claimEntryHtml(claim: ClaimView): string {
  const badge = WEAK_VERIFICATION.has(claim.verification) ? 'badge--warn' : 'badge--ok';
  let html = `<li id="${escapeHtml(claim.anchor)}" class="claim"><p class="claim-head">`
    + `<span class="claim-number">${claim.number}<span class="visually-hidden">.</span></span>`
    + `<span class="claim-value">${escapeHtml(claim.value)}</span><span class="badge ${badge}">${escapeHtml(claim.verificationLabel)}</span></p>`
    + '<dl class="fields fields--inline">'
    + factHtml(t('claim.scope'), escapeHtml(claim.scope))
    + factHtml(t('claim.kind'), escapeHtml(claim.kindLabel))
    + factHtml(t('claim.targets'), claim.targets.map(targetHtml).join(', '));
  if (claim.calculation) html += factHtml(t('claim.calculation'), escapeHtml(claim.calculation));
  if (claim.derivedFrom.length > 0) {
    html += factHtml(t('claim.derivedFrom'), claim.derivedFrom.map((from) => ('number' in from ? claimLinksHtml([from], 'inline') : escapeHtml(from.text))).join(' '));
  }
  if (claim.checkedAt) html += factHtml(t('claim.checked'), escapeHtml(claim.checkedAt));
  if (claim.checkNote) html += factHtml(t('claim.checkNote'), escapeHtml(claim.checkNote));
  if (claim.conflicts.length > 0) {
    html += factHtml(t('claim.conflicts'), claim.conflicts.map((c) => `<a href="${escapeHtml(c.href)}"><code>${escapeHtml(c.text)}</code></a>`).join(', '));
  }
  html += '</dl>';
  if (claim.references.length > 0) {
    html += `<ul class="references" aria-label="${escapeHtml(t('claim.references'))}">`;
    for (const reference of claim.references) {
      const title = escapeHtml(reference.sourceTitle);
      html += `<li>${reference.sourceHref ? `<a href="${escapeHtml(reference.sourceHref)}">${title}</a>` : title}`;
      if (reference.url) html += ` (<a href="${escapeHtml(reference.url)}" class="external" rel="noopener noreferrer">${escapeHtml(reference.host ?? '')}</a>)`;
      html += `, ${escapeHtml(t('claim.locator'))} ${escapeHtml(reference.locator)}`;
      if (reference.excerpt) html += `<blockquote class="excerpt"><p>${escapeHtml(reference.excerpt)}</p></blockquote>`;
      html += '</li>';
    }
    html += '</ul>';
  }
  html += '<p class="backlinks">';
  if (claim.citedBy.length > 0) {
    const prefix = escapeHtml(t('claim.backlinkPrefix'));
    html += `${escapeHtml(t('claim.citedBy'))}: `;
    for (const back of claim.citedBy) {
      html += `<a href="${escapeHtml(back.href)}" class="backlink"><span aria-hidden="true">↩ </span><span class="visually-hidden">${prefix} </span>${escapeHtml(back.place)}</a>`;
    }
  } else {
    html += escapeHtml(t('claim.notCited'));
  }
  return `${html}</p></li>`;
}

/** One labelled row of a description list, its value already HTML. */
function factHtml(label: string, valueHtml: string): string {
  return `<div><dt>${escapeHtml(label)}</dt><dd>${valueHtml}</dd></div>`;
}
