import { describe, expect, it } from 'vitest';
import { sizeLabel, sizeWord } from '../../../../src/lib/search/query/size-labels.ts';

describe('sizeLabel', () => {
  it('spells a letter size in capitals, its X’s counted past one', () => {
    expect(['xxl', 'XXL', '2xl', '2XL', '2 XL', '2-xl', 'XX-L'].map(sizeLabel)).toEqual(['2XL', '2XL', '2XL', '2XL', '2XL', '2XL', '2XL']);
    expect(['xxxl', '3XL', 'XXXXL', '4xl', 'xxs', 'XXXS'].map(sizeLabel)).toEqual(['3XL', '3XL', '4XL', '4XL', '2XS', '3XS']);
  });

  it('keeps the sizes of one or no X as they are read', () => {
    expect(['s', 'M', 'l', 'xl', 'XS', '1XL', '1xs'].map(sizeLabel)).toEqual(['S', 'M', 'L', 'XL', 'XS', 'XL', 'XS']);
  });

  it('leaves any other label as written, its whitespace collapsed', () => {
    expect([' One  size ', '2L', 'XM', '2M', '32', 'W32 L30', '3XLT', '2X', 'Small'].map(sizeLabel)).toEqual([
      'One size',
      '2L',
      'XM',
      '2M',
      '32',
      'W32 L30',
      '3XLT',
      '2X',
      'Small',
    ]);
  });
});

describe('sizeWord', () => {
  it('gives a size typed any way as the word the index holds for it, and any other word as it is', () => {
    expect(['xxxxl', '4xl', 'xxl', 'xl', 'fleece', 'xx', '2x'].map(sizeWord)).toEqual(['4xl', '4xl', '2xl', 'xl', 'fleece', 'xx', '2x']);
  });
});
