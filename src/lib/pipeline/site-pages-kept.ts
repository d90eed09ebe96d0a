// Which of Astro's listing pages a rebuild keeps from the last build: a category page whose view is the same renders the same.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { categoryPages } from '../site/index-view.ts';
import { indexEntries, type SiteEntry } from '../site/site-index.ts';

/**
 * Each category page's path with a digest of its view, everything the page is rendered from (the
 * code and settings being the same, as the build's fingerprint makes sure for any page kept).
 */
export function listingPageDigests(entries: SiteEntry[]): Record<string, string> {
  return Object.fromEntries(
    categoryPages(indexEntries(entries)).map((view) => [view.path, createHash('sha256').update(JSON.stringify(view)).digest('base64url')]),
  );
}

/** The listing pages (paths) whose digest is the last build's and whose file the last build left: kept, not rendered again. */
export function keptListingPages(digests: Record<string, string>, last: Record<string, string> | undefined, siteFiles: string[]): string[] {
  const present = new Set(siteFiles);
  return Object.keys(digests).filter((page) => last?.[page] === digests[page] && present.has(listingPageFile(page)));
}

/** The file of a listing page (`/categories/tees/` → `categories/tees/index.html`), relative to the site. */
export function listingPageFile(page: string): string {
  return path.join(page.slice(1), 'index.html');
}
