// The dashboard's DOM for a delivery (browser only). Receiver answers and recorded requests are
// untrusted: every value goes in as a text node, never as markup or as a link.
import { type AttemptView, countMessage, type DashboardMessages, type DeliveryView, fillMessage, type TimeView } from './delivery-view.ts';

type Child = Node | string;

/** Returns an element with a class (if any) and its children; strings become text nodes. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className !== null) made.className = className;
  made.append(...children);
  return made;
}

function timeNode(time: TimeView): HTMLTimeElement {
  const node = element('time', null, time.text);
  node.dateTime = time.iso;
  return node;
}

/** Returns a description list of the pairs given, leaving out absent values. */
function facts(pairs: Array<[string, Child | null]>): HTMLDListElement {
  const list = element('dl', 'facts');
  for (const [term, value] of pairs) {
    if (value === null) continue;
    list.append(element('dt', null, term), element('dd', null, value));
  }
  return list;
}

function preformatted(text: string): HTMLPreElement {
  // Focusable so a keyboard can scroll a long body sideways.
  const block = element('pre', 'sent', text);
  block.tabIndex = 0;
  return block;
}

function headersTable(headers: AttemptView['headers'], caption: string, messages: DashboardMessages): HTMLTableElement {
  const table = element('table', 'headers', element('caption', null, caption));
  const head = element('thead', null, element('tr', null, headerCell(messages.header), headerCell(messages.value)));
  const body = element('tbody', null);
  for (const [name, value] of headers) body.append(element('tr', null, element('th', null, name), element('td', null, value)));
  for (const row of body.rows) row.cells[0]?.setAttribute('scope', 'row');
  table.append(head, body);
  return table;
}

function headerCell(text: string): HTMLTableCellElement {
  const cell = element('th', null, text);
  cell.scope = 'col';
  return cell;
}

/** Returns one attempt: its answer in the summary line, and what was sent and received when opened. */
export function attemptItem(attempt: AttemptView, open: boolean, messages: DashboardMessages): HTMLLIElement {
  const summary = element('summary', null, element('span', 'attempt-title', attempt.title), ' ', attempt.summary);
  const answer = element('span', attempt.accepted ? 'answer accepted' : 'answer failed', attempt.answer);
  const details = element(
    'details',
    'attempt',
    summary,
    facts([
      [messages.when, timeNode(attempt.when)],
      [messages.deliveryId, element('code', null, attempt.deliveryId)],
      [messages.answered, answer],
      [messages.durationLabel, attempt.duration],
      [messages.retryAfter, attempt.retryAfter],
    ]),
    element('h5', null, messages.excerpt),
    attempt.responseExcerpt === null ? element('p', 'help', messages.nothingBack) : preformatted(attempt.responseExcerpt),
    element('h5', null, messages.sent),
    headersTable(attempt.headers, fillMessage(messages.headersOf, { number: attempt.number }), messages),
    element('p', 'help', messages.body),
    preformatted(attempt.body),
  );
  details.open = open;
  return element('li', null, details);
}

/**
 * Returns one delivery as a list item: event, handle, tool, state, and its attempts, the latest open
 * when `openLatest`. `onResend` adds a Resend button when the API would take one.
 */
export function deliveryItem(
  view: DeliveryView,
  idPrefix: string,
  openLatest: boolean,
  messages: DashboardMessages,
  onResend?: (view: DeliveryView, button: HTMLButtonElement) => void,
): HTMLLIElement {
  const headingId = `${idPrefix}-${view.id}`;
  const heading = element('h3', null, view.event, ' ', element('span', 'handle', view.handle));
  heading.id = headingId;
  const article = element(
    'article',
    'delivery',
    heading,
    element('p', `state state-${view.stateKind}`, view.state),
    facts([
      [messages.tool, view.tool],
      [messages.callbackUrl, element('code', null, view.callbackUrl)],
      [messages.recorded, timeNode(view.created)],
    ]),
  );
  article.setAttribute('aria-labelledby', headingId);
  if (onResend !== undefined && view.canResend) {
    const button = element('button', null, messages.resend);
    button.type = 'button';
    button.setAttribute('aria-describedby', headingId);
    button.addEventListener('click', () => onResend(view, button));
    article.append(element('p', 'actions', button));
  }
  const attempts = element('ol', 'attempts');
  view.attempts.forEach((attempt, index) =>
    attempts.append(attemptItem(attempt, openLatest && index === view.attempts.length - 1, messages)),
  );
  article.append(element('h4', null, countMessage(messages.attempts, view.attempts.length)), attempts);
  return element('li', null, article);
}
