import { describe, expect, it } from 'vitest';
import { linksFor } from '../../../src/lib/site/links.ts';

describe('linksFor', () => {
  it('names every representation with an absolute URL from the site address', () => {
    expect(linksFor({ slug: 'tee', projection: 'svc' }, 'https://garments.example.org', true)).toEqual({
      self: 'https://garments.example.org/garments/tee/svc.json',
      markdown: 'https://garments.example.org/garments/tee/svc.md',
      json: 'https://garments.example.org/garments/tee/svc.json',
      page: 'https://garments.example.org/garments/tee/svc/',
      other_projection: 'https://garments.example.org/garments/tee/tech.json',
      schema: 'https://garments.example.org/schema/garment-access-2.4.0.json',
      api_docs: 'https://garments.example.org/docs/api/',
      mcp_docs: 'https://garments.example.org/docs/mcp/',
    });
  });

  it('gives a null other_projection when the garment has no record of the other projection', () => {
    expect(linksFor({ slug: 'tee', projection: 'tech' }, 'https://garments.example.org', false).other_projection).toBeNull();
    expect(linksFor({ slug: 'tee', projection: 'tech' }, 'https://garments.example.org', true).other_projection).toBe(
      'https://garments.example.org/garments/tee/svc.json',
    );
  });

  it('keeps a base path of the site, with or without its trailing slash', () => {
    for (const site of ['https://example.org/press', 'https://example.org/press/', new URL('https://example.org/press/')]) {
      expect(linksFor({ slug: 'tee', projection: 'svc' }, site, false).page).toBe('https://example.org/press/garments/tee/svc/');
    }
  });
});
