// Administration of the publish service: organizations, API keys and webhook signing secrets.
// Exit codes: 0 done, 1 unknown organization or key, 2 bad usage.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GarmentPressError } from '../lib/errors.ts';
import { openPublishStore, UnknownOrganizationError, type PublishStore } from '../lib/publish/index.ts';
import { counted } from '../lib/counted.ts';

class UsageError extends GarmentPressError {}
/** A command that names something (a key prefix) that is not there. */
class NotFoundError extends GarmentPressError {}

const USAGE = `usage: npm run -s admin -- <command> [--data DIR] [--json]

  org create --name NAME          creates an organization and its first API key
  org list                        lists organizations
  key create --org ID             makes another API key for an organization
  key list --org ID               lists an organization's keys (visible prefixes only)
  key revoke --org ID --prefix P  revokes the organization's key with visible prefix P
  secret reveal --org ID          shows the webhook signing secret (created on first reveal)
  secret rotate --org ID          replaces it; the old secret stops verifying at once,
                                  pending deliveries included, so update receivers first

API keys are shown once, when made; only their SHA-256 is stored.
  --data DIR   the service's data folder (default $GARMENT_PRESS_DATA, else .garment-press)
  --json       print JSON instead of text`;

interface Context {
  store: PublishStore;
  values: { name?: string; org?: string; prefix?: string };
  print: (text: string, json: unknown) => void;
}

const COMMANDS: Record<string, (context: Context) => void> = {
  'org create'({ store, values, print }) {
    const name = required(values.name, '--name').trim();
    if (name === '') throw new UsageError('--name must not be empty');
    const organization = store.createOrganization(name);
    const { key, visiblePrefix } = store.createApiKey(organization.id);
    print(
      `organization ${organization.id} (${organization.name})\napi key      ${key}\n\nThe key is shown only now; keep it somewhere safe.`,
      { organization_id: organization.id, name: organization.name, api_key: key, key_prefix: visiblePrefix },
    );
  },
  'org list'({ store, print }) {
    const organizations = store.listOrganizations();
    print(
      organizations.map((org) => `${org.id}  ${org.name}  created ${org.createdAt}`).join('\n') || 'no organizations yet',
      organizations.map((org) => ({ organization_id: org.id, name: org.name, created_at: org.createdAt, has_signing_secret: org.hasSigningSecret })),
    );
  },
  'key create'({ store, values, print }) {
    const organizationId = required(values.org, '--org');
    const { key, visiblePrefix } = store.createApiKey(organizationId);
    print(`api key ${key}\n\nThe key is shown only now; keep it somewhere safe.`, { organization_id: organizationId, api_key: key, key_prefix: visiblePrefix });
  },
  'key list'({ store, values, print }) {
    const keys = store.listApiKeys(required(values.org, '--org'));
    print(
      keys.map((key) => `${key.visiblePrefix}…  created ${key.createdAt}${key.revokedAt === null ? '' : `  revoked ${key.revokedAt}`}`).join('\n') || 'no keys',
      keys.map((key) => ({ key_prefix: key.visiblePrefix, created_at: key.createdAt, revoked_at: key.revokedAt })),
    );
  },
  'key revoke'({ store, values, print }) {
    const organizationId = required(values.org, '--org');
    const prefix = required(values.prefix, '--prefix');
    const revoked = store.revokeApiKey(organizationId, prefix);
    if (revoked === 0) throw new NotFoundError(`no active key with prefix ${prefix} in organization ${organizationId}; see key list`);
    print(`revoked ${counted(revoked, 'key')}`, { revoked });
  },
  'secret reveal'({ store, values, print }) {
    const organizationId = required(values.org, '--org');
    const secret = store.signingSecret(organizationId);
    print(secret, { organization_id: organizationId, signing_secret: secret });
  },
  'secret rotate'({ store, values, print }) {
    const organizationId = required(values.org, '--org');
    const secret = store.rotateSigningSecret(organizationId);
    print(`${secret}\n\nThe previous secret no longer verifies, for pending deliveries too.`, { organization_id: organizationId, signing_secret: secret });
  },
};

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required`);
  return value;
}

function main(argv: string[]): number {
  let store: PublishStore | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        data: { type: 'string', default: process.env.GARMENT_PRESS_DATA ?? '.garment-press' },
        name: { type: 'string' },
        org: { type: 'string' },
        prefix: { type: 'string' },
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
    mkdirSync(values.data, { recursive: true });
    store = openPublishStore(path.join(values.data, 'publish.db'));
    const print = (text: string, json: unknown) => process.stdout.write(`${values.json ? JSON.stringify(json, null, 2) : text}\n`);
    command({ store, values, print });
    return 0;
  } catch (error) {
    const isParseError = String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
    if (error instanceof UsageError || isParseError) {
      process.stderr.write(`admin: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof UnknownOrganizationError || error instanceof NotFoundError) {
      process.stderr.write(`admin: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    store?.close();
  }
}

process.exitCode = main(process.argv.slice(2));
