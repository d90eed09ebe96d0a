// Whether a record's facts are in doubt, from its claims and conflicts: pure and without Node's
// modules, so the compare page's script reads a published twin with the same rules as the build.
import type { GarmentRecord } from '../record/types.ts';

/** A claim's value as the record gives it, with its unit. */
export interface ClaimValue {
  value: unknown;
  unit: string | null;
}

/**
 * The record's claims that put a fact in doubt: those marked `not_verified`, and the claims whose
 * sources disagree (an unresolved conflict, or a claim marked `conflicting` that no conflict settles).
 */
export interface ClaimStanding {
  unverified: string[];
  disputes: { claimIds: string[]; values: ClaimValue[] }[];
}

/** Why a fact may not hold: its sources disagree (with the values they give), or no claim backing it is verified. */
export type FactDoubt = { kind: 'disputed'; values: ClaimValue[] } | { kind: 'unverified' };

/** The record's unverified and disputed claims (see ClaimStanding). */
export function claimStanding(record: Pick<GarmentRecord, 'claims' | 'conflicts'>): ClaimStanding {
  const claims = new Map(record.claims.map((claim) => [claim.id, claim]));
  const valuesOf = (ids: readonly string[]) =>
    ids.flatMap((id) => {
      const claim = claims.get(id);
      return claim ? [{ value: claim.value, unit: claim.unit }] : [];
    });
  const settled = new Set(record.conflicts.flatMap((conflict) => conflict.claim_ids));
  return {
    unverified: record.claims.filter((claim) => claim.verification === 'not_verified').map((claim) => claim.id),
    disputes: [
      ...record.conflicts
        .filter((conflict) => conflict.resolution === 'unresolved')
        .map((conflict) => ({ claimIds: [...new Set(conflict.claim_ids)], values: valuesOf([...new Set(conflict.claim_ids)]) })),
      // A claim marked conflicting that no conflict names: the disagreement is in its own value.
      ...record.claims
        .filter((claim) => claim.verification === 'conflicting' && !settled.has(claim.id))
        .map((claim) => ({ claimIds: [claim.id], values: valuesOf([claim.id]) })),
    ],
  };
}

/**
 * Whether a fact backed by these claims is in doubt: its sources disagree when one of them is in a dispute,
 * it is unverified when every one is marked `not_verified`; null when neither (or no claim backs it).
 * @example factDoubt({ unverified: [], disputes: [{ claimIds: ['a', 'b'], values }] }, ['a']) → { kind: 'disputed', values }
 */
export function factDoubt(standing: ClaimStanding, claimIds: readonly string[]): FactDoubt | null {
  if (claimIds.length === 0) return null;
  const dispute = standing.disputes.find((d) => d.claimIds.some((id) => claimIds.includes(id)));
  if (dispute) return { kind: 'disputed', values: dispute.values };
  return claimIds.every((id) => standing.unverified.includes(id)) ? { kind: 'unverified' } : null;
}

/** The words a doubt is said in, and how its values are written (the build passes format.ts's, the compare script its own). */
export interface DoubtWording {
  /** `sources disagree: {values}`, filled. */
  disputed: (values: string) => string;
  unverified: string;
  or: string;
  number: (value: number, unit?: string | null) => string;
  value: (value: unknown, unit: string | null) => string;
}

/**
 * A fact's doubt in words: the values its sources give, a unit they share said once, or that it is not verified.
 * @example doubtWords({ kind: 'disputed', values: [{ value: 9, unit: 'oz/yd²' }, { value: 8.5, unit: 'oz/yd²' }] }, wording) → 'sources disagree: 9 or 8.5 oz/yd²'
 */
export function doubtWords(doubt: FactDoubt | null, wording: DoubtWording): string | null {
  if (!doubt) return null;
  if (doubt.kind === 'unverified') return wording.unverified;
  const or = ` ${wording.or} `;
  const { values } = doubt;
  const unit = values[0]?.unit ?? null;
  if (values.every((v) => typeof v.value === 'number' && v.unit === unit)) {
    const numbers = [...new Set(values.map((v) => wording.number(v.value as number)))];
    return wording.disputed(`${numbers.join(or)}${unit ? wording.number(0, unit).slice(1) : ''}`);
  }
  return wording.disputed([...new Set(values.map((v) => wording.value(v.value, v.unit)))].join(or));
}
