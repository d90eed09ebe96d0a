import { describe, expect, it } from 'vitest';
import { siteAddressProblem } from '../../../src/lib/site/urls.ts';

describe('siteAddressProblem', () => {
  it('accepts the root of an http(s) site, with or without its slash or a port', () => {
    for (const site of [
      'https://garments.example',
      'https://garments.example/',
      'http://127.0.0.1:4321/',
      'https://GARMENTS.example:8443',
    ]) {
      expect(siteAddressProblem(site), site).toBeUndefined();
    }
  });

  it('refuses an address that is not http(s), or names more than a site root', () => {
    expect(siteAddressProblem('garments.example')).toBe('expects an absolute http(s) URL, got "garments.example"');
    expect(siteAddressProblem('ftp://garments.example/')).toMatch(/^expects an absolute http\(s\) URL/);
    for (const site of [
      'https://garments.example/press/',
      'https://garments.example/index.html',
      'https://garments.example/?v=1',
      'https://garments.example/#top',
    ]) {
      expect(siteAddressProblem(site), site).toMatch(/^expects the address of a site's root, such as https:\/\/garments\.example\/, got /);
    }
  });
});
