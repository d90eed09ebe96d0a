import { describe, expect, it } from 'vitest';
import { SECTION_ORDER } from '../../../src/lib/record/reading-order.ts';
import { humanize, lookup, sectionHeading, STRINGS, t, tCount } from '../../../src/lib/site/strings.ts';

describe('t', () => {
  it('fills named placeholders', () => {
    expect(t('projection.other', { projection: 'Technical' })).toBe('Read the Technical page');
  });

  it('does not expand placeholders inside a value', () => {
    expect(t('projection.other', { projection: '{projection}' })).toBe('Read the {projection} page');
  });

  it('leaves a placeholder without a value visible', () => {
    expect(t('projection.other')).toBe('Read the {projection} page');
  });

  it('fills several placeholders, the same way every time', () => {
    expect(t('record.period', { start: 'May 1', end: 'June 2' })).toBe('May 1 to June 2');
    expect(t('record.period', { end: 'July 3' })).toBe('{start} to July 3');
    expect(t('record.period', { start: 'May 1', end: 'June 2' })).toBe('May 1 to June 2');
  });
});

describe('tCount', () => {
  it('chooses the one or many form by count', () => {
    expect(tCount('gap.count', 1)).toBe('1 gap');
    expect(tCount('gap.count', 0)).toBe('0 gaps');
    expect(tCount('gap.count', 1200)).toBe('1,200 gaps');
  });
});

describe('STRINGS', () => {
  it('has a many form for every one form', () => {
    for (const key of Object.keys(STRINGS).filter((k) => k.endsWith('.one'))) {
      expect(STRINGS).toHaveProperty([key.replace(/\.one$/, '.many')]);
    }
  });

  it('has a heading for every section of both projections', () => {
    for (const projection of ['svc', 'tech'] as const) {
      for (const section of SECTION_ORDER[projection]) expect(lookup(`section.${projection}.${section}`)).toBeDefined();
    }
  });
});

describe('sectionHeading and humanize', () => {
  it('gives the human heading of a section', () => {
    expect(sectionHeading('svc', 'fit_and_sizing')).toBe('Fit and sizing');
    expect(sectionHeading('tech', 'validation_and_rights')).toBe('Validation and rights');
  });

  it('turns an unknown key into words', () => {
    expect(sectionHeading('svc', 'new_section')).toBe('New section');
    expect(humanize('chest_width_flat')).toBe('Chest width flat');
  });
});
