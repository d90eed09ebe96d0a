// The dashboard's one page (Settings, MCP, Completion webhooks): fixed markup with no data in it.
// Its script (browser/dashboard-client.ts) fills it from the publish API with DOM nodes only; until the
// script runs (JavaScript off, or the script refused), the page says it needs JavaScript. Its words
// come from strings.ts (`dashboard.*`); the script's go along as JSON in data-messages.
import { html, type Html } from '../site/html.ts';
import { type StringKey, t, templatePieces } from '../site/strings.ts';
import { dashboardMessages } from './dashboard-messages.ts';

/** Where the dashboard lives; `/dashboard/` leads to its one page. */
export const DASHBOARD_ROOT = '/dashboard/';
/** The completion-webhook settings page, the address the spec's "Settings, MCP, Completion webhooks" names. */
export const WEBHOOKS_PAGE_PATH = '/dashboard/settings/mcp/webhooks/';
/** Where the page's script and stylesheet are served from. */
export const ASSETS_PATH = '/dashboard/assets/';

/** The admin CLI's secret commands, as typed in a shell: code, not words to translate. */
const SECRET_COMMANDS = 'npm run -s admin -- secret reveal|rotate';
const REVEAL_COMMAND = 'npm run -s admin -- secret reveal --org ID';

/** Returns the page's HTML. */
export function dashboardPageHtml(): string {
  const title = t('dashboard.webhooks.title');
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${t('dashboard.documentTitle', { page: title, settings: t('dashboard.crumb.settings'), site: t('site.name') })}</title>
<link rel="stylesheet" href="${ASSETS_PATH}dashboard.css">
<script type="module" src="${ASSETS_PATH}dashboard-client.ts"></script>
</head>
<body>
<a class="skip" href="#main">${t('nav.skip')}</a>
<header class="top">
<p class="brand">${withMarkup('dashboard.brand', { site: html`<a href="/">${t('site.name')}</a>` })}</p>
<nav aria-label="${t('nav.breadcrumb')}"><ol class="crumbs"><li>${t('dashboard.crumb.settings')}</li><li>${t('dashboard.crumb.mcp')}</li><li><a href="${WEBHOOKS_PAGE_PATH}" aria-current="page">${title}</a></li></ol></nav>
</header>
<main id="main" tabindex="-1" data-messages="${JSON.stringify(dashboardMessages())}">
<h1>${title}</h1>
<p class="lead">${withMarkup('dashboard.lead', { api: html`<a href="/docs/webhooks/">${t('dashboard.lead.api')}</a>` })}</p>
<p class="notice" data-needs-script>${withMarkup('dashboard.needsScript', {
    deliveries: html`<a href="/docs/webhooks/#deliveries">${t('dashboard.needsScript.deliveries')}</a>`,
    secret: html`<a href="/docs/webhooks/#secret">${t('dashboard.needsScript.secret')}</a>`,
    command: html`<code>${REVEAL_COMMAND}</code>`,
  })}</p>
<p class="notice" role="status" aria-live="polite" data-status></p>

<section aria-labelledby="sign-in-heading" data-signed-out hidden>
<h2 id="sign-in-heading">${t('dashboard.signIn.heading')}</h2>
<form data-sign-in-form>
<p><label for="api-key">${t('dashboard.signIn.keyLabel')}</label>
<input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" required aria-describedby="api-key-help"></p>
<p id="api-key-help" class="help">${withMarkup('dashboard.signIn.keyHelp', { example: html`<code>gpk_…</code>` })}</p>
<p><button type="submit">${t('dashboard.signIn.submit')}</button></p>
</form>
</section>

<div data-signed-in hidden>
<p class="session">${t('dashboard.session')} <button type="button" data-sign-out>${t('dashboard.signOut')}</button></p>

<section aria-labelledby="secret-heading">
<h2 id="secret-heading">${t('dashboard.secret.heading')}</h2>
<p>${withMarkup('dashboard.secret.about', { header: html`<code>X-Svc-Signature</code>` })}</p>
<p class="secret-line">${t('dashboard.secret.label')} <code class="secret" data-secret hidden></code><span data-secret-hidden>${t('dashboard.secret.hidden')}</span></p>
<p class="actions">
<button type="button" data-reveal>${t('dashboard.secret.reveal')}</button>
<button type="button" data-copy hidden>${t('dashboard.secret.copy')}</button>
<button type="button" data-hide hidden>${t('dashboard.secret.hide')}</button>
<button type="button" data-rotate class="danger">${t('dashboard.secret.rotate')}</button>
</p>
<dialog data-rotate-dialog aria-labelledby="rotate-heading" aria-describedby="rotate-warning">
<h3 id="rotate-heading">${t('dashboard.rotate.heading')}</h3>
<p id="rotate-warning">${t('dashboard.rotate.warning')}</p>
<p class="actions"><button type="button" data-rotate-confirm class="danger">${t('dashboard.rotate.confirm')}</button> <button type="button" data-rotate-cancel autofocus>${t('dashboard.rotate.cancel')}</button></p>
</dialog>
</section>

<section aria-labelledby="test-heading">
<h2 id="test-heading">${t('dashboard.test.heading')}</h2>
<form data-test-form>
<p><label for="callback-url">${t('dashboard.test.urlLabel')}</label>
<input id="callback-url" name="callback_url" type="url" inputmode="url" required placeholder="${t('dashboard.test.urlPlaceholder')}" aria-describedby="callback-url-help"></p>
<p id="callback-url-help" class="help">${withMarkup('dashboard.test.urlHelp', { event: html`<code>test.completed</code>` })}</p>
<p><button type="submit">${t('dashboard.test.submit')}</button></p>
</form>
<div data-test-result></div>
</section>

<section aria-labelledby="log-heading">
<h2 id="log-heading">${t('dashboard.log.heading')}</h2>
<form class="filter" data-filter-form>
<p><label for="handle-filter">${t('dashboard.log.handleLabel')}</label>
<input id="handle-filter" name="handle" type="search" spellcheck="false" aria-describedby="handle-filter-help"></p>
<p id="handle-filter-help" class="help">${t('dashboard.log.handleHelp')}</p>
<p class="actions"><button type="submit">${t('dashboard.log.show')}</button> <button type="button" data-refresh>${t('dashboard.log.refresh')}</button></p>
</form>
<p data-log-summary></p>
<ol class="deliveries" data-deliveries></ol>
<p><button type="button" data-older hidden>${t('dashboard.log.older')}</button></p>
</section>
</div>
</main>
<footer class="bottom"><p>${withMarkup('dashboard.footer', {
    docs: html`<a href="/docs/webhooks/">${t('dashboard.footer.docs')}</a>`,
    command: html`<code>${SECRET_COMMANDS}</code>`,
  })}</p></footer>
</body>
</html>
`.markup;
}

/**
 * Returns a UI string as markup, its words escaped and each named placeholder replaced by the markup
 * given for it (a link, a piece of code).
 * @example withMarkup('dashboard.lead', { api: html`<a href="/docs/webhooks/">publish API</a>` }) → '… goes through the <a href="/docs/webhooks/">publish API</a> with your API key.'
 */
function withMarkup(key: StringKey, pieces: Record<string, Html>): Html {
  return html`${templatePieces(t(key)).map((part, index) => (index % 2 === 0 ? part : (pieces[part] ?? `{${part}}`)))}`;
}
