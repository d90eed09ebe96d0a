import { byteOrderMarkLength } from '../json-members.ts';
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
  if (differBeforeLinks(withoutBom(a), withoutBom(b))) return false;
  try {
    return publishedJson(a, NO_LINKS).equals(publishedJson(b, NO_LINKS));
  } catch {
    return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
  }
}

const LINKS_KEY = Buffer.from('"links"');
/** How an escaped character starts: a key so written may be `links` (`\u006cinks`), found by no search for it. */
const ESCAPE = Buffer.from('\\u');
function withoutBom(bytes: Uint8Array): Buffer {
  const mark = byteOrderMarkLength(bytes);
  return Buffer.from(bytes.buffer, bytes.byteOffset + mark, bytes.byteLength - mark);
}

/** How far into two texts differBeforeLinks looks: revisions differ at their top (`record_revision`), `links` is written last. */
const HEAD_BYTES = 4096;

/**
 * Whether two JSON texts differ in their first bytes, neither writing `"links"` (nor an escape, which
 * could spell it) there: what comes before `links` is kept as written in a JSON twin, so such texts
 * are not the same record, told without writing both out without `links`.
 */
function differBeforeLinks(a: Buffer, b: Buffer): boolean {
  const [head, other] = [a.subarray(0, HEAD_BYTES), b.subarray(0, HEAD_BYTES)];
  const end = Math.min(head.length, other.length);
  if (head.subarray(0, end).equals(other.subarray(0, end))) return false;
  return [head, other].every((bytes) => !bytes.includes(LINKS_KEY) && !bytes.includes(ESCAPE));
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
