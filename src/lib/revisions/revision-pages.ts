import type { GarmentRecord } from '../record/index.ts';
import { formatDate } from '../site/format.ts';
import { isoDate } from '../record/timestamp.ts';
import { classList, html, type Html, type HtmlValue } from '../site/html.ts';
import { pageDocument } from '../site/page-frame.ts';
import { recordTitle } from '../site/record-title.ts';
import { t } from '../site/strings.ts';
import { absoluteUrl, garmentPath, pagePath, revisionJsonPath, revisionPath, revisionsPath } from '../site/urls.ts';
import type { EntryChange, FactChange, TextChange } from './record-changes.ts';
import type { FileLink, RevisionView } from './revision-view.ts';
import type { WordRun } from './word-diff.ts';

/** A file of the revision pages: its site path and its content (markup in pieces, bytes, or a link to bytes kept already). */
export interface RevisionFile {
  sitePath: string;
  content: string[] | Uint8Array | { linkTo: FileLink };
}

/** What every revision page of a record shares: the record read now, the site, the stylesheet and the head's extra links. */
export interface RevisionPagesContext {
  record: GarmentRecord;
  site: string;
  stylesheet: string;
  /** Links for the head (the record's feed), added to every page. */
  moreHead?: Html | null;
}

/**
 * A record's revision files: its history, each revision's JSON as published, and each revision's
 * page saying what changed from the one before.
 */
export function revisionFiles(views: readonly RevisionView[], context: RevisionPagesContext): RevisionFile[] {
  const { slug, projection } = context.record;
  return [
    { sitePath: `${revisionsPath(slug, projection)}index.html`, content: historyPageHtml(views, context) },
    { sitePath: `${revisionsPath(slug, projection)}index.json`, content: [historyJson(views, context)] },
    ...views.flatMap((view) => [
      { sitePath: revisionJsonPath(slug, projection, view.number), content: view.linkTo ? { linkTo: view.linkTo } : view.bytes },
      { sitePath: `${revisionPath(slug, projection, view.number)}index.html`, content: revisionPageHtml(view, views.length, context) },
    ]),
  ];
}

/** The history for programs (garments.list_revisions reads it): every revision, newest first, with the addresses of its changes and its JSON. */
function historyJson(views: readonly RevisionView[], context: RevisionPagesContext): string {
  const { slug, projection } = context.record;
  const history = {
    slug,
    projection,
    count: views.length,
    revisions: [...views].reverse().map((view) => ({
      number: view.number,
      record_revision: view.recordRevision,
      published_at: view.publishedAt,
      summary: view.summary,
      changes: absoluteUrl(revisionPath(slug, projection, view.number), context.site),
      json: absoluteUrl(revisionJsonPath(slug, projection, view.number), context.site),
    })),
  };
  return `${JSON.stringify(history, null, 2)}\n`;
}

/** The trail to a revision page: all garments, the garment, the record, its history (and the revision). */
function trailHtml(context: RevisionPagesContext, last: { href: string; label: string }[]): Html {
  const { slug, projection } = context.record;
  const steps = [
    { href: '/', label: t('nav.home') },
    { href: garmentPath(slug), label: recordTitle(context.record) },
    { href: pagePath(slug, projection), label: t(`projection.${projection}`) },
    ...last,
  ];
  return html`<nav aria-label="${t('nav.breadcrumb')}" class="breadcrumb breadcrumb--long"><ol>${steps.map(
    (step, i) =>
      html`<li><a href="${step.href}"${i === steps.length - 1 ? html` aria-current="page"` : ''}><bdi>${step.label}</bdi></a></li>`,
  )}</ol></nav>`;
}

function head(context: RevisionPagesContext, sitePath: string, title: string, description: string) {
  return {
    title,
    description,
    canonical: absoluteUrl(sitePath, context.site),
    ogType: 'article' as const,
    stylesheet: context.stylesheet,
    path: sitePath,
  };
}

/** A date as the record wrote it, read in words, in `<time>` when it is one. */
function dateHtml(value: string | null): HtmlValue {
  if (value === null) return t('value.notStated');
  const iso = isoDate(value);
  return iso ? html`<time datetime="${iso}">${formatDate(value)}</time>` : value;
}

/** The history: every revision, newest first, with its record revision, date, what changed and its JSON. */
function historyPageHtml(views: readonly RevisionView[], context: RevisionPagesContext): string[] {
  const { slug, projection } = context.record;
  const sitePath = revisionsPath(slug, projection);
  const title = t('revisions.history.title', { title: recordTitle(context.record), projection: t(`projection.${projection}`) });
  const main = html`${trailHtml(context, [{ href: sitePath, label: t('revisions.history') }])}<h1><bdi>${title}</bdi></h1><p>${t(
    'revisions.history.lead',
  )}</p><ol class="revision-list" reversed>${[...views]
    .reverse()
    .map(
      (view) =>
        html`<li class="revision-item"><h2 class="revision-heading"><a href="${revisionPath(slug, projection, view.number)}">${t('revisions.number', { number: view.number })}</a>${
          view.number === views.length && html` <span class="badge badge--ok">${t('revisions.latest')}</span>`
        }</h2><p class="revision-meta">${t('revisions.recordRevision')} <code>${view.recordRevision ?? t('value.notStated')}</code> · ${t('record.published')} ${dateHtml(
          view.publishedAt,
        )}</p><p>${view.summary}</p><p><a href="${revisionJsonPath(slug, projection, view.number)}">${t('revisions.json', { number: view.number })}</a></p></li>`,
    )}</ol>`;
  return pageDocument(head(context, sitePath, title, t('revisions.history.lead')), main, context.moreHead ?? null);
}

/** What revision n changed from n − 1, in words: status, key facts, text, claims and sources. */
function revisionPageHtml(view: RevisionView, count: number, context: RevisionPagesContext): string[] {
  const { slug, projection } = context.record;
  const sitePath = revisionPath(slug, projection, view.number);
  const name = recordTitle(context.record);
  const title = t('revisions.page.title', { number: view.number, title: name, projection: t(`projection.${projection}`) });
  const changes = view.changes;
  const section = (id: string, heading: string, body: HtmlValue) =>
    html`<section class="revision-part" aria-labelledby="${id}"><h2 id="${id}">${heading}</h2>${body}</section>`;
  const body = changes
    ? [
        changes.status &&
          section(
            'changed-status',
            t('record.researchStatus'),
            beforeAfterHtml({ label: null, before: [changes.status.before], after: [changes.status.after] }),
          ),
        changes.keyFacts.length > 0 && section('changed-facts', t('revisions.keyFacts'), changes.keyFacts.map(beforeAfterHtml)),
        changes.text.length > 0 && section('changed-text', t('revisions.text'), changes.text.map(textChangeHtml)),
        changes.claims.length > 0 && section('changed-claims', t('revisions.claims'), entriesHtml(changes.claims)),
        changes.sources.length > 0 && section('changed-sources', t('revisions.sources'), entriesHtml(changes.sources)),
      ]
    : [];
  const neighbours = [
    view.number > 1 && {
      href: revisionPath(slug, projection, view.number - 1),
      label: t('revisions.previous', { number: view.number - 1 }),
    },
    view.number < count && {
      href: revisionPath(slug, projection, view.number + 1),
      label: t('revisions.next', { number: view.number + 1 }),
    },
    { href: revisionsPath(slug, projection), label: t('revisions.all') },
    { href: revisionJsonPath(slug, projection, view.number), label: t('revisions.json', { number: view.number }) },
  ].filter((link) => link !== false);
  const main = html`${trailHtml(context, [
    { href: revisionsPath(slug, projection), label: t('revisions.history') },
    { href: sitePath, label: t('revisions.number', { number: view.number }) },
  ])}<h1><bdi>${title}</bdi></h1><p class="revision-meta">${t('revisions.recordRevision')} <code>${view.recordRevision ?? t('value.notStated')}</code> · ${t(
    'record.published',
  )} ${dateHtml(view.publishedAt)}${view.number === count && html` · <a href="${pagePath(slug, projection)}">${t('revisions.shownOnPage')}</a>`}</p><p class="revision-summary">${
    view.number === 1 ? t('revisions.first') : view.summary
  }</p>${body}<nav aria-label="${t('revisions.nav')}" class="revision-nav"><ul>${neighbours.map(
    (link) => html`<li><a href="${link.href}">${link.label}</a></li>`,
  )}</ul></nav>`;
  return pageDocument(head(context, sitePath, title, view.summary), main, context.moreHead ?? null);
}

/** A fact's lines before and after, side by side where there is room; under its label, unless its section says it. */
function beforeAfterHtml(fact: Omit<FactChange, 'label'> & { label: string | null }): Html {
  const side = (label: string, lines: string[], kind: string) =>
    html`<div class="${classList('revision-side', `revision-side--${kind}`)}"><p class="revision-side-label">${label}</p>${
      lines.length === 0 ? html`<p>${t('value.notStated')}</p>` : html`<ul>${lines.map((line) => html`<li>${line}</li>`)}</ul>`
    }</div>`;
  return html`<div class="revision-fact">${fact.label !== null && html`<h3>${fact.label}</h3>`}<div class="revision-sides">${side(t('revisions.before'), fact.before, 'before')}${side(
    t('revisions.after'),
    fact.after,
    'after',
  )}</div></div>`;
}

/** A text block added, removed or reworded, its words marked: `<del>` what went, `<ins>` what came. */
function textChangeHtml(change: TextChange): Html {
  return html`<div class="revision-text"><h3>${change.place} <span class="badge">${t(`revisions.text.${change.change}`)}</span></h3><p>${change.words.map(wordsHtml)}</p></div>`;
}

function wordsHtml(run: WordRun): HtmlValue {
  if (run.change === 'same') return run.text;
  const said = html`<span class="visually-hidden">[${t(`revisions.words.${run.change}`)}: </span>${run.text}<span class="visually-hidden">]</span>`;
  return run.change === 'added' ? html`<ins>${said}</ins>` : html`<del>${said}</del>`;
}

/** Claims or sources that came, went or changed, each with how it read. */
function entriesHtml(entries: readonly EntryChange[]): Html {
  return html`<ul class="revision-entries">${entries.map(
    (entry) =>
      html`<li><span class="badge">${t(`revisions.change.${entry.change}`)}</span> <strong><bdi>${entry.name}</bdi></strong> <span class="count">(${entry.id})</span>${
        entry.change === 'changed'
          ? html`: <del>${entry.before}</del> → <ins>${entry.after}</ins>`
          : html`: ${entry.change === 'added' ? entry.after : html`<del>${entry.before}</del>`}`
      }</li>`,
  )}</ul>`;
}
