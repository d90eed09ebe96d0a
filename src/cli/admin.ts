// Administration of the publish service: organizations, API keys, webhook signing secrets and
// who owns which garment. Exit codes: 0 done, 1 unknown organization, key or garment, or a change
// that does not fit the garment's owner; 2 bad usage.
import { parseArgs } from 'node:util';
import { databaseLocation } from '../lib/database/index.ts';
import { GarmentPressError } from '../lib/errors.ts';
import { MissingPathError } from '../lib/record/index.ts';
import {
  OwnershipChangeError,
  readGarmentSlugs,
  UnknownOrganizationError,
  type GarmentOwner,
  type PublishStore,
} from '../lib/publish/index.ts';
import { counted } from '../lib/counted.ts';
import { openServiceStores, type ServiceStores } from '../lib/service/index.ts';

class UsageError extends GarmentPressError {}
/** A command that names something (a key prefix) that is not there. */
class NotFoundError extends GarmentPressError {}

const USAGE = `usage: npm run -s admin -- <command> [--data DIR | --database URL] [--json]

  org create --name NAME          creates an organization and its first API key
  org list                        lists organizations
  key create --org ID             makes another API key for an organization
  key list --org ID               lists an organization's keys (visible prefixes only)
  key revoke --org ID --prefix P  revokes the organization's key with visible prefix P
  secret reveal --org ID          shows the webhook signing secret (created on first reveal)
  secret rotate --org ID          replaces it; the old secret stops verifying at once,
                                  pending deliveries included, so update receivers first
  garment list [--org ID | --unowned]
                                  lists garments and their owners
  garment adopt --org ID [--records DIR]
                                  gives every garment in the records folder (default records)
                                  that has no owner to the organization
  garment grant --slug S --org ID gives a garment with no owner to the organization
  garment transfer --slug S --org ID
                                  moves a garment from its owner to another organization
  garment release --slug S        leaves a garment to no one: publishable only after a grant

A garment belongs to the organization that first published it through the service; garments
found in the records folder belong to no one until adopted or granted.

API keys are shown once, when made; only their SHA-256 is stored.
  --data DIR       the service's data folder (default $GARMENT_PRESS_DATA, else .garment-press)
  --database URL   the PostgreSQL database several instances share, postgres://…
                   (default $GARMENT_PRESS_DATABASE_URL; without either, the data folder)
  --json       print JSON instead of text`;

interface Context {
  store: PublishStore;
  values: { name?: string; org?: string; prefix?: string; slug?: string; records?: string; unowned?: boolean };
  print: (text: string, json: unknown) => void;
}

const COMMANDS: Record<string, (context: Context) => void | Promise<void>> = {
  async 'org create'({ store, values, print }) {
    const name = required(values.name, '--name').trim();
    if (name === '') throw new UsageError('--name must not be empty');
    const organization = await store.createOrganization(name);
    const { key, visiblePrefix } = await store.createApiKey(organization.id);
    print(
      `organization ${organization.id} (${organization.name})\napi key      ${key}\n\nThe key is shown only now; keep it somewhere safe.`,
      { organization_id: organization.id, name: organization.name, api_key: key, key_prefix: visiblePrefix },
    );
  },
  async 'org list'({ store, print }) {
    const organizations = await store.listOrganizations();
    print(
      organizations.map((org) => `${org.id}  ${org.name}  created ${org.createdAt}`).join('\n') || 'no organizations yet',
      organizations.map((org) => ({
        organization_id: org.id,
        name: org.name,
        created_at: org.createdAt,
        has_signing_secret: org.hasSigningSecret,
      })),
    );
  },
  async 'key create'({ store, values, print }) {
    const organizationId = required(values.org, '--org');
    const { key, visiblePrefix } = await store.createApiKey(organizationId);
    print(`api key ${key}\n\nThe key is shown only now; keep it somewhere safe.`, {
      organization_id: organizationId,
      api_key: key,
      key_prefix: visiblePrefix,
    });
  },
  async 'key list'({ store, values, print }) {
    const keys = await store.listApiKeys(required(values.org, '--org'));
    print(
      keys
        .map((key) => `${key.visiblePrefix}…  created ${key.createdAt}${key.revokedAt === null ? '' : `  revoked ${key.revokedAt}`}`)
        .join('\n') || 'no keys',
      keys.map((key) => ({ key_prefix: key.visiblePrefix, created_at: key.createdAt, revoked_at: key.revokedAt })),
    );
  },
  async 'key revoke'({ store, values, print }) {
    const organizationId = required(values.org, '--org');
    const prefix = required(values.prefix, '--prefix');
    const revoked = await store.revokeApiKey(organizationId, prefix);
    if (revoked === 0) throw new NotFoundError(`no active key with prefix ${prefix} in organization ${organizationId}; see key list`);
    print(`revoked ${counted(revoked, 'key')}`, { revoked });
  },
  async 'secret reveal'({ store, values, print }) {
    const organizationId = required(values.org, '--org');
    const secret = await store.signingSecret(organizationId);
    print(secret, { organization_id: organizationId, signing_secret: secret });
  },
  async 'secret rotate'({ store, values, print }) {
    const organizationId = required(values.org, '--org');
    const secret = await store.rotateSigningSecret(organizationId);
    print(`${secret}\n\nThe previous secret no longer verifies, for pending deliveries too.`, {
      organization_id: organizationId,
      signing_secret: secret,
    });
  },
  async 'garment list'({ store, values, print }) {
    if (values.unowned === true && values.org !== undefined) throw new UsageError('give --org or --unowned, not both');
    const garments = await store.owners.list({
      ...(values.org === undefined ? {} : { organizationId: values.org }),
      unowned: values.unowned === true,
    });
    print(garments.map(describeOwner).join('\n') || 'no garments', garments.map(ownerJson));
  },
  async 'garment adopt'({ store, values, print }) {
    const organizationId = required(values.org, '--org');
    const recordsDir = values.records ?? 'records';
    const slugs = await readGarmentSlugs(recordsDir);
    await store.owners.noteFound(slugs);
    const adopted = [];
    for (const slug of [...slugs].sort()) {
      if ((await store.owners.ownerOf(slug))?.organizationId === null) adopted.push(await store.owners.grant(slug, organizationId));
    }
    print(
      `${counted(adopted.length, 'garment')} given to ${organizationId}${adopted.length === 0 ? '' : `: ${adopted.map((owner) => owner.slug).join(', ')}`}`,
      adopted.map(ownerJson),
    );
  },
  async 'garment grant'({ store, values, print }) {
    const owner = await store.owners.grant(required(values.slug, '--slug'), required(values.org, '--org'));
    print(describeOwner(owner), ownerJson(owner));
  },
  async 'garment transfer'({ store, values, print }) {
    const owner = await store.owners.transfer(required(values.slug, '--slug'), required(values.org, '--org'));
    print(describeOwner(owner), ownerJson(owner));
  },
  async 'garment release'({ store, values, print }) {
    const owner = await store.owners.release(required(values.slug, '--slug'));
    print(describeOwner(owner), ownerJson(owner));
  },
};

function describeOwner(owner: GarmentOwner): string {
  return `${owner.slug}  ${owner.organizationId ?? '(no owner)'}  ${owner.origin.replaceAll('_', ' ')} ${owner.changedAt}`;
}

function ownerJson(owner: GarmentOwner) {
  return { slug: owner.slug, organization_id: owner.organizationId, origin: owner.origin, changed_at: owner.changedAt };
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required`);
  return value;
}

async function main(argv: string[]): Promise<number> {
  let stores: ServiceStores | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        data: { type: 'string', default: process.env.GARMENT_PRESS_DATA ?? '.garment-press' },
        database: { type: 'string' },
        name: { type: 'string' },
        org: { type: 'string' },
        prefix: { type: 'string' },
        slug: { type: 'string' },
        records: { type: 'string' },
        unowned: { type: 'boolean' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const name = positionals.join(' ');
    const command = COMMANDS[name];
    if (command === undefined) throw new UsageError(name === '' ? 'no command given' : `unknown command "${name}"`);
    const location = databaseLocation(values.database, values.data);
    if ('problem' in location) throw new UsageError(location.problem);
    stores = await openServiceStores(location);
    const print = (text: string, json: unknown) => process.stdout.write(`${values.json ? JSON.stringify(json, null, 2) : text}\n`);
    await command({ store: stores.store, values, print });
    return 0;
  } catch (error) {
    const isParseError = String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
    if (error instanceof MissingPathError) {
      process.stderr.write(`admin: --records ${error.message}\n`);
      return 2;
    }
    if (error instanceof UsageError || isParseError) {
      process.stderr.write(`admin: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof UnknownOrganizationError || error instanceof NotFoundError || error instanceof OwnershipChangeError) {
      process.stderr.write(`admin: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await stores?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
