import { describe, expect, it } from 'vitest';
import { changeSummary, comparableRecord, revisionChanges } from '../../../src/lib/revisions/record-changes.ts';
import type { GarmentRecord } from '../../../src/lib/record/index.ts';
import { revisionHistory, sameRecord } from '../../../src/lib/revisions/history.ts';
import { wordDiff } from '../../../src/lib/revisions/word-diff.ts';
import type { CommerceRecord } from '../../../src/lib/record/index.ts';
import { KEY_FACTS_PAGE_FIELDS, KEY_FACTS_PARTS, keyFacts } from '../../../src/lib/site/key-facts.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

/** What changed between two records, each read for comparing. */
const changesBetween = (before: GarmentRecord, after: GarmentRecord) => revisionChanges(comparableRecord(before), comparableRecord(after));

const tee = sampleRecords().find((s) => s.record.slug === 'ridgeline-rk6210-heavyweight-tee' && s.record.projection === 'svc')!
  .record as CommerceRecord;

describe('wordDiff', () => {
  it('says which words went and which came, in reading order', () => {
    expect(wordDiff('Ships in 3 days from Ohio.', 'Ships in 5 days from Ohio.')).toEqual([
      { change: 'same', text: 'Ships in ' },
      { change: 'removed', text: '3 ' },
      { change: 'added', text: '5 ' },
      { change: 'same', text: 'days from Ohio.' },
    ]);
  });

  it('says two unrelated texts as one removed and one added', () => {
    expect(wordDiff('alpha', 'beta')).toEqual([
      { change: 'removed', text: 'alpha' },
      { change: 'added', text: 'beta' },
    ]);
  });
});

describe('revisionChanges', () => {
  const later = (change: (record: CommerceRecord) => void) => {
    const record = copyOf(tee);
    change(record);
    return record;
  };

  it('finds a reworded sentence and says a changed price before and after', () => {
    const after = later((record) => {
      record.page.sections.standard_pricing[2]!.text = 'Standard US shipping is $4.95 for the first tee and $2.40 for each additional one.';
      record.data.offers.find((offer) => offer.id === 'offer-podtwo-start')!.base_amount_minor = 1250;
    });
    const changes = changesBetween(tee, after);
    expect(changes.text).toHaveLength(1);
    expect(changes.text[0]).toMatchObject({ change: 'changed', place: 'Standard pricing' });
    expect(changes.text[0]!.words.filter((run) => run.change !== 'same')).toEqual([
      { change: 'removed', text: '$4.75 ' },
      { change: 'added', text: '$4.95 ' },
    ]);
    const price = changes.keyFacts.find((fact) => fact.label === 'Price')!;
    expect(price.before.join()).toContain('$11.42');
    expect(price.after.join()).toContain('$12.50');
    expect(changeSummary(changes)).toBe('1 text block reworded, 1 key fact changed');
  });

  it('aligns a list by its unchanged blocks: one block added in the middle is one addition', () => {
    const after = later((record) => {
      record.page.sections.standard_pricing.splice(1, 0, { text: 'Prices rose in November.', claim_ids: [], kind: 'fact' });
    });
    expect(changesBetween(tee, after).text).toEqual([
      { change: 'added', place: 'Standard pricing', words: [{ change: 'added', text: 'Prices rose in November.' }] },
    ]);
  });

  it('says claims and sources added, removed and changed, and the research status', () => {
    const after = later((record) => {
      record.claims = record.claims.filter((claim) => claim.id !== 'clm-margin');
      record.claims.find((claim) => claim.id === 'clm-podtwo-start')!.verification = 'independently_corroborated';
      record.sources[0]!.title = 'A new title';
      record.research.status = 'in_progress';
    });
    const changes = changesBetween(tee, after);
    expect(changes.claims.map((claim) => [claim.change, claim.id])).toEqual([
      ['changed', 'clm-podtwo-start'],
      ['removed', 'clm-margin'],
    ]);
    expect(changes.sources.map((source) => [source.change, source.name])).toEqual([['changed', 'A new title']]);
    expect(changes.status).toEqual({ before: 'Complete', after: 'In progress' });
  });

  it('says a claimed price as the page says it, in its offer currency, not in minor units', () => {
    const after = later((record) => {
      record.claims.find((claim) => claim.id === 'clm-podtwo-start')!.value = 1195;
      const shipping = record.claims.find((claim) => claim.id === 'clm-ship-standard')!;
      shipping.value = { first_item_minor: 450, additional_item_minor: 225 };
      // A share claimed of a field the record gives in USD minor units: said in the claim's own unit.
      record.claims = record.claims.filter((claim) => claim.id !== 'clm-margin');
    });
    const said = Object.fromEntries(changesBetween(tee, after).claims.map((claim) => [claim.id, [claim.before, claim.after]]));
    expect(said['clm-podtwo-start']).toEqual(['$11.42 (Checked against source)', '$11.95 (Checked against source)']);
    expect(said['clm-ship-standard']).toEqual([
      'First item: $4.75; Each additional item: $2.40 (Checked against source)',
      'First item: $4.50; Each additional item: $2.25 (Checked against source)',
    ]);
    expect(said['clm-margin']).toEqual(['0.6 share of retail (Checked against source)', null]);
  });

  it('says a changed call to action and shop address as the key fact they are', () => {
    const after = later((record) => {
      record.page.cta_label = 'Order a pack of three';
      record.catalog!.launch_url = 'https://shop.svc.example/products/ridgeline-heavyweight-tee-3-pack';
    });
    const changes = changesBetween(tee, after);
    expect(changes.keyFacts).toEqual([{ label: 'Next step', before: ['Order a sample'], after: ['Order a pack of three'] }]);
    expect(changes.text).toEqual([]);
  });

  it('has nothing to say of the same record', () => {
    expect(changeSummary(changesBetween(tee, copyOf(tee)))).toBe('Changes in the data only: nothing the page says in words');
  });
});

describe('revisionHistory', () => {
  const bytes = (text: string) => Buffer.from(text);
  it('adds the published revision after the archived ones, unless the last archived is it but its links', () => {
    const archived = [bytes('{"a":1,"links":{"self":"x"}}')];
    expect(revisionHistory(archived, bytes('{"a":2,"links":{"self":"y"}}'))).toHaveLength(2);
    expect(revisionHistory(archived, bytes('{"a":1,"links":{"self":"y"}}'))).toHaveLength(1);
    expect(sameRecord(bytes('{"a":1,"links":null}'), bytes('{"a":1,"links":{"self":"y"}}'))).toBe(true);
    expect(sameRecord(bytes('{"a":1}'), bytes('{"a": 1}'))).toBe(false);
  });

  it('tells revisions apart by their first bytes only where those cannot hold links', () => {
    // A links key spelled with escapes, or early in the record: the texts differ in their first bytes, yet are the same revision.
    expect(sameRecord(bytes('{"\\u006cinks":null,"a":1}'), bytes('{"\\u006cinks":{"self":"y"},"a":1}'))).toBe(true);
    expect(sameRecord(bytes('{"links":null,"a":1}'), bytes('{"links":{"self":"y"},"a":1}'))).toBe(true);
    const long = 'x'.repeat(5000);
    expect(sameRecord(bytes(`{"a":"${long}","links":null}`), bytes(`{"a":"${long}","links":{"self":"y"}}`))).toBe(true);
    expect(sameRecord(bytes('\uFEFF{"a":1,"links":null}'), bytes('{"a":1,"links":{"self":"y"}}'))).toBe(true);
    expect(sameRecord(bytes('{"a":1,"links":null}'), bytes('{"a":2,"links":null}'))).toBe(false);
  });
});

describe('the parts key facts are read from', () => {
  /** The record as keyFacts may read it: any other part, or any other field of its page, throws. */
  const onlyKeyFactsParts = (record: GarmentRecord): GarmentRecord => {
    const guarded = <T extends object>(target: T, allowed: readonly string[], where: string): T =>
      new Proxy(target, {
        get: (object, name) => {
          if (typeof name === 'string' && !allowed.includes(name)) throw new Error(`key facts read ${where}${name}`);
          return Reflect.get(object, name);
        },
        has: (object, name) => {
          if (typeof name === 'string' && !allowed.includes(name)) throw new Error(`key facts asked for ${where}${name}`);
          return Reflect.has(object, name);
        },
      });
    const page = guarded(record.page, KEY_FACTS_PAGE_FIELDS, 'page.');
    return guarded({ ...record, page } as GarmentRecord, [...KEY_FACTS_PARTS, 'page'], '');
  };

  it.each(sampleRecords().map(({ file, record }) => [file, record] as const))('are all keyFacts reads of %s', (_, record) => {
    expect(keyFacts(onlyKeyFactsParts(record))).toEqual(keyFacts(record));
  });

  it('leave out the text, sources and what names the revision, which a change page reports otherwise', () => {
    for (const part of ['page', 'selection_summary', 'sources', 'research', 'record_revision', 'published_at', 'links'])
      expect(KEY_FACTS_PARTS).not.toContain(part);
  });
});
