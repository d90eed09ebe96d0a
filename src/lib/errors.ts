/** Base of every error garment-press throws on purpose; the subclass name becomes `name`. */
export class GarmentPressError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * What went wrong, in one line: an Error's message, or whatever else was thrown, as text.
 * @example errorMessage(new Error('disk full')) → 'disk full'; errorMessage('timeout') → 'timeout'
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What went wrong and where, for a log: an Error's stack (which starts with its message), else as errorMessage. */
export function errorReport(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
