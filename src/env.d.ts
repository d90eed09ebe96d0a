// Astro's ambient types (import.meta.glob, ?raw imports) without a generated .astro/ folder, so a fresh clone typechecks.
/// <reference types="astro/client" />
