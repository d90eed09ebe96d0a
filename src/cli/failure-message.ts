import { GarmentPressError } from '../lib/errors.ts';

/**
 * What a command prints when it fails: our own failures and the file system's say what went
 * wrong; anything else keeps its stack for a bug report.
 */
export function failureMessage(error: unknown): string {
  if (error instanceof GarmentPressError) return `${error.name}: ${error.message}`;
  if (error instanceof Error && 'syscall' in error) return error.message;
  if (error instanceof Error && error.stack) return error.stack;
  return String(error);
}
