import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkedFiles, pageVersion, RELOAD_SCRIPT_PATH, withReloadScript } from '../../../src/lib/dev/page-version.ts';

describe('linkedFiles', () => {
  it("names the site's own scripts, stylesheets and icons a page loads, and nothing from elsewhere", () => {
    const html = `<head><link rel="canonical" href="https://garments.example/a/"><link rel="icon" href="/favicon.svg">
      <link rel="stylesheet" href="/styles/site.1a2b.css"><script src='/scripts/record-page.js?v=2' defer></script>
      <script src="//cdn.example/x.js"></script><script>inline()</script></head>`;
    expect(linkedFiles(html)).toEqual(['/favicon.svg', '/styles/site.1a2b.css', '/scripts/record-page.js']);
  });
});

describe('pageVersion', () => {
  it('changes when the page or a script it loads changes, and is undefined once the page is gone', async () => {
    const site = mkdtempSync(path.join(tmpdir(), 'dev-site-'));
    mkdirSync(path.join(site, 'scripts'));
    writeFileSync(path.join(site, 'index.html'), '<script src="/scripts/page.js"></script><h1>A</h1>');
    writeFileSync(path.join(site, 'scripts/page.js'), 'one();');
    const first = await pageVersion(site, '/index.html');
    expect(await pageVersion(site, '/index.html')).toBe(first);
    writeFileSync(path.join(site, 'scripts/page.js'), 'two();');
    const second = await pageVersion(site, '/index.html');
    expect(second).not.toBe(first);
    writeFileSync(path.join(site, 'index.html'), '<script src="/scripts/page.js"></script><h1>B</h1>');
    expect(await pageVersion(site, '/index.html')).not.toBe(second);
    expect(await pageVersion(site, '/gone/index.html')).toBeUndefined();
    expect(await pageVersion(site, '/../outside.html')).toBeUndefined();
  });
});

describe('withReloadScript', () => {
  it('adds the script from the site’s own origin at the end of the head, with its page and version', () => {
    const page = withReloadScript('<html><head><title>A</title></head><body></body></html>', '/a/index.html', 'v1');
    expect(page).toBe(
      `<html><head><title>A</title><script src="${RELOAD_SCRIPT_PATH}" data-events="/__garment-press/events" data-page="/a/index.html" data-version="v1" defer></script></head><body></body></html>`,
    );
  });

  it('keeps a page path inside its attribute', () => {
    expect(withReloadScript('<head></head>', '/a"><script>x()</script>/index.html', 'v')).toContain(
      'data-page="/a&quot;>&lt;script>x()&lt;/script>/index.html"',
    );
  });
});
