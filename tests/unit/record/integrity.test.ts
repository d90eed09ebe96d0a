import { describe, expect, it } from 'vitest';
import {
  checkRecordIntegrity,
  checkSiteIntegrity,
  MARKDOWN_MAX_LENGTH,
  MARKDOWN_MAX_MARKS,
  type TextBlock,
} from '../../../src/lib/record/index.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const samples = sampleRecords();
const commerce = () => copyOf(samples.find((s) => s.record.projection === 'svc' && s.record.data.offers.length > 0)!.record);

describe('checkRecordIntegrity', () => {
  it.each(samples.map((s) => [s.file, s.record] as const))('finds nothing wrong in the sample record %s', (file, record) => {
    expect(checkRecordIntegrity({ file, record })).toEqual([]);
  });

  it('reports a text block naming a claim that does not exist', () => {
    const record = commerce();
    record.page.sections.overview[0]!.claim_ids.push('claim-nowhere');
    const index = record.page.sections.overview[0]!.claim_ids.length - 1;
    expect(checkRecordIntegrity({ file: 'r.json', record })).toEqual([
      {
        severity: 'error',
        file: 'r.json',
        pointer: `/page/sections/overview/0/claim_ids/${index}`,
        message: 'names claim "claim-nowhere", which is not in claims',
      },
    ]);
  });

  it('reports a slug too long to name a file, and accepts the longest that fits', () => {
    const record = commerce();
    record.slug = 'a'.repeat(245);
    expect(checkRecordIntegrity({ file: 'r.json', record })).toEqual([]);
    record.slug = 'a'.repeat(246);
    expect(checkRecordIntegrity({ file: 'r.json', record })).toEqual([
      {
        severity: 'error',
        file: 'r.json',
        pointer: '/slug',
        message: 'is 246 characters long; at most 245 fit in a file name (`<slug>.tech.json`)',
      },
    ]);
  });

  it('warns that a published date the site cannot place in time leaves the record out of the feeds', () => {
    const record = commerce();
    for (const date of ['2026-11', '2026-11-20', '2026-11-20T09:30:00Z', '2026-11-20T09:30:00.250-05:00']) {
      record.published_at = date;
      expect(checkRecordIntegrity({ file: 'r.json', record })).toEqual([]);
    }
    for (const date of ['last Tuesday', '2026-02-30', '20/11/2026']) {
      record.published_at = date;
      expect(checkRecordIntegrity({ file: 'r.json', record })).toEqual([
        {
          severity: 'warning',
          file: 'r.json',
          pointer: '/published_at',
          message: `"${date}" is not an ISO 8601 date (such as 2026-11-20 or 2026-11-20T09:30:00Z), so the page shows it as written and the feeds leave this revision out`,
        },
      ]);
    }
  });

  it('warns that a text block longer than the Markdown limit is shown as plain text', () => {
    const record = commerce();
    record.page.sections.overview[0]!.text = 'a'.repeat(MARKDOWN_MAX_LENGTH + 1);
    expect(checkRecordIntegrity({ file: 'r.json', record })).toEqual([
      {
        severity: 'warning',
        file: 'r.json',
        pointer: '/page/sections/overview/0/text',
        message: `is ${MARKDOWN_MAX_LENGTH + 1} characters long, so it is shown as plain text: Markdown is read in text blocks of at most ${MARKDOWN_MAX_LENGTH}`,
      },
    ]);
  });

  it('warns that a text block with more emphasis, code and link marks than the Markdown limit is shown as plain text', () => {
    const record = commerce();
    record.page.sections.overview[0]!.text = '*a'.repeat(MARKDOWN_MAX_MARKS + 1);
    expect(checkRecordIntegrity({ file: 'r.json', record })).toEqual([
      {
        severity: 'warning',
        file: 'r.json',
        pointer: '/page/sections/overview/0/text',
        message: `holds ${MARKDOWN_MAX_MARKS + 1} emphasis, code and link marks (*_~\`[]), so it is shown as plain text: Markdown is read in text blocks of at most ${MARKDOWN_MAX_MARKS}`,
      },
    ]);
  });

  it('reports dangling claim ids in conflicts, decisions, derived_from and faq answers', () => {
    const record = commerce();
    record.conflicts[0]!.selected_claim_id = 'gone-1';
    record.decisions[0]!.claim_ids = ['gone-2'];
    record.claims[0]!.derived_from = ['gone-3'];
    record.page.faq[0]!.answer.claim_ids = ['gone-4'];
    const pointers = checkRecordIntegrity({ file: 'r.json', record }).map((p) => p.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/conflicts/0/selected_claim_id',
        '/decisions/0/claim_ids/0',
        '/claims/0/derived_from/0',
        '/page/faq/0/answer/claim_ids/0',
      ]),
    );
  });

  it('reports the text blocks’ problems in reading order, as the page shows the blocks', () => {
    const record = commerce();
    record.selection_summary.tradeoffs[0]!.claim_ids = ['gone-tradeoff'];
    record.page.faq[0]!.answer.claim_ids = ['gone-answer'];
    (record.page.sections as unknown as Record<string, TextBlock[]>).technical_handoff = [
      { text: 'Last section.', claim_ids: ['gone-last'], kind: 'fact' },
    ];
    record.page.sections.overview[0]!.claim_ids = ['gone-overview'];
    record.page.description!.claim_ids = ['gone-description'];
    record.page.headline!.claim_ids = ['gone-headline'];
    const named = checkRecordIntegrity({ file: 'r.json', record }).map((p) => /"(gone-[a-z]+)"/.exec(p.message)![1]);
    expect(named).toEqual(['gone-headline', 'gone-description', 'gone-overview', 'gone-last', 'gone-tradeoff', 'gone-answer']);
  });

  it('reports a reference to a source that does not exist, suggesting a near match', () => {
    const record = commerce();
    const real = record.claims[0]!.references[0]!.source_id;
    record.claims[0]!.references[0]!.source_id = real.toUpperCase();
    expect(checkRecordIntegrity({ file: 'r.json', record })).toEqual([
      {
        severity: 'error',
        file: 'r.json',
        pointer: '/claims/0/references/0/source_id',
        message: `names source "${real.toUpperCase()}", which is not in sources; did you mean "${real}"?`,
      },
    ]);
  });

  it('suggests near matches among many claims in time in proportion to the record', () => {
    // Every dangling id was compared with every claim: 10,000 of each took some 20 seconds.
    const record = commerce();
    const claim = record.claims[0]!;
    record.claims = Array.from({ length: 10_000 }, (_, i) => ({ ...claim, id: `claim_${i}` }));
    record.page.sections.overview = Array.from({ length: 1_000 }, (_, i) => ({
      text: 'Dangling.',
      kind: 'fact' as const,
      claim_ids: Array.from({ length: 10 }, (_, j) => `claim-${i * 10 + j}`),
    }));
    const started = performance.now();
    const problems = checkRecordIntegrity({ file: 'r.json', record }).filter((p) => p.pointer.startsWith('/page/sections/overview/'));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(problems).toHaveLength(10_000);
    expect(problems[1]!.message).toBe('names claim "claim-1", which is not in claims; did you mean "claim_1"?');
  });

  it('reports two claims sharing an id', () => {
    const record = commerce();
    record.claims[1]!.id = record.claims[0]!.id;
    const problems = checkRecordIntegrity({ file: 'r.json', record }).filter((p) => p.pointer === '/claims/1/id');
    expect(problems).toHaveLength(1);
    expect(problems[0]!.severity).toBe('error');
  });

  it('warns, without failing, about a gap, conflict or decision sharing an id with an earlier one', () => {
    const record = commerce();
    const gap = {
      id: 'g-fit',
      target: 'fit',
      reason: 'not_checked',
      impact: 'Fit unknown.',
      next_action: 'Try it on.',
      owner: 'sampling',
      priority: 'future',
    } as const;
    record.gaps = [gap, { ...gap, target: 'stretch' }, { ...gap, id: 'g-other' }];
    const problems = checkRecordIntegrity({ file: 'r.json', record });
    expect(problems).toEqual([
      {
        severity: 'warning',
        file: 'r.json',
        pointer: '/gaps/1/id',
        message: 'gap id "g-fit" is used more than once, so a link to it opens the first; give each gap its own id',
      },
    ]);
  });

  it('warns, without failing, about a data cross-reference that names no item', () => {
    const record = commerce();
    record.data.variants[0]!.color_id = 'color-nowhere';
    expect(checkRecordIntegrity({ file: 'r.json', record })).toEqual([
      {
        severity: 'warning',
        file: 'r.json',
        pointer: '/data/variants/0/color_id',
        message: 'names "color-nowhere", which is not an id in data/colors',
      },
    ]);
  });
});

describe('checkSiteIntegrity', () => {
  it('names every file publishing the same slug and projection', () => {
    const problems = checkSiteIntegrity([
      { file: 'records/a.json', slug: 'tee', projection: 'svc' },
      { file: 'records/b.json', slug: 'tee', projection: 'svc' },
      { file: 'records/c.json', slug: 'tee', projection: 'tech' },
    ]);
    expect(problems.map((p) => [p.file, p.pointer])).toEqual([
      ['records/a.json', '/slug'],
      ['records/b.json', '/slug'],
    ]);
    expect(problems[0]!.message).toContain('also published by records/b.json');
    expect(problems[1]!.message).toContain('also published by records/a.json');
  });
});
