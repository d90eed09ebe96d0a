// Binds the site to its records folder: set by `npm run build --records`, else records/.
import { loadSiteIndex, type SiteIndex } from './lib/site/site-index.ts';

/** The folder the site is built from. */
export const recordsDir = process.env.GARMENT_PRESS_RECORDS ?? 'records';

/** The index of every record this build publishes. */
export function siteIndex(): Promise<SiteIndex> {
  return loadSiteIndex(recordsDir);
}
