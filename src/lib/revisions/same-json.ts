/**
 * Whether two values read from JSON are the same: equal strings, numbers, booleans or null, arrays
 * item by item, objects member by member in any order. Cheaper than reading either for a reader.
 * @example sameJson({ a: [1, 'x'] }, { a: [1, 'x'] }) → true
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let members = 0;
  for (const key in left) {
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key])) return false;
    members++;
  }
  for (const _ in right) members--;
  return members === 0;
}
