import schema from '../../schema/garment-access-2.4.0.schema.json' with { type: 'json' };
import { PROJECTIONS } from './projections.ts';
import { recordFileName } from './file-names.ts';

/** A slug's form, as the schema has it: words of lower-case letters and digits joined by single hyphens. */
export const SLUG_PATTERN = schema.properties.slug.pattern;

/** The longest slug: file systems allow names of 255 bytes, a slug is ASCII, and its longest file name (`<slug>.tech.json`) must fit. */
export const SLUG_MAX_LENGTH = 255 - Math.max(...PROJECTIONS.map((projection) => recordFileName('', projection).length));

const SLUG = new RegExp(SLUG_PATTERN);

/**
 * Whether a value is a slug a record can have: of the schema's form and short enough for its file names.
 * @example isSlug('ridgeline-rk6210-heavyweight-tee') → true; isSlug('Tee') → false
 */
export function isSlug(value: unknown): value is string {
  return typeof value === 'string' && value.length <= SLUG_MAX_LENGTH && SLUG.test(value);
}
