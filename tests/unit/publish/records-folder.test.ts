import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { readGarmentSlugs, readIfExists, readRecordsFolder, replaceFile, setAside } from '../../../src/lib/publish/records-folder.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'records-folder-'));
});

const write = (name: string, value: unknown) =>
  writeFileSync(path.join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));

describe('readRecordsFolder', () => {
  it('places a new record at <slug>.<projection>.json', async () => {
    const folder = await readRecordsFolder(dir);
    expect(await folder.place('tee', 'svc')).toEqual({ ok: true, file: path.join(dir, 'tee.svc.json') });
  });

  it('places a record over the file already publishing its slug and projection, whatever its name', async () => {
    write('old-name.json', { slug: 'tee', projection: 'svc' });
    const folder = await readRecordsFolder(dir);
    expect(await folder.place('tee', 'svc')).toEqual({ ok: true, file: path.join(dir, 'old-name.json') });
    expect(await folder.place('tee', 'tech')).toEqual({ ok: true, file: path.join(dir, 'tee.tech.json') });
  });

  it('refuses when two files already publish the slug and projection, naming both', async () => {
    write('a.json', { slug: 'tee', projection: 'svc' });
    write('b.json', { slug: 'tee', projection: 'svc' });
    const placement = await (await readRecordsFolder(dir)).place('tee', 'svc');
    expect(placement.ok).toBe(false);
    expect(!placement.ok && placement.message).toBe(
      `${path.join(dir, 'a.json')}, ${path.join(dir, 'b.json')}: each already publishes tee/svc; remove all but one of them, then publish again`,
    );
  });

  it('refuses a name taken by another record or by a file that is not a record', async () => {
    write('tee.svc.json', { slug: 'other', projection: 'svc' });
    write('cap.svc.json', '{ not json');
    const folder = await readRecordsFolder(dir);
    const taken = await folder.place('tee', 'svc');
    expect(!taken.ok && taken.message).toMatch(
      /tee\.svc\.json: already holds other\/svc, so tee\/svc cannot be written there; rename that file/,
    );
    const broken = await folder.place('cap', 'svc');
    expect(!broken.ok && broken.message).toMatch(/cap\.svc\.json: already holds something that is not a readable record/);
  });

  it('takes a file named <slug>.<projection>.json at its name, unread until a record is placed in it', async () => {
    write('cap.svc.json', 'not even JSON: unread, the name says enough');
    write('tee.svc.json', { slug: 'tee', projection: 'svc' });
    const folder = await readRecordsFolder(dir);
    expect(folder.slugs().sort()).toEqual(['cap', 'tee']);
    expect(await folder.place('tee', 'svc')).toEqual({ ok: true, file: path.join(dir, 'tee.svc.json') });
  });

  it('remembers what a batch claimed, so a second record of the same key in the batch goes to the same file', async () => {
    const folder = await readRecordsFolder(dir);
    const file = path.join(dir, 'tee.svc.json');
    folder.claim(file, 'tee', 'svc');
    expect(await folder.place('tee', 'svc')).toEqual({ ok: true, file });
  });
});

describe('replaceFile', () => {
  it('writes the text and leaves no temporary file behind', async () => {
    const file = path.join(dir, 'tee.svc.json');
    await replaceFile(file, 'one');
    await replaceFile(file, 'two');
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(readdirSync(dir)).toEqual(['tee.svc.json']);
  });

  it('removes the file for null, which is how a record that did not exist is put back', async () => {
    const file = path.join(dir, 'tee.svc.json');
    await replaceFile(file, 'one');
    await replaceFile(file, null);
    expect(await readIfExists(file)).toBeNull();
    await replaceFile(file, null);
  });
});

describe('readGarmentSlugs', () => {
  it('reads slugs from file names, and from the record when a name does not say', async () => {
    write('tee.svc.json', 'not even JSON: the name says enough');
    write('tee.tech.json', { slug: 'tee', projection: 'tech' });
    write('old-name.json', { slug: 'hoodie', projection: 'svc' });
    write('broken.json', '{');
    expect((await readGarmentSlugs(dir)).sort()).toEqual(['hoodie', 'tee']);
  });
});

describe('setAside', () => {
  it('renames a broken file so builds skip it, never over a file already set aside', async () => {
    write('zz.svc.json', 'first');
    expect(await setAside(path.join(dir, 'zz.svc.json'))).toBe(path.join(dir, 'zz.svc.json.broken'));
    write('zz.svc.json', 'second');
    expect(await setAside(path.join(dir, 'zz.svc.json'))).toBe(path.join(dir, 'zz.svc.json.broken-2'));
    expect(readdirSync(dir).sort()).toEqual(['zz.svc.json.broken', 'zz.svc.json.broken-2']);
    expect(readFileSync(path.join(dir, 'zz.svc.json.broken'), 'utf8')).toBe('first');
  });
});
