// Binds the site to its records: the index the build already validated, else the records folder.
import { sitemapPages, sitemapParts, type SitemapPage } from './lib/site/site-files.ts';
import { loadSiteIndex, readSiteIndexFile, type SiteIndex } from './lib/site/site-index.ts';
import { stylesheetOf } from './lib/site/stylesheet.ts';
import css from './styles/global.css?raw';

/** The folder the site is built from (`npm run build -- --records`), else records/. */
export const recordsDir = process.env.GARMENT_PRESS_RECORDS ?? 'records';

/** The site's stylesheet, published by src/pages/styles/[name].css.ts. */
export const stylesheet = stylesheetOf(css);

/** The index of every record this build publishes. */
export function siteIndex(): Promise<SiteIndex> {
  const indexFile = process.env.GARMENT_PRESS_SITE_INDEX;
  return indexFile ? readSiteIndexFile(indexFile) : loadSiteIndex(recordsDir);
}

/** The site's HTML pages for its sitemap, in parts of at most 50,000 (one part for most sites). */
export async function sitemap(): Promise<SitemapPage[][]> {
  // Route files relative to src/pages, so a new page is listed without editing this.
  const routeFiles = Object.keys(import.meta.glob('./pages/**/*.{astro,md,mdx,html}')).map((file) => file.replace(/^\.\/pages\//, './'));
  return sitemapParts(sitemapPages(routeFiles, await siteIndex()));
}
