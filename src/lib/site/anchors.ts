/**
 * Fragment ids of a record page. Ids of claims, sources, conflicts, decisions and gaps may hold any
 * character, so they are escaped into a form that is unique, stable and safe in a URL fragment.
 */

/**
 * An id escaped for use in a fragment: letters, digits, `_`, `.` and `-` are kept, every other
 * character becomes `~<hex code point>~`. Distinct ids always give distinct tokens.
 * @example anchorToken('c-weight') → 'c-weight'; anchorToken('a b"') → 'a~20~b~22~'
 */
export function anchorToken(id: string): string {
  // Almost every id is already safe: one test instead of one per character.
  if (SAFE_ID.test(id)) return id;
  let token = '';
  for (const ch of id) token += /[A-Za-z0-9_.-]/.test(ch) ? ch : `~${ch.codePointAt(0)!.toString(16)}~`;
  return token;
}

const SAFE_ID = /^[A-Za-z0-9_.-]*$/;

/** Fragment id of a claim entry. @example claimAnchor('c-weight') → 'claim-c-weight' */
export function claimAnchor(id: string): string {
  return `claim-${anchorToken(id)}`;
}

/** Fragment id of a source entry. */
export function sourceAnchor(id: string): string {
  return `source-${anchorToken(id)}`;
}

/** Fragment id of a conflict entry. */
export function conflictAnchor(id: string): string {
  return `conflict-${anchorToken(id)}`;
}

/** Fragment id of a decision entry. */
export function decisionAnchor(id: string): string {
  return `decision-${anchorToken(id)}`;
}

/** Fragment id of a research gap. */
export function gapAnchor(id: string): string {
  return `gap-${anchorToken(id)}`;
}

/**
 * Fragment ids of entries whose ids may repeat (conflicts, decisions and gaps need not be unique):
 * the first entry of an id keeps the anchor that links to it name, a repeat gets the next free
 * `-2`, `-3`..., so no two elements of a page share an id.
 * @example distinctAnchors(['a', 'b', 'a'], gapAnchor) → ['gap-a', 'gap-b', 'gap-a-2']
 */
export function distinctAnchors(ids: readonly string[], anchorOf: (id: string) => string): string[] {
  const firsts = ids.map(anchorOf);
  const taken = new Set(firsts);
  const used = new Set<string>();
  return firsts.map((first) => {
    let anchor = first;
    let n = 1;
    // A repeat's anchor must be one no other entry has, nor will have as the first of its id.
    while (used.has(anchor) || (n > 1 && taken.has(anchor))) anchor = `${first}-${++n}`;
    used.add(anchor);
    return anchor;
  });
}

/** Fragment id of an item of a data collection (data ids are already fragment-safe). @example itemAnchor('offers', 'o1') → 'offers-o1' */
export function itemAnchor(collection: string, id: string): string {
  return `${collection}-${anchorToken(id)}`;
}

/** Fragment id of a data collection's group. @example collectionAnchor('offers') → 'data-offers' */
export function collectionAnchor(collection: string): string {
  return `data-${collection}`;
}

/** Fragment id of a page section. @example sectionAnchor('fit_and_sizing') → 'fit-and-sizing' */
export function sectionAnchor(section: string): string {
  return anchorToken(section.replace(/_/g, '-'));
}

/** Fragment id of the nth text block of a page (1-based, in reading order). */
export function textBlockAnchor(ordinal: number): string {
  return `text-${ordinal}`;
}
