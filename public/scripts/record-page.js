// A record page, made better where JavaScript runs (everything works without it): a claim marker
// shows its claims in place, the citations copy, the contents mark where the reader is, and a table
// that scrolls sideways says so. Its words come from the page (data-* on the article), set from strings.ts.
(() => {
  const article = document.querySelector('article.record');
  if (!article) return;
  const words = article.dataset;

  // Claim previews: a marker opens a popover holding each claim's preview and a link to its full entry.
  const popover = document.createElement('div');
  if (typeof popover.showPopover === 'function') {
    popover.id = 'claim-preview';
    popover.className = 'claim-popover';
    popover.popover = 'auto';
    popover.setAttribute('role', 'dialog');
    popover.setAttribute('aria-label', words.previewLabel);
    document.body.append(popover);
    let opener = null;
    document.addEventListener('click', (event) => {
      const marker = event.target instanceof Element ? event.target.closest('a.claim-ref') : null;
      if (!marker || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      // A fact's evidence names its claims by number (`data-claims`); a run (`1–3`) stands for each claim
      // it spans: the claims list holds claim n at place n.
      const numbered = document.querySelectorAll('ol.claims > li.claim');
      const [first, last = first] = marker.textContent.split('–').map(Number);
      const entries = marker.dataset.claims
        ? marker.dataset.claims.split(' ').map((n) => numbered[Number(n) - 1])
        : marker.textContent.includes('–')
          ? [...numbered].slice(first - 1, last)
          : [document.getElementById(marker.getAttribute('href').slice(1))];
      const claims = entries.filter((entry) => entry?.matches('li.claim'));
      if (claims.length === 0) return;
      event.preventDefault();
      // One claim opens its preview; several open a list of them, each opening its own preview.
      if (claims.length === 1) showPreview(claims[0], null);
      else showList(claims);
      opener = marker;
      if (popover.matches(':popover-open')) popover.hidePopover();
      popover.showPopover();
      place(popover, marker);
      popover.querySelector('.full-entry, .preview-pick').focus();
    });

    const closeButton = () => {
      const close = document.createElement('button');
      close.type = 'button';
      close.className = 'preview-close';
      close.textContent = words.close;
      close.addEventListener('click', () => popover.hidePopover());
      return close;
    };

    /** The claim's preview: its head, kind and scope, and first reference, with a link to its full entry (and back to the list it was picked from). */
    function showPreview(entry, list) {
      const preview = document.createElement('div');
      for (const part of [entry.querySelector('.claim-head'), entry.querySelector('.claim-scope'), entry.querySelector('.references')]) {
        if (part) preview.append(part.cloneNode(true));
      }
      const full = document.createElement('a');
      full.href = `#${entry.id}`;
      full.className = 'full-entry';
      full.textContent = words.fullEntry;
      const item = document.createElement('div');
      item.className = 'preview-item';
      item.append(preview, full);
      popover.replaceChildren(closeButton(), item);
      if (list) {
        const back = document.createElement('button');
        back.type = 'button';
        back.className = 'preview-back';
        back.textContent = words.backToList;
        back.addEventListener('click', () => showList(list));
        item.append(' ', back);
      }
    }

    /** A list of claims, a line each (its number, what it says, its verification), each opening its preview. */
    function showList(claims) {
      const list = document.createElement('ol');
      list.className = 'preview-list';
      for (const entry of claims) {
        const pick = document.createElement('button');
        pick.type = 'button';
        pick.className = 'preview-pick';
        const number = document.createElement('span');
        number.className = 'pick-number';
        number.textContent = entry.querySelector('.claim-number')?.textContent ?? '';
        pick.append(number, ` ${entry.querySelector('.claim-value')?.textContent ?? ''}`);
        pick.addEventListener('click', () => {
          showPreview(entry, claims);
          popover.querySelector('.full-entry').focus();
        });
        const item = document.createElement('li');
        item.append(pick);
        const badge = entry.querySelector('.claim-head .badge');
        if (badge) item.append(' ', badge.cloneNode(true));
        list.append(item);
      }
      popover.replaceChildren(closeButton(), list);
    }
    // Following a link in the preview closes it; closing it returns focus to the marker.
    popover.addEventListener('click', (event) => {
      if (event.target instanceof Element && event.target.closest('a')) {
        opener = null;
        popover.hidePopover();
      }
    });
    popover.addEventListener('toggle', (event) => {
      if (event.newState === 'closed' && opener) {
        opener.focus();
        opener = null;
      }
    });
  }

  /** Beside the marker on a wide screen (below it, or above when there is no room); a narrow screen's CSS docks it at the bottom. */
  function place(box, marker) {
    box.style.top = box.style.left = '';
    if (window.matchMedia('(max-width: 40rem)').matches) return;
    const at = marker.getBoundingClientRect();
    const size = box.getBoundingClientRect();
    const below = at.bottom + 6;
    const top = below + size.height > window.innerHeight - 8 ? Math.max(8, at.top - size.height - 6) : below;
    const left = Math.min(Math.max(8, at.left - 16), window.innerWidth - size.width - 8);
    box.style.top = `${top}px`;
    box.style.left = `${left}px`;
  }

  // Copy buttons for the citations.
  if (navigator.clipboard) {
    for (const text of document.querySelectorAll('pre.cite-text')) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy';
      // "Copy Plain text", "Copy BibTeX": the label above the citation names what the button copies.
      button.textContent = words.copy;
      button.setAttribute('aria-label', `${words.copy} ${text.previousElementSibling?.textContent ?? ''}`.trim());
      button.addEventListener('click', async () => {
        await navigator.clipboard.writeText(text.textContent);
        button.textContent = words.copied;
        setTimeout(() => (button.textContent = words.copy), 2000);
      });
      text.before(button);
    }
  }

  // The contents mark the part being read: the first in the screen's top part; at the page's end, where
  // the last (folded, short) parts cannot reach the top, the last part in the screen.
  const links = new Map([...document.querySelectorAll('.contents a[href^="#"]')].map((a) => [a.getAttribute('href').slice(1), a]));
  const parts = [...links.keys()].map((id) => document.getElementById(id)).filter(Boolean);
  if ('IntersectionObserver' in window && parts.length > 0) {
    const visible = new Set();
    const mark = () => {
      const atEnd = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      const current = atEnd
        ? parts.findLast((part) => part.getBoundingClientRect().top < window.innerHeight)
        : parts.find((part) => visible.has(part));
      if (!current) return;
      for (const [id, link] of links) id === current.id ? link.setAttribute('aria-current', 'true') : link.removeAttribute('aria-current');
    };
    const observer = new IntersectionObserver(
      (changes) => {
        for (const change of changes) change.isIntersecting ? visible.add(change.target) : visible.delete(change.target);
        mark();
      },
      { rootMargin: '0px 0px -60% 0px' },
    );
    for (const part of parts) observer.observe(part);
    let pending = false;
    window.addEventListener(
      'scroll',
      () => {
        if (pending) return;
        pending = true;
        requestAnimationFrame(() => {
          pending = false;
          mark();
        });
      },
      { passive: true },
    );
  }

  // Folded evidence opens for any link into it (the contents, a claim's number, an address with a #fragment):
  // the folds around the target, and a part's own folds when the link names the part.
  const unfold = (id, scroll) => {
    const target = id && document.getElementById(decodeURIComponent(id));
    if (!target || !article.contains(target)) return;
    const folds = [...target.querySelectorAll(':scope > details:not([open])')];
    for (let fold = target.closest('details'); fold; fold = fold.parentElement.closest('details')) folds.push(fold);
    if (target.matches('details')) folds.push(target);
    const closed = folds.filter((fold) => !fold.open);
    for (const fold of closed) fold.open = true;
    if (closed.length > 0 && scroll) target.scrollIntoView();
  };
  unfold(location.hash.slice(1), true);
  window.addEventListener('hashchange', () => unfold(location.hash.slice(1), true));
  // Following a link to the address already shown changes no hash: open on the click, before the browser scrolls.
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href^="#"]') : null;
    if (link && !event.defaultPrevented) unfold(link.getAttribute('href').slice(1), false);
  });

  // A table wider than its box says that it scrolls sideways.
  if ('ResizeObserver' in window) {
    const hint = (scroller) => {
      const scrolls = scroller.scrollWidth > scroller.clientWidth + 1;
      let note = scroller.previousElementSibling?.matches('.scroll-hint') ? scroller.previousElementSibling : null;
      if (scrolls && !note) {
        note = document.createElement('p');
        note.className = 'scroll-hint';
        note.setAttribute('aria-hidden', 'true');
        note.textContent = words.scrollHint;
        scroller.before(note);
      } else if (!scrolls && note) note.remove();
    };
    const resized = new ResizeObserver((changes) => changes.forEach((change) => hint(change.target)));
    for (const scroller of document.querySelectorAll('.table-scroll')) resized.observe(scroller);
  }
})();
