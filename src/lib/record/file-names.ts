import path from 'node:path';
import { PROJECTION_GROUP, type Projection } from './projections.ts';

const RECORD_FILE_NAME = new RegExp(`^(.+)\\.${PROJECTION_GROUP}\\.json$`);

/** The folder of a records folder that holds the revisions its records replaced (see src/lib/revisions/archive.ts): no record files. */
export const REVISIONS_FOLDER = '.revisions';

/** The name a record's file takes in a records folder: `<slug>.<projection>.json`. */
export function recordFileName(slug: string, projection: string): string {
  return `${slug}.${projection}.json`;
}

/** The slug and projection a file's name gives when it is named as recordFileName names it. */
export function namedRecord(file: string): { slug: string; projection: Projection } | undefined {
  const named = RECORD_FILE_NAME.exec(path.basename(file));
  return named ? { slug: named[1]!, projection: named[2] as Projection } : undefined;
}
