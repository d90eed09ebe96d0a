import { escapeHtml } from './text.ts';

/** Markup that goes into a page as it is: built by `html` and the fragments, or trusted with `trustedHtml`. */
export class Html {
  readonly markup: string;
  constructor(markup: string) {
    this.markup = markup;
  }
}

/** What a template may hold: text is escaped, markup is kept, nothing (null, undefined, false) is left out. */
export type HtmlValue = string | number | Html | null | undefined | false | readonly HtmlValue[];

/**
 * Builds markup from a template whose every interpolated string is escaped, so record text can
 * never become markup; arrays are joined, Html is inserted as it is.
 * @example html`<p title="${'"x"'}">${'<b>'}</p>` → '<p title="&quot;x&quot;">&lt;b&gt;</p>'
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let markup = strings[0]!;
  for (let i = 0; i < values.length; i++) markup += markupOf(values[i]) + strings[i + 1]!;
  return new Html(markup);
}

/**
 * Markup as pieces, in order: one per item of `value` when it is a list (lists in it are opened
 * too), else one. A page kept in pieces is never one long string, which V8 would place in its
 * large-object space, fresh memory for every page (see writeSiteFiles); a piece is a part of it.
 * @example markupPieces([html`<ol>`, [html`<li>${'a'}</li>`, false], html`</ol>`]) → ['<ol>', '<li>a</li>', '</ol>']
 */
export function markupPieces(value: HtmlValue): string[] {
  const pieces: string[] = [];
  addPieces(value, pieces);
  return pieces;
}

/** Adds value's pieces to one list: a page has hundreds, in lists nested a few deep. */
function addPieces(value: HtmlValue, pieces: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value as readonly HtmlValue[]) addPieces(item, pieces);
    return;
  }
  const markup = markupOf(value);
  if (markup !== '') pieces.push(markup);
}

/**
 * The one way markup built elsewhere becomes Html: the sanitising text renderer's output, the
 * fragments (built by concatenation, every piece of record text escaped) and script-safe JSON.
 */
export function trustedHtml(markup: string): Html {
  return new Html(markup);
}

/** The `class` attribute's value from optional names. */
export function classList(...names: (string | null | undefined | false)[]): string {
  return names.filter(Boolean).join(' ');
}

function markupOf(value: HtmlValue): string {
  if (value instanceof Html) return value.markup;
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    let markup = '';
    for (const item of value as readonly HtmlValue[]) markup += markupOf(item);
    return markup;
  }
  return '';
}
