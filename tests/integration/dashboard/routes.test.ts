// The dashboard as `npm run serve` serves it: its page, stylesheet and script modules under the strict
// policy and guard headers, redirects to the page, 404 and 405 for anything else (the browser side is
// tests/e2e/dashboard.spec.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { node } from '../../support/run.ts';
import { call, type ServeProcess, type ServiceWorkspace, serviceWorkspace, startServe, stopServe } from '../publish/support.ts';

const PAGE = '/dashboard/settings/mcp/webhooks/';
const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

let workspace: ServiceWorkspace;
let service: ServeProcess;

beforeAll(async () => {
  workspace = await serviceWorkspace('dashboard-routes-', ['Acme']);
  service = await startServe(['--records', workspace.recordsDir, '--out', workspace.outDir, '--data', workspace.dataDir]);
});

afterAll(async () => {
  await stopServe(service);
});

function expectGuarded(headers: Headers): void {
  expect(headers.get('content-security-policy')).toBe(POLICY);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('cache-control')).toBe('no-store');
}

/** Every address the page names (its script and stylesheet) and each module's imports, followed from the page. */
async function pageAssets(): Promise<Map<string, string>> {
  const page = await call(service.url, PAGE);
  const found = new Map<string, string>();
  const pending = [...page.text.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((match) => match[1]!);
  while (pending.length > 0) {
    const address = pending.pop()!;
    if (found.has(address)) continue;
    const asset = await call(service.url, address);
    expect(asset.status, address).toBe(200);
    found.set(address, asset.text);
    for (const [, specifier] of asset.text.matchAll(/from '(\.\/[^']+)'/g))
      pending.push(new URL(specifier!, `http://x${address}`).pathname);
  }
  return found;
}

describe('the dashboard routes', () => {
  it('serve the page as HTML under the strict policy and guard headers', async () => {
    const page = await call(service.url, PAGE);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectGuarded(page.headers);
    expect(page.text.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(page.text).toContain('This dashboard needs JavaScript.');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('lead /dashboard, /dashboard/ and the page without its slash to the page', async () => {
    for (const address of ['/dashboard', '/dashboard/', '/dashboard/settings/mcp/webhooks']) {
      const response = await fetch(`${service.url}${address}`, { redirect: 'manual' });
      expect(response.status, address).toBe(302);
      expect(response.headers.get('location'), address).toBe(PAGE);
      expectGuarded(response.headers);
    }
  });

  it("serve the stylesheet and every script module the page loads, as JavaScript Node's checker accepts", async () => {
    const assets = await pageAssets();
    expect([...assets.keys()].sort()).toEqual([
      '/dashboard/assets/dashboard-client.ts',
      '/dashboard/assets/dashboard.css',
      '/dashboard/assets/delivery-nodes.ts',
      '/dashboard/assets/delivery-view.ts',
    ]);
    const folder = mkdtempSync(path.join(tmpdir(), 'dashboard-modules-'));
    for (const [address, text] of assets) {
      const response = await fetch(`${service.url}${address}`);
      expectGuarded(response.headers);
      if (address.endsWith('.css')) {
        expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
        continue;
      }
      expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      // The browser has no Node: a module may name only its neighbours.
      expect([...text.matchAll(/from '([^']+)'/g)].map((match) => match[1]).filter((specifier) => !specifier!.startsWith('./'))).toEqual(
        [],
      );
      // As a browser would take it: plain JavaScript, no type annotation left.
      const file = path.join(folder, `${path.basename(address, '.ts')}.mjs`);
      writeFileSync(file, text);
      expect(() => execFileSync(node, ['--check', file], { stdio: 'pipe' }), address).not.toThrow();
    }
  });

  it('answer unknown dashboard paths and the modules the page does not load with 404, guarded', async () => {
    for (const address of [
      '/dashboard/nope',
      '/dashboard/settings/',
      '/dashboard/assets/dashboard-files.ts',
      '/dashboard/assets/%2e%2e/dashboard-files.ts',
    ]) {
      const response = await call(service.url, address);
      expect(response.status, address).toBe(404);
      expectGuarded(response.headers);
      expect(response.text).not.toContain('import ');
    }
  });

  it('refuse other methods with 405 and Allow', async () => {
    const response = await call(service.url, PAGE, { method: 'POST', body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expectGuarded(response.headers);
  });

  it('leave the site and the API as they were', async () => {
    expect((await call(service.url, '/dashboardx')).status).toBe(404);
    const secret = await call(service.url, '/api/webhooks/secret', { key: workspace.organizations[0]!.key });
    expect(secret.json().signing_secret).toBe(workspace.organizations[0]!.secret);
    expect(service.output()).not.toMatch(/Warning/);
  });
});
