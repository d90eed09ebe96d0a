import { describe, expect, it } from 'vitest';
import { referencedCollection } from '../../../src/lib/record/references.ts';

describe('referencedCollection', () => {
  it('names the collection a reference field points into', () => {
    expect(referencedCollection('variants', 'color_id')).toBe('colors');
    expect(referencedCollection('offers', 'provider_variant_id')).toBe('provider_variants');
    expect(referencedCollection(null, 'applies_to_variant_ids')).toBe('variants');
  });

  it('is nothing for a field that is no reference, or a collection’s own provider-side id', () => {
    expect(referencedCollection('offers', 'notes')).toBeUndefined();
    expect(referencedCollection('provider_variants', 'provider_variant_id')).toBeUndefined();
  });
});
