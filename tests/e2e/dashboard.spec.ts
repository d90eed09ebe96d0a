// The dashboard (Settings, MCP, Completion webhooks) in Chromium, against `npm run serve` and a real
// HTTPS receiver that verifies every delivery: sign-in, the signing secret, rotation, the attempt log,
// test events, hostile receiver answers, accessibility and keyboard use.
import { rmSync } from 'node:fs';
import { axeViolations } from './axe.ts';
import { expect, type Page, test } from '@playwright/test';
import {
  call,
  eventually,
  type ServeProcess,
  type ServiceWorkspace,
  sampleRecordAs,
  serviceWorkspace,
  startServe,
  stopServe,
} from '../integration/publish/support.ts';
import { type Reply, startReceiver, type TestReceiver } from '../integration/webhooks/support/receiver.ts';

const PAGE = '/dashboard/settings/mcp/webhooks/';
const HOSTILE = '<img src=x onerror=alert(1)>';

let workspace: ServiceWorkspace;
let service: ServeProcess;
let receiver: TestReceiver;
let key: string;
/** The secrets the receiver verifies with now; a test sets them as a receiver's operator would. */
let receiverSecrets: string[] = [];
/** Answers the receiver gives next, in order; after them, 200 to a delivery that verifies and 400 to one that does not. */
const replies: Reply[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  workspace = await serviceWorkspace('dashboard-e2e-', ['Dashboard']);
  key = workspace.organizations[0]!.key;
  receiverSecrets = [workspace.organizations[0]!.secret];
  receiver = await startReceiver({
    certificate: { key: workspace.certificate.key, cert: workspace.certificate.cert, certPath: workspace.certificate.certFile },
    secrets: () => receiverSecrets,
    now: Date.now,
    reply: (_index, request) =>
      replies.shift() ??
      (request.verification === 'accepted' ? { status: 200, body: 'ok' } : { status: 400, body: `rejected: ${request.verification}` }),
  });
  service = await startServe([
    ...['--records', workspace.recordsDir, '--out', workspace.outDir, '--data', workspace.dataDir],
    ...['--allow-loopback-callbacks', '--trust-ca', workspace.certificate.certFile],
  ]);
});

test.afterAll(async () => {
  await stopServe(service);
  await receiver?.close();
  if (workspace) rmSync(workspace.work, { recursive: true, force: true });
});

/** The signing secret as the API reveals it now. */
async function apiSecret(): Promise<string> {
  return (await call(service.url, '/api/webhooks/secret', { key })).json().signing_secret;
}

/** Opens the dashboard with the policy violations and dialogs it causes recorded. */
async function openDashboard(page: Page): Promise<{ violations: string[]; dialogs: string[] }> {
  const seen = { violations: [] as string[], dialogs: [] as string[] };
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.violations.push(message.text());
  });
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`${service.url}${PAGE}`);
  return seen;
}

async function signIn(page: Page, withKey = key): Promise<void> {
  await page.getByLabel('API key').fill(withKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Sends a test event to the receiver through the page's form and waits for its result. */
async function sendTestEvent(page: Page, path: string): Promise<void> {
  await page.getByLabel('Callback URL').fill(receiver.url(path));
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.locator('[data-test-result] .result')).toHaveText(/^The (receiver accepted|test event was not accepted)/, {
    timeout: 20_000,
  });
}

/** Presses Tab until `name`'s control has the focus; fails after `limit` presses. */
async function tabTo(page: Page, role: 'button' | 'textbox', name: string, limit = 40): Promise<void> {
  const target = page.getByRole(role, { name, exact: true });
  for (let pressed = 0; pressed < limit; pressed += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached the ${role} "${name}"`);
}

test('without a key the page asks for one, refuses a wrong key in words and keeps nothing', async ({ page }) => {
  const seen = await openDashboard(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Completion webhooks');
  await expect(page.getByText('This dashboard needs JavaScript.')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Reveal' })).toBeHidden();
  await signIn(page, 'gpk_not-a-key-of-anyone');
  await expect(page.locator('[data-status]')).toHaveText(
    'The service refused: the API key is unknown or revoked (HTTP 401, invalid_api_key).',
  );
  await expect(page.getByRole('button', { name: 'Reveal' })).toBeHidden();
  expect(await page.evaluate(() => [sessionStorage.length, localStorage.length, document.cookie])).toEqual([0, 0, '']);
  expect(seen.violations).toEqual([]);
});

test('without JavaScript the page says the dashboard needs it and points to the API and the CLI', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${service.url}${PAGE}`);
  await expect(page.getByText('This dashboard needs JavaScript.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'the signing secret' })).toHaveAttribute('href', '/docs/webhooks/#secret');
  await expect(page.getByLabel('API key')).toBeHidden();
  await context.close();
});

test('reveal shows the secret the API returns; hide and sign out forget it, and the key stays in the tab', async ({ page }) => {
  const seen = await openDashboard(page);
  await signIn(page);
  await expect(page.locator('[data-status]')).toHaveText('Signed in.');
  await expect(page.locator('[data-secret]')).toBeHidden();
  await page.getByRole('button', { name: 'Reveal' }).click();
  await expect(page.locator('[data-secret]')).toHaveText(await apiSecret());
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible();
  expect(await page.evaluate(() => [Object.values(sessionStorage), localStorage.length, document.cookie, location.href])).toEqual([
    [key],
    0,
    '',
    `${service.url}${PAGE}`,
  ]);
  await page.getByRole('button', { name: 'Hide' }).click();
  await expect(page.locator('[data-secret]')).toBeHidden();
  await expect(page.locator('[data-secret]')).toHaveText('');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('API key')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  await page.reload();
  await expect(page.getByLabel('API key')).toBeVisible();
  expect(seen.violations).toEqual([]);
});

test('copy puts the revealed secret on the clipboard, and says so', async ({ page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
  const seen = await openDashboard(page);
  await signIn(page);
  await page.getByRole('button', { name: 'Reveal' }).click();
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.locator('[data-status]')).toHaveText('The signing secret was copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await apiSecret());
  expect(seen.violations).toEqual([]);
});

test('where the browser will not copy, the secret is selected for the keyboard and the page says so', async ({ page }) => {
  await page.addInitScript(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
  });
  await openDashboard(page);
  await signIn(page);
  await page.getByRole('button', { name: 'Reveal' }).click();
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.locator('[data-status]')).toHaveText('The browser would not copy; the secret is selected, copy it with the keyboard.');
  expect(await page.evaluate(() => getSelection()?.toString())).toBe(await apiSecret());
});

test('rotating asks first in the spec words; then the old secret no longer verifies a new delivery and the new one does', async ({
  page,
}) => {
  const oldSecret = await apiSecret();
  receiverSecrets = [oldSecret];
  await openDashboard(page);
  await signIn(page);
  await page.getByRole('button', { name: 'Rotate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
  await expect(dialog).toContainText('The old secret stops verifying immediately');
  await expect(dialog).toContainText('Update your receiver first');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await apiSecret()).toBe(oldSecret);

  await page.getByRole('button', { name: 'Rotate' }).click();
  await dialog.getByRole('button', { name: 'Rotate now' }).click();
  await expect(page.locator('[data-status]')).toHaveText(/^The secret was rotated/);
  const newSecret = await apiSecret();
  expect(newSecret).not.toBe(oldSecret);
  await expect(page.locator('[data-secret]')).toHaveText(newSecret);

  const before = receiver.requests.length;
  await sendTestEvent(page, '/hooks/old-secret');
  await expect(page.locator('[data-test-result] .result')).toHaveText('The test event was not accepted: HTTP 400.');
  expect(receiver.requests[before]?.verification).toMatch(/^webhook signature rejected/);

  receiverSecrets = [newSecret];
  await sendTestEvent(page, '/hooks/new-secret');
  await expect(page.locator('[data-test-result] .result')).toHaveText('The receiver accepted the test event: HTTP 200.');
  expect(receiver.requests[before + 1]?.verification).toBe('accepted');
});

test('the log shows a failed attempt with the status, Retry-After and body, what was sent exactly, and a delivered one', async ({
  page,
}) => {
  receiverSecrets = [await apiSecret()];
  await openDashboard(page);
  await signIn(page);
  replies.push({ status: 503, body: 'receiver down for maintenance', headers: { 'Retry-After': '30' } });
  const before = receiver.requests.length;
  await sendTestEvent(page, '/hooks/failing');
  await expect(page.locator('[data-test-result] .result')).toHaveText('The test event was not accepted: HTTP 503.');
  const sent = receiver.requests[before]!;
  const failed = page.locator('[data-deliveries] > li').first();
  await expect(failed.locator('.state')).toHaveText('Given up after 1 attempt');
  const attempt = failed.locator('details.attempt').last();
  await expect(attempt.locator('summary')).toContainText('HTTP 503');
  await expect(attempt.locator('pre.sent').first()).toBeHidden();
  await attempt.locator('summary').click();
  await expect(attempt.locator('pre.sent').first()).toBeVisible();
  await expect(attempt.locator('pre.sent').first()).toHaveText('receiver down for maintenance');
  await expect(attempt.getByRole('definition').filter({ hasText: /^30$/ })).toHaveCount(1);
  await expect(attempt.locator('code').first()).toHaveText(sent.headers['x-svc-delivery'] as string);
  await expect(attempt.locator('pre.sent').last()).toHaveText(sent.body.toString('utf8'));
  await expect(attempt.getByRole('row', { name: /X-Svc-Event/ })).toContainText('test.completed');

  await sendTestEvent(page, '/hooks/accepting');
  await expect(page.locator('[data-test-result] .result')).toHaveText('The receiver accepted the test event: HTTP 200.');
  const delivered = page.locator('[data-deliveries] > li').first();
  await expect(delivered.locator('.state')).toHaveText('Delivered');
  await expect(delivered.locator('details.attempt').last().locator('summary')).toContainText('HTTP 200');
});

test('a hostile receiver answer shows as text and runs nothing', async ({ page }) => {
  receiverSecrets = [await apiSecret()];
  const seen = await openDashboard(page);
  await signIn(page);
  replies.push({ status: 500, body: HOSTILE, headers: { 'Content-Type': 'text/html' } });
  await sendTestEvent(page, '/hooks/hostile');
  const attempt = page.locator('[data-test-result] details.attempt').last();
  await expect(attempt.locator('pre.sent').first()).toBeVisible();
  await expect(attempt.locator('pre.sent').first()).toHaveText(HOSTILE);
  await expect(page.locator('[data-deliveries] > li').first().locator('details.attempt pre.sent').first()).toHaveText(HOSTILE);
  await expect(page.locator('main img')).toHaveCount(0);
  expect(seen.dialogs).toEqual([]);
  expect(seen.violations).toEqual([]);
});

test('a publish whose receiver fails awaits its retry with the time, is found by its handle, and a resend delivers it', async ({
  page,
}) => {
  test.setTimeout(240_000);
  receiverSecrets = [await apiSecret()];
  replies.push({ status: 503, body: 'busy', headers: { 'Retry-After': '120' } });
  const callbackUrl = encodeURIComponent(receiver.url('/hooks/publish'));
  const published = await call(service.url, `/api/publish?callback_url=${callbackUrl}`, { key, body: sampleRecordAs('dashboard-jacket') });
  expect(published.status).toBe(202);
  const { handle } = published.json();
  await eventually(
    async () => {
      const listed = (await call(service.url, `/api/webhooks/deliveries?handle=${handle}`, { key })).json();
      return listed.deliveries[0]?.attempts_made >= 1 ? true : undefined;
    },
    200_000,
    'the publish to be built and its first delivery attempt recorded',
  );

  await openDashboard(page);
  await signIn(page);
  await page.getByLabel('Handle').fill(handle.toUpperCase());
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page.locator('[data-log-summary]')).toHaveText(`1 delivery for handle ${handle}, newest first.`);
  const delivery = page.locator('[data-deliveries] > li');
  await expect(delivery.locator('.state')).toHaveText(/^Awaiting retry: next attempt at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  await expect(delivery.locator('h3')).toContainText('publish.completed');

  await delivery.getByRole('button', { name: 'Resend' }).click();
  await expect(page.locator('[data-status]')).toHaveText(/is sent again/);
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(delivery.locator('.state')).toHaveText('Delivered', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  expect(receiver.processedHandles).toContain(handle);
});

test('a key revoked while signed in signs the tab out, saying why', async ({ page }) => {
  const organization = workspace.organizations[0]!.id;
  const made = await workspace.admin('key', 'create', '--org', organization);
  await openDashboard(page);
  await signIn(page, made.api_key);
  await expect(page.locator('[data-status]')).toHaveText('Signed in.');
  await workspace.admin('key', 'revoke', '--org', organization, '--prefix', made.key_prefix);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.locator('[data-status]')).toHaveText(
    'The service refused: the API key is unknown or revoked (HTTP 401, invalid_api_key). You are signed out; sign in with a valid key.',
  );
  await expect(page.getByLabel('API key')).toBeVisible();
  await expect(page.locator('[data-deliveries] > li')).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
});

test('the log lists deliveries newest first, 20 a page as the API pages, and shows older ones on asking', async ({ page }) => {
  receiverSecrets = [await apiSecret()];
  const listed = async () =>
    (await call(service.url, '/api/webhooks/deliveries?limit=100', { key })).json().deliveries as { handle: string }[];
  while ((await listed()).length < 25) {
    await call(service.url, '/api/webhooks/test', { key, body: { callback_url: receiver.url('/hooks/paging') } });
  }
  const all = await listed();
  await openDashboard(page);
  await signIn(page);
  const items = page.locator('[data-deliveries] > li');
  await expect(items).toHaveCount(20);
  await expect(page.locator('[data-log-summary]')).toHaveText('20 deliveries, newest first.');
  await expect(items.first().locator('.handle')).toHaveText(all[0]!.handle);
  await page.getByRole('button', { name: 'Show older deliveries' }).click();
  await expect(items).toHaveCount(Math.min(all.length, 40));
  await expect(items.nth(20).locator('.handle')).toHaveText(all[20]!.handle);
  if (all.length < 40) await expect(page.getByRole('button', { name: 'Show older deliveries' })).toBeHidden();
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`axe finds no violation signed out and signed in with the log shown, ${colorScheme}, ${size.width} pixels`, async ({ page }) => {
      receiverSecrets = [await apiSecret()];
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme });
      await openDashboard(page);
      expect(await axeViolations(page), 'signed out').toEqual([]);
      await signIn(page);
      replies.push({ status: 502, body: 'bad gateway' });
      await sendTestEvent(page, '/hooks/axe');
      await page.getByRole('button', { name: 'Reveal' }).click();
      await expect(page.locator('[data-secret]')).toBeVisible();
      expect(await axeViolations(page), 'signed in').toEqual([]);
    });
  }
}

test('keyboard alone signs in, reaches Reveal and Rotate, and a rotation is cancelled or confirmed', async ({ page }) => {
  const oldSecret = await apiSecret();
  await openDashboard(page);
  await tabTo(page, 'textbox', 'API key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-status]')).toHaveText('Signed in.');

  await tabTo(page, 'button', 'Reveal');
  const outline = await page.getByRole('button', { name: 'Reveal' }).evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-secret]')).toHaveText(oldSecret);

  await tabTo(page, 'button', 'Rotate');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Rotate' })).toBeFocused();
  expect(await apiSecret()).toBe(oldSecret);

  await page.keyboard.press('Enter');
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Rotate now' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-status]')).toHaveText(/^The secret was rotated/);
  const newSecret = await apiSecret();
  expect(newSecret).not.toBe(oldSecret);
  await expect(page.locator('[data-secret]')).toHaveText(newSecret);
});
