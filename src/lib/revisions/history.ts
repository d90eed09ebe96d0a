import type { Links } from '../record/types.ts';
import { publishedJson } from '../site/published-json.ts';

/** `links` as no site fills them: two records are the same revision when their bytes but `links` are. */
const NO_LINKS: Links = {
  self: null,
  markdown: null,
  json: null,
  page: null,
  other_projection: null,
  schema: null,
  api_docs: null,
  mcp_docs: null,
};

/**
 * Whether two record files (or JSON twins) hold the same revision: the same bytes once `links`,
 * which each build fills for its site, is set aside. Bytes that are not a JSON object are the
 * same only when equal.
 */
export function sameRecord(a: Uint8Array, b: Uint8Array): boolean {
  try {
    return publishedJson(a, NO_LINKS).equals(publishedJson(b, NO_LINKS));
  } catch {
    return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
  }
}

/**
 * A record's revisions, oldest first, each as its JSON twin's bytes: the ones it replaced, as kept
 * in the archive, then the one published now, unless the archive's last is that one already (a
 * record put back as it was when a build failed after keeping it).
 */
export function revisionHistory(archived: readonly Uint8Array[], published: Uint8Array): Uint8Array[] {
  const last = archived.at(-1);
  return last && sameRecord(last, published) ? [...archived] : [...archived, published];
}
