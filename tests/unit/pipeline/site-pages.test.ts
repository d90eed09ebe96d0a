import { describe, expect, it } from 'vitest';
import astroSettings from '../../../astro.config.mjs';
import { astroConfig } from '../../../src/lib/pipeline/site-pages.ts';

describe('astroConfig', () => {
  it("builds with astro.config.mjs's settings, the build's own address and folders, and its context last among the integrations", () => {
    const config = astroConfig('https://shop.example', '/private/site-context.jsonl', '/project', '/project/dist');
    const { site: _defaultSite, integrations, ...settings } = astroSettings;
    expect(config).toMatchObject(settings);
    expect(config).toMatchObject({ configFile: false, site: 'https://shop.example', root: '/project', outDir: '/project/dist' });
    expect(config.integrations?.map((integration) => (integration as { name: string }).name)).toEqual([
      ...(integrations ?? []).map((integration) => (integration as { name: string }).name),
      'garment-press:site-context',
    ]);
  });

  it('gives two builds in one process configurations of their own', () => {
    const first = astroConfig('https://one.example', '/one-private/site-context.jsonl', '/project', '/one');
    const second = astroConfig('https://two.example', '/two-private/site-context.jsonl', '/project', '/two');
    expect([first.site, second.site]).toEqual(['https://one.example', 'https://two.example']);
    expect(first.integrations).not.toBe(second.integrations);
    expect(astroSettings.integrations).toEqual([]);
  });
});
