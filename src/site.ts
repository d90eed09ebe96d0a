// Binds Astro's pages to the build that runs them: its site context (src/lib/pipeline/site-pages.ts) and the stylesheet.
import context from 'virtual:garment-press/site-context';
import { sitemapPages, sitemapParts, type SitemapPage } from './lib/site/site-files.ts';
import { indexEntries, type SiteIndex } from './lib/site/site-index.ts';
import { stylesheetOf } from './lib/site/stylesheet.ts';
import css from './styles/global.css?raw';

/** The site's stylesheet, published by src/pages/styles/[name].css.ts. */
export const stylesheet = stylesheetOf(css);

const index = indexEntries(context.entries, context.renderedSlugs && new Set(context.renderedSlugs));

/** The index of every record this build publishes, as the build checked them. */
export function siteIndex(): SiteIndex {
  return index;
}

const keptPages = new Set(context.keptPages);

/** Whether this build renders a listing page (else the last build's is carried over, its view being the same). */
export function rendersPage(path: string): boolean {
  return !keptPages.has(path);
}

/** The site's HTML pages for its sitemap, in parts of at most 50,000 (one part for most sites). */
export function sitemap(): SitemapPage[][] {
  // Route files relative to src/pages, so a new page is listed without editing this.
  const routeFiles = Object.keys(import.meta.glob('./pages/**/*.{astro,md,mdx,html}')).map((file) => file.replace(/^\.\/pages\//, './'));
  return sitemapParts(sitemapPages(routeFiles, index));
}
