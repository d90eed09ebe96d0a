import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../src/lib/publish/keys.ts';
import { openPublishStore, UnknownOrganizationError, type PublishStore } from '../../../src/lib/publish/store.ts';

let dbPath: string;
let store: PublishStore;

beforeEach(() => {
  dbPath = path.join(mkdtempSync(path.join(tmpdir(), 'publish-store-')), 'publish.db');
  store = openPublishStore(dbPath);
});

afterEach(() => store.close());

/** Every byte SQLite wrote: the database and its write-ahead log. */
function storedBytes(): string {
  const read = (file: string) => {
    try {
      return readFileSync(file).toString('latin1');
    } catch {
      return '';
    }
  };
  return read(dbPath) + read(`${dbPath}-wal`);
}

describe('API keys', () => {
  it('stores only the hash and a visible prefix, and finds the organization by the key', () => {
    const org = store.createOrganization('Acme');
    const { key, visiblePrefix } = store.createApiKey(org.id);
    expect(store.organizationForKey(key)).toBe(org.id);
    expect(visiblePrefix).toBe(key.slice(0, 12));
    const bytes = storedBytes();
    expect(bytes).toContain(hashApiKey(key));
    expect(bytes).not.toContain(key);
  });

  it('knows no organization for an unknown key or a revoked one', () => {
    const org = store.createOrganization('Acme');
    const { key, visiblePrefix } = store.createApiKey(org.id);
    expect(store.organizationForKey(`${key}x`)).toBeUndefined();
    expect(store.revokeApiKey(org.id, visiblePrefix)).toBe(1);
    expect(store.organizationForKey(key)).toBeUndefined();
    expect(store.listApiKeys(org.id)[0]).toMatchObject({ visiblePrefix, revokedAt: expect.any(String) });
  });

  it('refuses a key for an organization that does not exist', () => {
    expect(() => store.createApiKey('org_missing')).toThrow(UnknownOrganizationError);
  });
});

describe('signing secrets', () => {
  it('creates the secret the first time it is asked for, then returns the same one', () => {
    const org = store.createOrganization('Acme');
    expect(store.listOrganizations()[0]!.hasSigningSecret).toBe(false);
    const secret = store.signingSecret(org.id);
    expect(secret).toMatch(/^whsec_/);
    expect(store.signingSecret(org.id)).toBe(secret);
    expect(store.listOrganizations()[0]!.hasSigningSecret).toBe(true);
  });

  it('rotates to a new secret that every later lookup returns, in another connection too', () => {
    const org = store.createOrganization('Acme');
    const old = store.signingSecret(org.id);
    const other = openPublishStore(dbPath);
    try {
      const rotated = other.rotateSigningSecret(org.id);
      expect(rotated).not.toBe(old);
      expect(store.signingSecret(org.id)).toBe(rotated);
    } finally {
      other.close();
    }
  });

  it('gives each organization its own secret', () => {
    const a = store.createOrganization('A');
    const b = store.createOrganization('B');
    expect(store.signingSecret(a.id)).not.toBe(store.signingSecret(b.id));
  });
});

describe('tasks', () => {
  const handle = '6f1c1b8e-8f51-4b8e-9a3f-1f4a2d1c2b3a';

  it('moves an unfinished task between stages and ends it exactly once', () => {
    const org = store.createOrganization('Acme');
    store.insertTask({ handle, organizationId: org.id, tool: 'garments.publish', callbackUrl: null, recordText: '{}' });
    expect(store.getTask(handle)).toMatchObject({ status: 'queued', stage: 'queued', progress: 0, resultJson: null });
    expect(store.setStage(handle, 'building', { resourceId: 'tee/svc', buildId: 1 })).toBe(true);
    expect(store.getTask(handle)).toMatchObject({ status: 'running', stage: 'building site', progress: 0.5, resourceId: 'tee/svc' });
    const outcome = {
      status: 'complete' as const,
      error: '',
      resourceId: 'tee/svc',
      pageUrl: 'https://x/garments/tee/svc/',
      supersededBy: null,
      resultJson: '{"done":true}',
    };
    expect(store.finishTask(handle, outcome)).toBe(true);
    expect(store.finishTask(handle, { ...outcome, status: 'failed', resultJson: '{}' })).toBe(false);
    expect(store.setStage(handle, 'writing')).toBe(false);
    expect(store.getTask(handle)).toMatchObject({ status: 'complete', progress: 1, resultJson: '{"done":true}' });
  });

  it('keeps the first backup of a written record, and lists writes latest first', () => {
    const org = store.createOrganization('Acme');
    const second = '7f1c1b8e-8f51-4b8e-9a3f-1f4a2d1c2b3a';
    store.insertTask({ handle, organizationId: org.id, tool: 'garments.publish', callbackUrl: null, recordText: '{}' });
    store.insertTask({ handle: second, organizationId: org.id, tool: 'garments.publish', callbackUrl: null, recordText: '{}' });
    store.noteWrite({ handle, file: 'records/a.json', replacedText: null });
    store.noteWrite({ handle, file: 'records/a.json', replacedText: 'written by this task before a crash' });
    store.noteWrite({ handle: second, file: 'records/a.json', replacedText: 'first task text' });
    expect(store.writtenRecords([handle, second])).toEqual([
      { handle: second, file: 'records/a.json', replacedText: 'first task text' },
      { handle, file: 'records/a.json', replacedText: null },
    ]);
  });

  it('lists unfinished tasks and ended tasks whose event has not reached the outbox', () => {
    const org = store.createOrganization('Acme');
    store.insertTask({
      handle,
      organizationId: org.id,
      tool: 'garments.publish',
      callbackUrl: 'https://example.com/hook',
      recordText: '{}',
    });
    expect(store.unfinishedTasks().map((task) => task.handle)).toEqual([handle]);
    expect(store.tasksAwaitingEvent()).toEqual([]);
    store.finishTask(handle, { status: 'failed', error: 'x', resourceId: '', pageUrl: '', supersededBy: null, resultJson: '{}' });
    expect(store.unfinishedTasks()).toEqual([]);
    expect(store.tasksAwaitingEvent().map((task) => task.handle)).toEqual([handle]);
    store.markEventEnqueued(handle);
    expect(store.tasksAwaitingEvent()).toEqual([]);
    expect(store.taskCounts()).toEqual({ queued: 0, running: 0, complete: 0, failed: 1, superseded: 0 });
  });
});

describe('builds', () => {
  it('counts builds started, succeeded and failed', () => {
    const first = store.startBuild(3);
    const second = store.startBuild(1);
    store.startBuild(1);
    store.finishBuild(first, true, 'ok');
    store.finishBuild(second, false, 'boom');
    expect(store.buildCounts()).toEqual({ started: 3, succeeded: 1, failed: 1 });
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

  it('returns the first task for the same key and request within 24 hours, and reports the key reused by another request', () => {
    const org = store.createOrganization('Acme').id;
    const first = store.insertTask(task('11111111-1111-4111-8111-111111111111', org, 'digest-a'), 1_000);
    expect(first.kind).toBe('created');
    expect(store.insertTask(task('22222222-2222-4222-8222-222222222222', org, 'digest-a'), 1_000 + 23 * 3_600_000)).toMatchObject({
      kind: 'replayed',
      task: { handle: '11111111-1111-4111-8111-111111111111' },
    });
    expect(store.insertTask(task('33333333-3333-4333-8333-333333333333', org, 'digest-b'), 2_000)).toEqual({
      kind: 'key_reused',
      handle: '11111111-1111-4111-8111-111111111111',
    });
    expect(store.getTask('22222222-2222-4222-8222-222222222222')).toBeUndefined();
  });

  it("frees a key after 24 hours, and keeps organizations' keys apart", () => {
    const acme = store.createOrganization('Acme').id;
    const other = store.createOrganization('Other').id;
    store.insertTask(task('11111111-1111-4111-8111-111111111111', acme, 'digest-a'), 0);
    expect(store.insertTask(task('22222222-2222-4222-8222-222222222222', other, 'digest-b'), 1).kind).toBe('created');
    expect(store.insertTask(task('33333333-3333-4333-8333-333333333333', acme, 'digest-b'), 24 * 3_600_000 + 1).kind).toBe('created');
  });
});

describe('garment owners (issue 25)', () => {
  it('gives a garment to its first publisher, and refuses others', () => {
    const acme = store.createOrganization('Acme').id;
    const other = store.createOrganization('Other').id;
    expect(store.owners.claimForPublish('tee', acme)).toEqual({ allowed: true });
    expect(store.owners.claimForPublish('tee', acme)).toEqual({ allowed: true });
    expect(store.owners.claimForPublish('tee', other)).toEqual({ allowed: false, reason: 'owned_by_another' });
    expect(store.owners.ownerOf('tee')).toMatchObject({ organizationId: acme, origin: 'first_publish' });
  });

  it('leaves garments found in the folder to nobody until a grant, then moves them by transfer', () => {
    const acme = store.createOrganization('Acme').id;
    const other = store.createOrganization('Other').id;
    expect(store.owners.noteFound(['tee', 'hoodie', 'tee'])).toEqual(['tee', 'hoodie']);
    expect(store.owners.noteFound(['tee'])).toEqual([]);
    expect(store.owners.claimForPublish('tee', acme)).toEqual({ allowed: false, reason: 'unowned' });
    expect(store.owners.list({ unowned: true }).map((owner) => owner.slug)).toEqual(['hoodie', 'tee']);
    expect(() => store.owners.transfer('tee', other)).toThrow('garment tee has no owner to transfer it from; give it with "garment grant"');
    expect(store.owners.grant('tee', acme)).toMatchObject({ organizationId: acme, origin: 'granted' });
    expect(() => store.owners.grant('tee', other)).toThrow(`garment tee belongs to organization ${acme}; move it with "garment transfer"`);
    expect(store.owners.transfer('tee', other)).toMatchObject({ organizationId: other, origin: 'transferred' });
    expect(store.owners.claimForPublish('tee', acme)).toEqual({ allowed: false, reason: 'owned_by_another' });
    expect(store.owners.release('tee')).toMatchObject({ organizationId: null, origin: 'released' });
    expect(() => store.owners.grant('tee', 'org_nope')).toThrow('no organization with id org_nope');
  });
});

describe('a database made before issue 25', () => {
  it('is upgraded on open, its tasks kept', async () => {
    const { DatabaseSync } = await import('node:sqlite');
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
    const upgraded = openPublishStore(file);
    try {
      expect(upgraded.getTask('11111111-1111-4111-8111-111111111111')).toMatchObject({
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
      expect(upgraded.finishTask('11111111-1111-4111-8111-111111111111', outcome)).toBe(true);
    } finally {
      upgraded.close();
    }
  });
});
