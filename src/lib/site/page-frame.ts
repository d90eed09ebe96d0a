import { HEAD_DESCRIPTION_LENGTH, HEAD_TITLE_LENGTH, headText } from './head-text.ts';
import { html, markupPieces, type HtmlValue, type Html } from './html.ts';
import { t } from './strings.ts';
import { API_DOCS_PATH, IMAGES_SCRIPT_PATH } from './urls.ts';

/** What a page's head says about it. */
export interface PageHead {
  title: string;
  description?: string | null;
  /** The page's absolute address, when the site has one. */
  canonical: string | null;
  /** An absolute http(s) image for link previews. */
  image?: string | null;
  ogType: 'website' | 'article';
  /** The site's stylesheet (see stylesheet.ts). */
  stylesheet: string;
  /** The page's site path, to mark its section in the site's navigation. */
  path?: string | null;
  /** Whether the page shows record pictures: only then does it load the script standing in for one that fails. */
  recordImages?: boolean;
}

/** The head every page shares: title, description, canonical, Open Graph, icon, stylesheet, and on a page of record pictures the script that stands in for one that fails. */
export function headHtml({
  title: fullTitle,
  description: fullDescription,
  canonical,
  image,
  ogType,
  stylesheet,
  recordImages = false,
}: PageHead): Html {
  const title = headText(fullTitle, HEAD_TITLE_LENGTH);
  const description = fullDescription && headText(fullDescription, HEAD_DESCRIPTION_LENGTH);
  return html`<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${title}</title>${
    description && html`<meta name="description" content="${description}">`
  }${canonical && html`<link rel="canonical" href="${canonical}">`}<meta property="og:site_name" content="${t('site.name')}"><meta property="og:title" content="${title}"><meta property="og:type" content="${ogType}">${
    description && html`<meta property="og:description" content="${description}">`
  }${canonical && html`<meta property="og:url" content="${canonical}">`}${image && html`<meta property="og:image" content="${image}">`}<meta name="twitter:card" content="${
    image ? 'summary_large_image' : 'summary'
  }"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="${stylesheet}">${recordImages && html`<script src="${IMAGES_SCRIPT_PATH}" defer></script>`}`;
}

/** The site's sections, each the paths it holds: its link is marked current on each of them. */
const SECTIONS = [
  { key: 'nav.home', href: '/', holds: (path: string) => path === '/' || path.startsWith('/garments/') || path.startsWith('/categories/') },
  { key: 'nav.search', href: '/search/', holds: (path: string) => path.startsWith('/search/') },
  { key: 'site.docs', href: API_DOCS_PATH, holds: (path: string) => path.startsWith('/docs/') },
] as const;

/** The skip link and the site's header with its navigation, the section of `path` (a site path) marked current. */
export function siteHeaderHtml(path: string | null = null): Html {
  return html`<a class="skip-link" href="#main">${t('nav.skip')}</a><header class="site-header"><nav aria-label="${t('nav.primary')}" class="site-nav"><a href="/" class="site-name">${t(
    'site.name',
  )}</a><ul>${SECTIONS.map((section) => html`<li><a href="${section.href}"${path !== null && section.holds(path) ? html` aria-current="${path === section.href ? 'page' : 'true'}"` : ''}>${t(section.key)}</a></li>`)}</ul></nav></header>`;
}

/** The site's footer. */
export function siteFooterHtml(): Html {
  return html`<footer class="site-footer"><div class="site-footer-inner"><p>${t('site.footer')}</p></div></footer>`;
}

/** A whole page built outside Astro, in the frame Base.astro gives Astro's pages, in pieces (see markupPieces): `main`'s, between the frame's. */
export function pageDocument(head: PageHead, main: HtmlValue, moreHead: Html | null = null): string[] {
  return markupPieces([
    html`<!DOCTYPE html><html lang="en"><head>${headHtml(head)}${moreHead}</head><body>${siteHeaderHtml(head.path ?? null)}<main id="main" tabindex="-1">`,
    main,
    html`</main>${siteFooterHtml()}</body></html>`,
  ]);
}
