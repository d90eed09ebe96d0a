import { GarmentPressError } from '../errors.ts';

/** Thrown when an admin change of owner does not fit the garment's current owner. */
export class OwnershipChangeError extends GarmentPressError {}

/** How a garment came to its current owner (or to none). */
export type OwnershipOrigin = 'first_publish' | 'found_in_folder' | 'granted' | 'transferred' | 'released';

/** Who owns a garment: an organization, or nobody (found in the records folder, or released). */
export interface GarmentOwner {
  slug: string;
  /** null: nobody; publishable only after an admin grant. */
  organizationId: string | null;
  origin: OwnershipOrigin;
  changedAt: string;
}

/** Whether an organization may publish a garment, and if not why. */
export type PublishPermission = { allowed: true } | { allowed: false; reason: 'owned_by_another' | 'unowned' };

/** Ownership of garments (by slug: both projections belong to one owner). */
export interface GarmentOwners {
  /**
   * Lets `organizationId` publish `slug`: its owner may; a garment nobody has heard of becomes the
   * publisher's (first publisher owns); one owned by another organization, or by nobody, may not.
   */
  claimForPublish(slug: string, organizationId: string): Promise<PublishPermission>;
  /** Notes garments found in the records folder that have no ownership yet, as owned by nobody; returns the new ones. */
  noteFound(slugs: Iterable<string>): Promise<string[]>;
  ownerOf(slug: string): Promise<GarmentOwner | undefined>;
  /** Every garment with its owner, by slug; only one organization's, or only unowned ones, when asked. */
  list(filter?: { organizationId?: string; unowned?: boolean }): Promise<GarmentOwner[]>;
  /** Gives a garment nobody owns (or nobody has heard of) to an organization; refuses one another organization owns. */
  grant(slug: string, organizationId: string): Promise<GarmentOwner>;
  /** Moves an owned garment to another organization. */
  transfer(slug: string, organizationId: string): Promise<GarmentOwner>;
  /** Leaves a garment to nobody: publishable again only after a grant. */
  release(slug: string): Promise<GarmentOwner>;
}

/** An ownership row as both adapters select it. */
export interface OwnerRow {
  slug: string;
  organization_id: string | null;
  origin: OwnershipOrigin;
  changed_at: number;
}

/** What an ownership change does to a garment's current row: nothing, set a new owner, or refuse. */
export type OwnershipStep = { keep: OwnerRow } | { set: { organizationId: string | null; origin: OwnershipOrigin } };

/** Whether `organizationId` may publish a garment whose row is `current`; undefined current means "claim it". */
export function publishPermission(current: OwnerRow | undefined, organizationId: string): PublishPermission | 'claim' {
  if (current === undefined) return 'claim';
  if (current.organization_id === organizationId) return { allowed: true };
  return { allowed: false, reason: current.organization_id === null ? 'unowned' : 'owned_by_another' };
}

/** The step an admin grant, transfer or release takes from `current`; throws OwnershipChangeError when it does not fit. */
export function ownershipStep(
  change: 'grant' | 'transfer' | 'release',
  slug: string,
  current: OwnerRow | undefined,
  organizationId: string | null,
): OwnershipStep {
  if (change === 'grant') {
    if (current?.organization_id === organizationId) return { keep: current };
    if (current !== undefined && current.organization_id !== null) {
      throw new OwnershipChangeError(`garment ${slug} belongs to organization ${current.organization_id}; move it with "garment transfer"`);
    }
    return { set: { organizationId, origin: 'granted' } };
  }
  if (change === 'transfer') {
    if (current === undefined || current.organization_id === null) {
      throw new OwnershipChangeError(`garment ${slug} has no owner to transfer it from; give it with "garment grant"`);
    }
    return current.organization_id === organizationId ? { keep: current } : { set: { organizationId, origin: 'transferred' } };
  }
  if (current === undefined) throw new OwnershipChangeError(`no garment ${slug} is known to the service`);
  return { set: { organizationId: null, origin: 'released' } };
}

export function unknownOrganization(organizationId: string): OwnershipChangeError {
  return new OwnershipChangeError(`no organization with id ${organizationId}`);
}

export function toOwner(row: OwnerRow): GarmentOwner {
  return { slug: row.slug, organizationId: row.organization_id, origin: row.origin, changedAt: new Date(row.changed_at).toISOString() };
}
