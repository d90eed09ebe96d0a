// One suite, run against both adapters of the publish store: SQLite (a file) and PostgreSQL (the test cluster).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresDatabase, type PostgresDatabase } from '../../../src/lib/database/index.ts';
import { hashApiKey } from '../../../src/lib/publish/keys.ts';
import { openPostgresPublishStore } from '../../../src/lib/publish/postgres-store.ts';
import { openSqlitePublishStore } from '../../../src/lib/publish/sqlite-store.ts';
import { type PublishStore, UnknownOrganizationError } from '../../../src/lib/publish/store.ts';
import { freshPostgresDatabase } from '../../support/postgres.ts';

/** One adapter under test: how to open a store (again) on the same database, and every byte or row it stored. */
interface Adapter {
  open(): Promise<PublishStore>;
  storedText(): Promise<string>;
  done(): Promise<void>;
}

const adapters: Record<string, (clock: () => number) => Promise<Adapter>> = {
  async sqlite(clock) {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'publish-store-')), 'publish.db');
    const read = (at: string) => {
      try {
        return readFileSync(at).toString('latin1');
      } catch {
        return '';
      }
    };
    return {
      open: async () => openSqlitePublishStore(file, { now: clock }),
      storedText: async () => read(file) + read(`${file}-wal`),
      done: async () => {},
    };
  },
  async postgres(clock) {
    const url = await freshPostgresDatabase();
    const databases: PostgresDatabase[] = [];
    return {
      open: async () => {
        const database = openPostgresDatabase(url);
        databases.push(database);
        return openPostgresPublishStore(database, { now: clock });
      },
      storedText: async () => {
        const { rows } = await databases[0]!.pool.query('SELECT row_to_json(k)::text AS text FROM api_keys k');
        return rows.map((row: { text: string }) => row.text).join('\n');
      },
      done: async () => {
        await Promise.all(databases.map((database) => database.close()));
      },
    };
  },
};

describe.each(Object.keys(adapters))('publish store on %s', (kind) => {
  let now = 1_000_000;
  let adapter: Adapter;
  let store: PublishStore;

  beforeEach(async () => {
    now = 1_000_000;
    adapter = await adapters[kind]!(() => now);
    store = await adapter.open();
  });

  afterEach(async () => {
    await store.close();
    await adapter.done();
  });

  describe('API keys', () => {
    it('stores only the hash and a visible prefix, and finds the organization by the key', async () => {
      const org = await store.createOrganization('Acme');
      const { key, visiblePrefix } = await store.createApiKey(org.id);
      expect(await store.organizationForKey(key)).toBe(org.id);
      expect(visiblePrefix).toBe(key.slice(0, 12));
      const stored = await adapter.storedText();
      expect(stored).toContain(hashApiKey(key));
      expect(stored).not.toContain(key);
    });

    it('knows no organization for an unknown key or a revoked one', async () => {
      const org = await store.createOrganization('Acme');
      const { key, visiblePrefix } = await store.createApiKey(org.id);
      expect(await store.organizationForKey(`${key}x`)).toBeUndefined();
      expect(await store.revokeApiKey(org.id, visiblePrefix)).toBe(1);
      expect(await store.organizationForKey(key)).toBeUndefined();
      expect((await store.listApiKeys(org.id))[0]).toMatchObject({ visiblePrefix, revokedAt: expect.any(String) });
    });

    it('refuses a key for an organization that does not exist', async () => {
      await expect(store.createApiKey('org_missing')).rejects.toThrow(UnknownOrganizationError);
    });
  });

  describe('signing secrets', () => {
    it('creates the secret the first time it is asked for, then returns the same one', async () => {
      const org = await store.createOrganization('Acme');
      expect((await store.listOrganizations())[0]!.hasSigningSecret).toBe(false);
      const secret = await store.signingSecret(org.id);
      expect(secret).toMatch(/^whsec_/);
      expect(await store.signingSecret(org.id)).toBe(secret);
      expect((await store.listOrganizations())[0]!.hasSigningSecret).toBe(true);
    });

    it('rotates to a new secret that every later lookup returns, through another connection too', async () => {
      const org = await store.createOrganization('Acme');
      const old = await store.signingSecret(org.id);
      const other = await adapter.open();
      try {
        const rotated = await other.rotateSigningSecret(org.id);
        expect(rotated).not.toBe(old);
        expect(await store.signingSecret(org.id)).toBe(rotated);
      } finally {
        await other.close();
      }
    });

    it('gives each organization its own secret, and refuses an unknown one', async () => {
      const a = await store.createOrganization('A');
      const b = await store.createOrganization('B');
      expect(await store.signingSecret(a.id)).not.toBe(await store.signingSecret(b.id));
      await expect(store.signingSecret('org_missing')).rejects.toThrow(UnknownOrganizationError);
    });
  });

  describe('tasks', () => {
    const handle = '6f1c1b8e-8f51-4b8e-9a3f-1f4a2d1c2b3a';

    it('moves an unfinished task between stages and ends it exactly once', async () => {
      const org = await store.createOrganization('Acme');
      await store.insertTask({ handle, organizationId: org.id, tool: 'garments.publish', callbackUrl: null, recordText: '{}' });
      expect(await store.getTask(handle)).toMatchObject({
        status: 'queued',
        stage: 'queued',
        progress: 0,
        resultJson: null,
        createdAt: now,
      });
      expect(await store.setStage(handle, 'building', { resourceId: 'tee/svc', buildId: 1 })).toBe(true);
      expect(await store.getTask(handle)).toMatchObject({
        status: 'running',
        stage: 'building site',
        progress: 0.5,
        resourceId: 'tee/svc',
      });
      const outcome = {
        status: 'complete' as const,
        error: '',
        resourceId: 'tee/svc',
        pageUrl: 'https://x/garments/tee/svc/',
        supersededBy: null,
        resultJson: '{"done":true}',
      };
      expect(await store.finishTask(handle, outcome)).toBe(true);
      expect(await store.finishTask(handle, { ...outcome, status: 'failed', resultJson: '{}' })).toBe(false);
      expect(await store.setStage(handle, 'writing')).toBe(false);
      expect(await store.getTask(handle)).toMatchObject({ status: 'complete', progress: 1, resultJson: '{"done":true}' });
    });

    it('keeps the first backup of a written record, and lists writes latest first', async () => {
      const org = await store.createOrganization('Acme');
      const second = '7f1c1b8e-8f51-4b8e-9a3f-1f4a2d1c2b3a';
      await store.insertTask({ handle, organizationId: org.id, tool: 'garments.publish', callbackUrl: null, recordText: '{}' });
      await store.insertTask({ handle: second, organizationId: org.id, tool: 'garments.publish', callbackUrl: null, recordText: '{}' });
      await store.noteWrite({ handle, file: 'records/a.json', replacedText: null });
      await store.noteWrite({ handle, file: 'records/a.json', replacedText: 'written by this task before a crash' });
      await store.noteWrite({ handle: second, file: 'records/a.json', replacedText: 'first task text' });
      expect(await store.writtenRecords([handle, second])).toEqual([
        { handle: second, file: 'records/a.json', replacedText: 'first task text' },
        { handle, file: 'records/a.json', replacedText: null },
      ]);
    });

    it('lists unfinished tasks and ended tasks whose event has not reached the outbox', async () => {
      const org = await store.createOrganization('Acme');
      await store.insertTask({
        handle,
        organizationId: org.id,
        tool: 'garments.publish',
        callbackUrl: 'https://example.com/hook',
        recordText: '{}',
      });
      expect((await store.unfinishedTasks()).map((task) => task.handle)).toEqual([handle]);
      expect(await store.tasksAwaitingEvent()).toEqual([]);
      await store.finishTask(handle, { status: 'failed', error: 'x', resourceId: '', pageUrl: '', supersededBy: null, resultJson: '{}' });
      expect(await store.unfinishedTasks()).toEqual([]);
      expect((await store.tasksAwaitingEvent()).map((task) => task.handle)).toEqual([handle]);
      await store.markEventEnqueued(handle);
      expect(await store.tasksAwaitingEvent()).toEqual([]);
      expect(await store.taskCounts()).toEqual({ queued: 0, running: 0, complete: 0, failed: 1, superseded: 0 });
    });
  });

  describe('builds', () => {
    it('counts builds started, succeeded and failed', async () => {
      const first = await store.startBuild(3);
      const second = await store.startBuild(1);
      await store.startBuild(1);
      await store.finishBuild(first, true, 'ok');
      await store.finishBuild(second, false, 'boom');
      expect(await store.buildCounts()).toEqual({ started: 3, succeeded: 1, failed: 1 });
    });
  });

  describe('Idempotency-Key (issue 25)', () => {
    const task = (handle: string, organizationId: string, requestDigest: string) => ({
      handle,
      organizationId,
      tool: 'garments.publish',
      callbackUrl: null,
      recordText: '{}',
      idempotency: { key: 'order-1', requestDigest },
    });

    it('returns the first task for the same key and request within 24 hours, and reports the key reused by another request', async () => {
      const org = (await store.createOrganization('Acme')).id;
      const first = await store.insertTask(task('11111111-1111-4111-8111-111111111111', org, 'digest-a'));
      expect(first.kind).toBe('created');
      now += 23 * 3_600_000;
      expect(await store.insertTask(task('22222222-2222-4222-8222-222222222222', org, 'digest-a'))).toMatchObject({
        kind: 'replayed',
        task: { handle: '11111111-1111-4111-8111-111111111111' },
      });
      expect(await store.insertTask(task('33333333-3333-4333-8333-333333333333', org, 'digest-b'))).toEqual({
        kind: 'key_reused',
        handle: '11111111-1111-4111-8111-111111111111',
      });
      expect(await store.getTask('22222222-2222-4222-8222-222222222222')).toBeUndefined();
    });

    it("frees a key after 24 hours, and keeps organizations' keys apart", async () => {
      const acme = (await store.createOrganization('Acme')).id;
      const other = (await store.createOrganization('Other')).id;
      await store.insertTask(task('11111111-1111-4111-8111-111111111111', acme, 'digest-a'));
      expect((await store.insertTask(task('22222222-2222-4222-8222-222222222222', other, 'digest-b'))).kind).toBe('created');
      now += 24 * 3_600_000 + 1;
      expect((await store.insertTask(task('33333333-3333-4333-8333-333333333333', acme, 'digest-b'))).kind).toBe('created');
    });

    it('creates one task when the same key and request arrive at once', async () => {
      const org = (await store.createOrganization('Acme')).id;
      const other = await adapter.open();
      try {
        const outcomes = await Promise.all([
          store.insertTask(task('11111111-1111-4111-8111-111111111111', org, 'digest-a')),
          other.insertTask(task('22222222-2222-4222-8222-222222222222', org, 'digest-a')),
        ]);
        expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['created', 'replayed']);
      } finally {
        await other.close();
      }
    });
  });

  describe('garment owners (issue 25)', () => {
    it('gives a garment to its first publisher, and refuses others', async () => {
      const acme = (await store.createOrganization('Acme')).id;
      const other = (await store.createOrganization('Other')).id;
      expect(await store.owners.claimForPublish('tee', acme)).toEqual({ allowed: true });
      expect(await store.owners.claimForPublish('tee', acme)).toEqual({ allowed: true });
      expect(await store.owners.claimForPublish('tee', other)).toEqual({ allowed: false, reason: 'owned_by_another' });
      expect(await store.owners.ownerOf('tee')).toMatchObject({ organizationId: acme, origin: 'first_publish' });
    });

    it('leaves garments found in the folder to nobody until a grant, then moves them by transfer', async () => {
      const acme = (await store.createOrganization('Acme')).id;
      const other = (await store.createOrganization('Other')).id;
      expect(await store.owners.noteFound(['tee', 'hoodie', 'tee'])).toEqual(['tee', 'hoodie']);
      expect(await store.owners.noteFound(['tee'])).toEqual([]);
      expect(await store.owners.claimForPublish('tee', acme)).toEqual({ allowed: false, reason: 'unowned' });
      expect((await store.owners.list({ unowned: true })).map((owner) => owner.slug)).toEqual(['hoodie', 'tee']);
      await expect(store.owners.transfer('tee', other)).rejects.toThrow(
        'garment tee has no owner to transfer it from; give it with "garment grant"',
      );
      expect(await store.owners.grant('tee', acme)).toMatchObject({ organizationId: acme, origin: 'granted' });
      await expect(store.owners.grant('tee', other)).rejects.toThrow(
        `garment tee belongs to organization ${acme}; move it with "garment transfer"`,
      );
      expect(await store.owners.transfer('tee', other)).toMatchObject({ organizationId: other, origin: 'transferred' });
      expect(await store.owners.claimForPublish('tee', acme)).toEqual({ allowed: false, reason: 'owned_by_another' });
      expect(await store.owners.release('tee')).toMatchObject({ organizationId: null, origin: 'released' });
      await expect(store.owners.grant('tee', 'org_nope')).rejects.toThrow('no organization with id org_nope');
    });
  });
});

describe('a SQLite data folder made before numbered migrations', () => {
  it('upgrades in place, its organizations, keys, owners and tasks kept', () => {
    // The schema as the code before issue 33 left it (tables made on open, user_version 0).
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'publish-store-old-')), 'publish.db');
    const old = new DatabaseSync(file);
    old.exec(`
      CREATE TABLE organizations (id TEXT PRIMARY KEY, name TEXT NOT NULL, signing_secret TEXT, created_at INTEGER NOT NULL) STRICT;
      CREATE TABLE api_keys (id INTEGER PRIMARY KEY, organization_id TEXT NOT NULL REFERENCES organizations (id), visible_prefix TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL, revoked_at INTEGER) STRICT;
      CREATE TABLE tasks (handle TEXT PRIMARY KEY, organization_id TEXT NOT NULL REFERENCES organizations (id),
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'complete', 'failed', 'superseded')), tool TEXT NOT NULL DEFAULT 'garments.publish',
        stage TEXT NOT NULL, progress REAL NOT NULL, error TEXT NOT NULL DEFAULT '', resource_id TEXT NOT NULL DEFAULT '', page_url TEXT NOT NULL DEFAULT '',
        callback_url TEXT, record_text TEXT NOT NULL, record_file TEXT, replaced_text TEXT, written_at INTEGER, write_order INTEGER, build_id INTEGER,
        result_json TEXT, event_enqueued INTEGER NOT NULL DEFAULT 0, superseded_by TEXT, idempotency_key TEXT, request_digest TEXT,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT;
      CREATE TABLE builds (id INTEGER PRIMARY KEY, task_count INTEGER NOT NULL, started_at INTEGER NOT NULL, finished_at INTEGER, ok INTEGER, output TEXT) STRICT;
      CREATE TABLE garment_owners (slug TEXT PRIMARY KEY, organization_id TEXT REFERENCES organizations (id),
        origin TEXT NOT NULL CHECK (origin IN ('first_publish', 'found_in_folder', 'granted', 'transferred', 'released')), changed_at INTEGER NOT NULL) STRICT;
      INSERT INTO organizations VALUES ('org_old', 'Old', 'whsec_old', 0);
      INSERT INTO api_keys (organization_id, visible_prefix, key_hash, created_at) VALUES ('org_old', 'gp_live_abcd', '${hashApiKey('gp_live_abcdef')}', 0);
      INSERT INTO garment_owners VALUES ('tee', 'org_old', 'first_publish', 0);
      INSERT INTO tasks (handle, organization_id, status, stage, progress, record_text, created_at, updated_at)
        VALUES ('11111111-1111-4111-8111-111111111111', 'org_old', 'queued', 'queued', 0, '{}', 0, 0);`);
    old.close();
    return (async () => {
      const upgraded = openSqlitePublishStore(file);
      try {
        expect(await upgraded.organizationForKey('gp_live_abcdef')).toBe('org_old');
        expect(await upgraded.signingSecret('org_old')).toBe('whsec_old');
        expect(await upgraded.owners.ownerOf('tee')).toMatchObject({ organizationId: 'org_old' });
        expect(await upgraded.getTask('11111111-1111-4111-8111-111111111111')).toMatchObject({
          organizationId: 'org_old',
          status: 'queued',
        });
      } finally {
        await upgraded.close();
      }
      const reopened = new DatabaseSync(file);
      expect((reopened.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(1);
      reopened.close();
    })();
  });
});

describe('a SQLite database made before issue 25', () => {
  it('is upgraded on open, its tasks kept', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'publish-store-old-')), 'publish.db');
    const old = new DatabaseSync(file);
    old.exec(`
      CREATE TABLE organizations (id TEXT PRIMARY KEY, name TEXT NOT NULL, signing_secret TEXT, created_at INTEGER NOT NULL) STRICT;
      CREATE TABLE tasks (handle TEXT PRIMARY KEY, organization_id TEXT NOT NULL REFERENCES organizations (id),
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'complete', 'failed')), stage TEXT NOT NULL, progress REAL NOT NULL,
        error TEXT NOT NULL DEFAULT '', resource_id TEXT NOT NULL DEFAULT '', page_url TEXT NOT NULL DEFAULT '', callback_url TEXT,
        record_text TEXT NOT NULL, record_file TEXT, replaced_text TEXT, written_at INTEGER, write_order INTEGER, build_id INTEGER,
        result_json TEXT, event_enqueued INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT;
      INSERT INTO organizations VALUES ('org_old', 'Old', NULL, 0);
      INSERT INTO tasks (handle, organization_id, status, stage, progress, record_text, created_at, updated_at)
        VALUES ('11111111-1111-4111-8111-111111111111', 'org_old', 'queued', 'queued', 0, '{}', 0, 0);`);
    old.close();
    const upgraded = openSqlitePublishStore(file);
    try {
      expect(await upgraded.getTask('11111111-1111-4111-8111-111111111111')).toMatchObject({
        organizationId: 'org_old',
        tool: 'garments.publish',
        supersededBy: null,
      });
      const outcome = {
        status: 'superseded' as const,
        error: 'x',
        resourceId: 'tee/svc',
        pageUrl: '',
        supersededBy: 'h2',
        resultJson: '{}',
      };
      expect(await upgraded.finishTask('11111111-1111-4111-8111-111111111111', outcome)).toBe(true);
    } finally {
      await upgraded.close();
    }
  });
});
