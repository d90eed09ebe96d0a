/** Fields inside `data` that name an item of another collection, and which collection. */
const DATA_REFERENCES: Record<string, string> = {
  color_id: 'colors',
  applies_to_color_ids: 'colors',
  available_color_ids: 'colors',
  material_profile_id: 'material_profiles',
  material_profile_ids: 'material_profiles',
  size_range_id: 'size_ranges',
  variant_id: 'variants',
  variant_ids: 'variants',
  applies_to_variant_ids: 'variants',
  provider_listing_id: 'provider_listings',
  provider_variant_id: 'provider_variants',
  provider_variant_ids: 'provider_variants',
  decoration_method_id: 'decoration_methods',
  method_id: 'decoration_methods',
  offer_id: 'offers',
  placement_id: 'decoration_placements',
  included_placement_ids: 'decoration_placements',
  price_component_id: 'price_components',
  from_asset_id: 'assets',
  to_asset_id: 'assets',
  source_asset_ids: 'assets',
  asset_ids: 'assets',
};

/**
 * The collection an item's field names an item of, if it is a reference: one map for the
 * integrity warnings and the page's links. A collection's own provider-side id
 * (provider_variants[].provider_variant_id) is not a reference.
 * @example referencedCollection('offers', 'provider_variant_id') → 'provider_variants'
 */
export function referencedCollection(collection: string | null, field: string): string | undefined {
  const target = DATA_REFERENCES[field];
  return target === collection ? undefined : target;
}
