import { describe, expect, it } from 'vitest';
import { dashboardMessages } from '../../../src/lib/dashboard/dashboard-messages.ts';
import { dashboardPageHtml } from '../../../src/lib/dashboard/dashboard-page.ts';

const entities: Record<string, string> = { '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };

describe('dashboardPageHtml', () => {
  it('passes the script its words as data-messages, escaped for the attribute', () => {
    const attribute = /data-messages="([^"]*)"/.exec(dashboardPageHtml())?.[1];
    expect(attribute).toBeDefined();
    expect(JSON.parse(attribute!.replace(/&(?:quot|#39|lt|gt|amp);/g, (entity) => entities[entity]!))).toEqual(dashboardMessages());
  });

  it('fills every placeholder of its own words, links and code in place', () => {
    const page = dashboardPageHtml().replace(/data-messages="[^"]*"/, '');
    expect(page).not.toMatch(/\{\w+\}/);
    expect(page).toContain('Everything here goes through the <a href="/docs/webhooks/">publish API</a> with your API key.');
    expect(page).toContain('<title>Completion webhooks · Settings · garment-press dashboard</title>');
  });
});
