import { GarmentPressError } from '../errors.ts';
import type { DurableDatabase } from '../sqlite-database.ts';

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
  claimForPublish(slug: string, organizationId: string, now?: number): PublishPermission;
  /** Notes garments found in the records folder that have no ownership yet, as owned by nobody; returns the new ones. */
  noteFound(slugs: Iterable<string>, now?: number): string[];
  ownerOf(slug: string): GarmentOwner | undefined;
  /** Every garment with its owner, by slug; only one organization's, or only unowned ones, when asked. */
  list(filter?: { organizationId?: string; unowned?: boolean }): GarmentOwner[];
  /** Gives a garment nobody owns (or nobody has heard of) to an organization; refuses one another organization owns. */
  grant(slug: string, organizationId: string): GarmentOwner;
  /** Moves an owned garment to another organization. */
  transfer(slug: string, organizationId: string): GarmentOwner;
  /** Leaves a garment to nobody: publishable again only after a grant. */
  release(slug: string): GarmentOwner;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS garment_owners (
    slug TEXT PRIMARY KEY,
    -- NULL: nobody owns it; only an admin grant makes it publishable.
    organization_id TEXT REFERENCES organizations (id),
    origin TEXT NOT NULL CHECK (origin IN ('first_publish', 'found_in_folder', 'granted', 'transferred', 'released')),
    changed_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS garment_owners_organization ON garment_owners (organization_id);
`;

interface OwnerRow {
  slug: string;
  organization_id: string | null;
  origin: OwnershipOrigin;
  changed_at: number;
}

/** Opens the ownership table in the publish database (its organizations table must exist). */
export function openGarmentOwners({ db, inTransaction }: DurableDatabase): GarmentOwners {
  db.exec(SCHEMA);
  const select = db.prepare('SELECT slug, organization_id, origin, changed_at FROM garment_owners WHERE slug = ?');
  const upsert = db.prepare(`
    INSERT INTO garment_owners (slug, organization_id, origin, changed_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (slug) DO UPDATE SET organization_id = excluded.organization_id, origin = excluded.origin, changed_at = excluded.changed_at`);
  const insertNew = db.prepare(
    'INSERT INTO garment_owners (slug, organization_id, origin, changed_at) VALUES (?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING',
  );
  const row = (slug: string) => select.get(slug) as OwnerRow | undefined;
  const set = (slug: string, organizationId: string | null, origin: OwnershipOrigin) => {
    upsert.run(slug, organizationId, origin, Date.now());
    return toOwner(row(slug)!);
  };
  const mustExist = (organizationId: string) => {
    if (db.prepare('SELECT 1 FROM organizations WHERE id = ?').get(organizationId) === undefined) {
      throw new OwnershipChangeError(`no organization with id ${organizationId}`);
    }
  };

  return {
    claimForPublish(slug, organizationId, now = Date.now()) {
      return inTransaction((): PublishPermission => {
        const current = row(slug);
        if (current === undefined) {
          insertNew.run(slug, organizationId, 'first_publish', now);
          return { allowed: true };
        }
        if (current.organization_id === organizationId) return { allowed: true };
        return { allowed: false, reason: current.organization_id === null ? 'unowned' : 'owned_by_another' };
      });
    },

    noteFound(slugs, now = Date.now()) {
      return inTransaction(() => [...new Set(slugs)].filter((slug) => insertNew.run(slug, null, 'found_in_folder', now).changes === 1));
    },

    ownerOf(slug) {
      const current = row(slug);
      return current === undefined ? undefined : toOwner(current);
    },

    list({ organizationId, unowned = false } = {}) {
      const where = unowned ? 'WHERE organization_id IS NULL' : organizationId === undefined ? '' : 'WHERE organization_id = ?';
      const statement = db.prepare(`SELECT slug, organization_id, origin, changed_at FROM garment_owners ${where} ORDER BY slug`);
      const rows = (unowned || organizationId === undefined ? statement.all() : statement.all(organizationId)) as unknown as OwnerRow[];
      return rows.map(toOwner);
    },

    grant(slug, organizationId) {
      return inTransaction(() => {
        mustExist(organizationId);
        const current = row(slug);
        if (current?.organization_id === organizationId) return toOwner(current);
        if (current !== undefined && current.organization_id !== null) {
          throw new OwnershipChangeError(
            `garment ${slug} belongs to organization ${current.organization_id}; move it with "garment transfer"`,
          );
        }
        return set(slug, organizationId, 'granted');
      });
    },

    transfer(slug, organizationId) {
      return inTransaction(() => {
        mustExist(organizationId);
        const current = row(slug);
        if (current === undefined || current.organization_id === null) {
          throw new OwnershipChangeError(`garment ${slug} has no owner to transfer it from; give it with "garment grant"`);
        }
        return current.organization_id === organizationId ? toOwner(current) : set(slug, organizationId, 'transferred');
      });
    },

    release(slug) {
      return inTransaction(() => {
        if (row(slug) === undefined) throw new OwnershipChangeError(`no garment ${slug} is known to the service`);
        return set(slug, null, 'released');
      });
    },
  };
}

function toOwner(row: OwnerRow): GarmentOwner {
  return { slug: row.slug, organizationId: row.organization_id, origin: row.origin, changedAt: new Date(row.changed_at).toISOString() };
}
