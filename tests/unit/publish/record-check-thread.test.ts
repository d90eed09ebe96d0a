import { afterEach, describe, expect, it } from 'vitest';
import { RecordCheckThread } from '../../../src/lib/publish/record-check-thread.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const samples = sampleRecords();
let thread: RecordCheckThread;
afterEach(() => thread.close());

describe('RecordCheckThread', () => {
  it('says where each valid record goes, for many checks at once', async () => {
    thread = new RecordCheckThread();
    const verdicts = await Promise.all(samples.map(({ record }) => thread.check(JSON.stringify(record))));
    expect(verdicts).toEqual(samples.map(({ record }) => ({ slug: record.slug, projection: record.projection })));
  });

  it('gives every error of an invalid record, with its pointer, and keeps checking the next', async () => {
    thread = new RecordCheckThread();
    const record = copyOf(samples[0]!.record);
    record.page.sections.overview[0]!.claim_ids.push('claim-nowhere');
    const index = record.page.sections.overview[0]!.claim_ids.length - 1;
    const [broken, notJson, valid] = await Promise.all([
      thread.check(JSON.stringify(record)),
      thread.check('{"slug": '),
      thread.check(JSON.stringify(samples[1]!.record)),
    ]);
    expect(broken).toEqual({
      problems: [
        expect.objectContaining({
          pointer: `/page/sections/overview/0/claim_ids/${index}`,
          message: 'names claim "claim-nowhere", which is not in claims',
        }),
      ],
    });
    expect('problems' in notJson && notJson.problems.map((problem) => problem.pointer)).toEqual(['']);
    expect(valid).toEqual({ slug: samples[1]!.record.slug, projection: samples[1]!.record.projection });
  });

  it('refuses the checks it had not answered when closed, and checks again afterwards', async () => {
    thread = new RecordCheckThread();
    const text = JSON.stringify(samples[0]!.record);
    const cut = thread.check(text);
    await thread.close();
    await expect(cut).rejects.toThrow(/record check thread stopped/);
    await expect(thread.check(text)).resolves.toEqual({ slug: samples[0]!.record.slug, projection: samples[0]!.record.projection });
  });
});
