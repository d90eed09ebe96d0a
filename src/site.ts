// Binds the site to its records: the index the build already validated, else the records folder.
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
