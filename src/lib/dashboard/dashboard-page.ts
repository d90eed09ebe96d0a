// The dashboard's one page (Settings, MCP, Completion webhooks): fixed markup with no data in it.
// Its script (browser/dashboard-client.ts) fills it from the publish API with DOM nodes only; until the
// script runs (JavaScript off, or the script refused), the page says it needs JavaScript.

/** Where the dashboard lives; `/dashboard/` leads to its one page. */
export const DASHBOARD_ROOT = '/dashboard/';
/** The completion-webhook settings page, the address the spec's "Settings, MCP, Completion webhooks" names. */
export const WEBHOOKS_PAGE_PATH = '/dashboard/settings/mcp/webhooks/';
/** Where the page's script and stylesheet are served from. */
export const ASSETS_PATH = '/dashboard/assets/';

/** Returns the page's HTML. */
export function dashboardPageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Completion webhooks · Settings · garment-press dashboard</title>
<link rel="stylesheet" href="${ASSETS_PATH}dashboard.css">
<script type="module" src="${ASSETS_PATH}dashboard-client.ts"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<p class="brand"><a href="/">garment-press</a> dashboard</p>
<nav aria-label="Breadcrumb"><ol class="crumbs"><li>Settings</li><li>MCP</li><li><a href="${WEBHOOKS_PAGE_PATH}" aria-current="page">Completion webhooks</a></li></ol></nav>
</header>
<main id="main" tabindex="-1">
<h1>Completion webhooks</h1>
<p class="lead">The signing secret your receiver verifies deliveries with, every delivery attempt with what was sent and how your receiver answered, and test events. Everything here goes through the <a href="/docs/webhooks/">publish API</a> with your API key.</p>
<p class="notice" data-needs-script>This dashboard needs JavaScript. Without it, use the publish API (<a href="/docs/webhooks/#deliveries">deliveries</a>, <a href="/docs/webhooks/#secret">the signing secret</a>) or, on the server, <code>npm run -s admin -- secret reveal --org ID</code>.</p>
<p class="notice" role="status" aria-live="polite" data-status></p>

<section aria-labelledby="sign-in-heading" data-signed-out hidden>
<h2 id="sign-in-heading">Sign in</h2>
<form data-sign-in-form>
<p><label for="api-key">API key</label>
<input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" required aria-describedby="api-key-help"></p>
<p id="api-key-help" class="help">Paste an API key of your organization (<code>gpk_…</code>). It is kept in this browser tab only, until you sign out or close the tab.</p>
<p><button type="submit">Sign in</button></p>
</form>
</section>

<div data-signed-in hidden>
<p class="session">Signed in with an API key. <button type="button" data-sign-out>Sign out</button></p>

<section aria-labelledby="secret-heading">
<h2 id="secret-heading">Signing secret</h2>
<p>Your receiver checks each delivery's <code>X-Svc-Signature</code> with this secret. It is hidden until you reveal it.</p>
<p class="secret-line">Secret: <code class="secret" data-secret hidden></code><span data-secret-hidden>hidden</span></p>
<p class="actions">
<button type="button" data-reveal>Reveal</button>
<button type="button" data-copy hidden>Copy</button>
<button type="button" data-hide hidden>Hide</button>
<button type="button" data-rotate class="danger">Rotate</button>
</p>
<dialog data-rotate-dialog aria-labelledby="rotate-heading" aria-describedby="rotate-warning">
<h3 id="rotate-heading">Rotate the signing secret?</h3>
<p id="rotate-warning">The old secret stops verifying immediately: every delivery from now on, retries of waiting ones included, is signed with the new secret. Update your receiver first: make it ready to accept a second secret beside the old one, then give it the new secret shown here. Deliveries it refuses in between are retried on the schedule.</p>
<p class="actions"><button type="button" data-rotate-confirm class="danger">Rotate now</button> <button type="button" data-rotate-cancel autofocus>Cancel</button></p>
</dialog>
</section>

<section aria-labelledby="test-heading">
<h2 id="test-heading">Send a test event</h2>
<form data-test-form>
<p><label for="callback-url">Callback URL</label>
<input id="callback-url" name="callback_url" type="url" inputmode="url" required placeholder="https://receiver.example/hooks/garment" aria-describedby="callback-url-help"></p>
<p id="callback-url-help" class="help">One signed <code>test.completed</code> event, one attempt; nothing is published. The address must be https on a public host.</p>
<p><button type="submit">Send test event</button></p>
</form>
<div data-test-result></div>
</section>

<section aria-labelledby="log-heading">
<h2 id="log-heading">Attempt log</h2>
<form class="filter" data-filter-form>
<p><label for="handle-filter">Handle</label>
<input id="handle-filter" name="handle" type="search" spellcheck="false" aria-describedby="handle-filter-help"></p>
<p id="handle-filter-help" class="help">Show only the deliveries of one task's handle; empty shows all.</p>
<p class="actions"><button type="submit">Show</button> <button type="button" data-refresh>Refresh</button></p>
</form>
<p data-log-summary></p>
<ol class="deliveries" data-deliveries></ol>
<p><button type="button" data-older hidden>Show older deliveries</button></p>
</section>
</div>
</main>
<footer class="bottom"><p>How deliveries are signed and retried: <a href="/docs/webhooks/">completion webhooks</a>. The same actions from a shell: <code>npm run -s admin -- secret reveal|rotate</code>.</p></footer>
</body>
</html>
`;
}
