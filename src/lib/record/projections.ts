/** The projections a garment's records take, in the order pages list them: commerce (`svc`) and technical handoff (`tech`). */
export const PROJECTIONS = ['svc', 'tech'] as const;

/** The two projections a record can take: commerce (`svc`) or technical handoff (`tech`). */
export type Projection = (typeof PROJECTIONS)[number];

/** Whether a value names a projection. @example isProjection('tech') → true; isProjection('ops') → false */
export function isProjection(value: unknown): value is Projection {
  return (PROJECTIONS as readonly unknown[]).includes(value);
}

/** A pattern group matching a projection's code, for names that carry one. @example PROJECTION_GROUP → '(svc|tech)' */
export const PROJECTION_GROUP = `(${PROJECTIONS.join('|')})`;
