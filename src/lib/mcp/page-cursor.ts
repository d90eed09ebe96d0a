// The opaque cursors of paged answers (garments.list, resources/list).

/**
 * A page's opaque cursor: where the next page starts, in the list as it then stands.
 * @example cursorOf(50) → 'eyJvZmZzZXQiOjUwfQ'
 */
export function cursorOf(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

/** The offset a cursor holds, or undefined for anything cursorOf did not make. */
export function readCursor(cursor: string): number | undefined {
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    return Number.isSafeInteger(offset) && (offset as number) >= 0 ? (offset as number) : undefined;
  } catch {
    return undefined;
  }
}
