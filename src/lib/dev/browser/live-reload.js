// Added to every page by `npm run dev` only (never written into the site): listens to the
// development server, reloads the page when its files change, and shows why a build failed over
// the last good page. It runs under the site's strict policy: it comes from the site's own origin,
// its stream too, and it styles its panel through the DOM, not through a style attribute.
(() => {
  const script = document.currentScript;
  if (!(script instanceof HTMLScriptElement)) return;
  const { events: stream = '', page = '', version = '' } = script.dataset;
  const events = new EventSource(`${stream}?${new URLSearchParams({ page, version })}`);
  let panel = null;

  const take = () => {
    panel?.remove();
    panel = null;
  };

  const show = (
    /** @type {{ summary: string; problems?: { file: string; pointer: string; message: string }[]; detail?: string }} */ found,
  ) => {
    take();
    panel = document.createElement('section');
    panel.setAttribute('role', 'alert');
    panel.setAttribute('aria-label', 'Build problems');
    panel.dataset.devProblems = '';
    Object.assign(panel.style, {
      position: 'fixed',
      insetInline: '0',
      insetBlockEnd: '0',
      zIndex: '2147483647',
      maxBlockSize: '50vh',
      overflow: 'auto',
      padding: '1rem 1.25rem',
      background: '#5c0b0b',
      color: '#ffffff',
      font: '0.95rem/1.45 system-ui, sans-serif',
      boxShadow: '0 -0.25rem 1rem rgb(0 0 0 / 0.35)',
    });
    const heading = document.createElement('h2');
    heading.textContent = found.summary;
    Object.assign(heading.style, { margin: '0 0 0.5rem', fontSize: '1.05rem', color: 'inherit' });
    panel.append(heading);
    const list = document.createElement('ul');
    Object.assign(list.style, { margin: '0', paddingInlineStart: '1.25rem' });
    for (const problem of found.problems ?? []) {
      const item = document.createElement('li');
      const where = document.createElement('code');
      where.textContent = `${problem.file}: ${problem.pointer === '' ? '(record)' : problem.pointer}`;
      // The site's own code style is for its light page, not for this panel.
      Object.assign(where.style, { color: 'inherit', background: 'rgb(255 255 255 / 0.14)', fontWeight: '600', overflowWrap: 'anywhere' });
      item.append(where, `: ${problem.message}`);
      list.append(item);
    }
    if (list.childElementCount > 0) panel.append(list);
    if (found.detail) {
      const detail = document.createElement('pre');
      detail.textContent = found.detail;
      Object.assign(detail.style, { margin: '0', whiteSpace: 'pre-wrap', color: 'inherit', background: 'transparent' });
      panel.append(detail);
    }
    document.body.append(panel);
  };

  events.addEventListener('reload', () => {
    events.close();
    location.reload();
  });
  events.addEventListener('problems', (event) => show(JSON.parse(event.data)));
  events.addEventListener('clear', take);
})();
