// The dashboard page's script (../dashboard-page.ts): signs in with an API key kept in sessionStorage,
// and reveals and rotates the signing secret, lists delivery attempts and sends test events through
// the publish API. Everything the API returns goes into the page as text nodes; its own words come
// from the page's data-messages (strings.ts, through ../dashboard-messages.ts).
import { deliveryItem, element } from './delivery-nodes.ts';
import {
  countMessage,
  type DashboardMessages,
  type DeliveryView,
  deliveriesQuery,
  deliveryView,
  fillMessage,
  refusalText,
  testResultText,
  type WireDeliveryPage,
} from './delivery-view.ts';
import type { WireDelivery } from '../../webhooks/delivery-record.ts';

/** The sessionStorage entry holding the key: gone when the tab closes, never sent but as a header. */
const KEY_ENTRY = 'garment-press.dashboard.api-key';

type ApiAnswer = { ok: true; status: number; json: unknown } | { ok: false; status: number; message: string };

function part<T extends HTMLElement>(name: string): T {
  const found = document.querySelector<T>(`[data-${name}]`);
  if (found === null) throw new Error(`the dashboard page has no [data-${name}]`);
  return found;
}

const page = {
  needsScript: part<HTMLParagraphElement>('needs-script'),
  status: part<HTMLParagraphElement>('status'),
  signedOut: part<HTMLElement>('signed-out'),
  signedIn: part<HTMLElement>('signed-in'),
  signInForm: part<HTMLFormElement>('sign-in-form'),
  signOut: part<HTMLButtonElement>('sign-out'),
  secret: part<HTMLElement>('secret'),
  secretHidden: part<HTMLElement>('secret-hidden'),
  reveal: part<HTMLButtonElement>('reveal'),
  copy: part<HTMLButtonElement>('copy'),
  hide: part<HTMLButtonElement>('hide'),
  rotate: part<HTMLButtonElement>('rotate'),
  rotateDialog: part<HTMLDialogElement>('rotate-dialog'),
  rotateConfirm: part<HTMLButtonElement>('rotate-confirm'),
  rotateCancel: part<HTMLButtonElement>('rotate-cancel'),
  testForm: part<HTMLFormElement>('test-form'),
  testResult: part<HTMLElement>('test-result'),
  filterForm: part<HTMLFormElement>('filter-form'),
  refresh: part<HTMLButtonElement>('refresh'),
  logSummary: part<HTMLParagraphElement>('log-summary'),
  deliveries: part<HTMLOListElement>('deliveries'),
  older: part<HTMLButtonElement>('older'),
};

/** The page's words, as dashboard-messages.ts made them. */
const messages = JSON.parse(part<HTMLElement>('messages').dataset.messages ?? '{}') as DashboardMessages;

/** What the attempt log shows: its handle filter and where the next page starts. */
const log = { handle: '', nextBefore: null as number | null, shown: 0 };

function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_ENTRY);
  } catch {
    return null;
  }
}

/** Says something in the page's one live region. */
function announce(text: string): void {
  page.status.textContent = text;
}

/** Calls the publish API with the key; a network failure or refusal comes back as words. */
async function callApi(method: 'GET' | 'POST', path: string, body?: unknown, key = storedKey()): Promise<ApiAnswer> {
  if (key === null) return { ok: false, status: 401, message: messages.signInFirst };
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'omit',
      cache: 'no-store',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    return { ok: false, status: 0, message: fillMessage(messages.unreachable, { reason: (error as Error).message }) };
  }
  const text = await response.text();
  if (!response.ok) return { ok: false, status: response.status, message: refusalText(response.status, text, messages) };
  try {
    return { ok: true, status: response.status, json: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: response.status, message: fillMessage(messages.notJson, { status: response.status }) };
  }
}

/** Reports a refusal; a key refused mid-session (revoked, say) signs out. */
function refused(answer: Extract<ApiAnswer, { ok: false }>): void {
  if (answer.status === 401 && storedKey() !== null) {
    signOut(fillMessage(messages.signedOutRefused, { refusal: answer.message }));
    return;
  }
  announce(answer.message);
}

function showSignedIn(signedIn: boolean): void {
  page.signedIn.hidden = !signedIn;
  page.signedOut.hidden = signedIn;
}

async function signIn(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const input = page.signInForm.elements.namedItem('api-key') as HTMLInputElement;
  const key = input.value.trim();
  if (key === '') return;
  announce(messages.checking);
  const answer = await callApi('GET', `/api/webhooks/deliveries${deliveriesQuery({ limit: 1 })}`, undefined, key);
  if (!answer.ok) {
    announce(answer.message);
    input.focus();
    return;
  }
  input.value = '';
  try {
    sessionStorage.setItem(KEY_ENTRY, key);
  } catch {
    announce(messages.noStorage);
    return;
  }
  showSignedIn(true);
  announce(messages.signedIn);
  page.reveal.focus();
  await loadDeliveries(false);
}

function signOut(message = messages.signedOut): void {
  try {
    sessionStorage.removeItem(KEY_ENTRY);
  } catch {
    // Nothing was kept.
  }
  hideSecret();
  page.deliveries.replaceChildren();
  page.testResult.replaceChildren();
  page.logSummary.textContent = '';
  page.older.hidden = true;
  showSignedIn(false);
  announce(message);
  (page.signInForm.elements.namedItem('api-key') as HTMLInputElement).focus();
}

function showSecret(secret: string): void {
  page.secret.textContent = secret;
  page.secret.hidden = false;
  page.secretHidden.hidden = true;
  page.copy.hidden = false;
  page.hide.hidden = false;
  page.reveal.hidden = true;
}

function hideSecret(): void {
  page.secret.textContent = '';
  page.secret.hidden = true;
  page.secretHidden.hidden = false;
  page.copy.hidden = true;
  page.hide.hidden = true;
  page.reveal.hidden = false;
}

async function reveal(): Promise<void> {
  const answer = await callApi('GET', '/api/webhooks/secret');
  if (!answer.ok) return refused(answer);
  showSecret((answer.json as { signing_secret: string }).signing_secret);
  announce(messages.secretShown);
  page.copy.focus();
}

async function copy(): Promise<void> {
  try {
    await navigator.clipboard.writeText(page.secret.textContent ?? '');
    announce(messages.copied);
  } catch {
    // No clipboard for this page: leave the secret selected for the keyboard's copy.
    getSelection()?.selectAllChildren(page.secret);
    announce(messages.copyRefused);
  }
}

async function rotate(): Promise<void> {
  page.rotateDialog.close();
  page.rotateConfirm.disabled = true;
  const answer = await callApi('POST', '/api/webhooks/secret/rotate');
  page.rotateConfirm.disabled = false;
  if (!answer.ok) return refused(answer);
  showSecret((answer.json as { signing_secret: string }).signing_secret);
  announce(messages.rotated);
  page.copy.focus();
}

async function sendTest(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const callbackUrl = (page.testForm.elements.namedItem('callback_url') as HTMLInputElement).value.trim();
  const button = page.testForm.querySelector('button[type="submit"]') as HTMLButtonElement;
  button.disabled = true;
  announce(messages.sending);
  const answer = await callApi('POST', '/api/webhooks/test', { callback_url: callbackUrl });
  button.disabled = false;
  page.testResult.replaceChildren();
  if (!answer.ok) {
    page.testResult.append(element('p', 'result failed', answer.message));
    return refused(answer);
  }
  const view = deliveryView((answer.json as { delivery: WireDelivery }).delivery, messages);
  const result = testResultText(view, messages);
  page.testResult.append(
    element('p', `result ${view.stateKind}`, result),
    element('ol', 'deliveries', deliveryItem(view, 'test-delivery', true, messages)),
  );
  announce(result);
  await loadDeliveries(false);
}

async function resend(view: DeliveryView, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  const answer = await callApi('POST', `/api/webhooks/deliveries/${encodeURIComponent(view.handle)}/resend`);
  button.disabled = false;
  if (!answer.ok) return refused(answer);
  announce(fillMessage(messages.resent, { event: view.event, handle: view.handle }));
  await loadDeliveries(false);
}

/** Loads the first page of the log again, or (`more`) the page after those shown; false when refused. */
async function loadDeliveries(more: boolean): Promise<boolean> {
  const query = deliveriesQuery({ handle: log.handle, before: more ? log.nextBefore : null });
  const answer = await callApi('GET', `/api/webhooks/deliveries${query}`);
  if (!answer.ok) {
    refused(answer);
    return false;
  }
  const loaded = answer.json as WireDeliveryPage;
  if (!more) {
    page.deliveries.replaceChildren();
    log.shown = 0;
  }
  for (const delivery of loaded.deliveries)
    page.deliveries.append(deliveryItem(deliveryView(delivery, messages), 'delivery', false, messages, resend));
  log.shown += loaded.deliveries.length;
  log.nextBefore = loaded.next_before;
  page.older.hidden = loaded.next_before === null;
  page.logSummary.textContent = logSummary();
  return true;
}

/** The attempt log's one line: how many deliveries are shown, for which handle. */
function logSummary(): string {
  const { handle, shown } = log;
  if (handle === '') return shown === 0 ? messages.logNone : countMessage(messages.logCount, shown);
  return shown === 0 ? fillMessage(messages.logNoneForHandle, { handle }) : countMessage(messages.logCountForHandle, shown, { handle });
}

page.signInForm.addEventListener('submit', (event) => void signIn(event));
page.signOut.addEventListener('click', () => signOut());
page.reveal.addEventListener('click', () => void reveal());
page.copy.addEventListener('click', () => void copy());
page.hide.addEventListener('click', () => {
  hideSecret();
  announce(messages.secretHidden);
  page.reveal.focus();
});
page.rotate.addEventListener('click', () => page.rotateDialog.showModal());
page.rotateCancel.addEventListener('click', () => page.rotateDialog.close());
page.rotateConfirm.addEventListener('click', () => void rotate());
page.testForm.addEventListener('submit', (event) => void sendTest(event));
page.filterForm.addEventListener('submit', (event) => {
  event.preventDefault();
  log.handle = (page.filterForm.elements.namedItem('handle') as HTMLInputElement).value.trim().toLowerCase();
  void loadDeliveries(false);
});
page.refresh.addEventListener('click', async () => {
  if (await loadDeliveries(false)) announce(messages.upToDate);
});
page.older.addEventListener('click', () => void loadDeliveries(true));

page.needsScript.hidden = true;
showSignedIn(storedKey() !== null);
if (storedKey() !== null) void loadDeliveries(false);
