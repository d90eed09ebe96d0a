import { domainToUnicode } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodePunycode } from '../../../src/lib/site/punycode.ts';
import { safeHref, webAddress, webLink, webUrl } from '../../../src/lib/site/web-address.ts';

describe('webUrl and safeHref', () => {
  it.each([
    ['https://example.org/a', 'https://example.org/a', 'https://example.org/a'],
    ['http://example.org', 'http://example.org/', 'http://example.org/'],
    [' https://Example.ORG ', 'https://example.org/', 'https://example.org/'],
    ['mailto:a@example.org', null, 'mailto:a@example.org'],
    ['/garments/tee/', null, '/garments/tee/'],
    ['#claim-1', null, '#claim-1'],
    ['//evil.example', null, null],
    ['/\\evil.example', null, null],
    ['/\t/evil.example/', null, null],
    ['/\n/evil.example/', null, null],
    // A host the URL parser refuses: no link, and no exception either.
    ['//[', null, null],
    ['/\t/[::1', null, null],
    ['javascript:alert(1)', null, null],
    ['JAVASCRIPT:alert(1)', null, null],
    ['data:image/png;base64,AAAA', null, null],
    ['ftp://example.org', null, null],
    ['not a url', null, null],
    // Paths that resolve to `//host/`, which a browser reads as another host.
    ['/.//evil.example/phish', null, null],
    ['/a/..//evil.example/', null, null],
    ['/%2e//evil.example/', null, null],
    ['/./\\evil.example/', null, null],
    // A user name before the host hides where the link leads.
    ['https://shop.example@evil.example/', null, null],
    ['https://user:pass@a.example/', null, null],
    // Host names HTML refuses, which the URL standard lets through.
    ['https://a..b/', null, null],
    ['https://.example.org/', null, null],
    ['https://xn--a.example/', null, null],
    [`https://${'a'.repeat(64)}.example/`, null, null],
    ['https://xn--bcher-kva.example/', 'https://xn--bcher-kva.example/', 'https://xn--bcher-kva.example/'],
    ['https://example.org./', 'https://example.org./', 'https://example.org./'],
    ['https://[::1]/', 'https://[::1]/', 'https://[::1]/'],
  ])('takes %j as web URL %j, as href %j', (url, web, href) => {
    expect(webUrl(url)).toBe(web);
    expect(safeHref(url)).toBe(href);
  });

  it('percent-encodes what a URL cannot hold, so an address can never leave its attribute', () => {
    expect(webUrl('https://ok.example/"onmouseover="alert(1)')).toBe('https://ok.example/%22onmouseover=%22alert(1)');
    expect(webUrl('https://ok.example/path?q=<img src=x>')).toBe('https://ok.example/path?q=%3Cimg%20src=x%3E');
    expect(safeHref('/garments/a tee/"x"')).toBe('/garments/a%20tee/%22x%22');
    expect(safeHref('#a "b" <c>')).toBe('#a%20%22b%22%20%3Cc%3E');
  });

  it('percent-encodes what RFC 3986 allows nowhere in a path, query or fragment, so HTML checkers accept every address', () => {
    expect(webUrl('https://a.example/x|y[1]{2}\\^?q=`x`#a#b')).toBe('https://a.example/x%7Cy%5B1%5D%7B2%7D/%5E?q=%60x%60#a%23b');
    expect(webUrl('https://a.example/100%')).toBe('https://a.example/100%25');
    expect(webUrl('https://a.example/%41ok')).toBe('https://a.example/%41ok');
    expect(webUrl('https://[::1]:8080/p')).toBe('https://[::1]:8080/p');
    expect(safeHref('/a|b#c#d')).toBe('/a%7Cb#c%23d');
  });

  it('treats a missing URL as not a web URL', () => {
    expect(webUrl(null)).toBe(null);
    expect(webUrl('')).toBe(null);
  });

  it('gives the strict URL with its host name (webLink), or null where webUrl gives null', () => {
    expect(webLink(' https://Shop.Example/a b|c ')).toEqual({ url: 'https://shop.example/a%20b%7Cc', host: 'shop.example' });
    expect(webLink('https://[::1]:8080/p')).toEqual({ url: 'https://[::1]:8080/p', host: '[::1]' });
    expect(webLink('https://user:pw@shop.example/')).toBe(null);
    expect(webLink('javascript:alert(1)')).toBe(null);
  });
});

describe('xn-- host names', () => {
  it('decodes Punycode as RFC 3492 does, and refuses what is not Punycode', () => {
    expect(decodePunycode('bcher-kva')).toBe('bücher');
    expect(decodePunycode('nxasmq6b')).toBe('βόλοσ');
    expect(decodePunycode('55qx5d')).toBe('公司');
    expect(decodePunycode('ls8h')).toBe('💩');
    expect(decodePunycode('')).toBe('');
    for (const bad of ['!', 'é', 'zzzzzzzzzzzzzz', '99999999999', 'bcher-kvaé']) expect(decodePunycode(bad)).toBe(null);
  });

  // The compare page checks addresses in the browser, where Node's domainToUnicode does not exist.
  it('takes an xn-- label exactly as Node does, over labels written from Unicode, altered, and made up', () => {
    let seed = 35;
    const next = (n: number) => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed % n;
    };
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789-';
    const unicode = [...'éßςσβό公司💩ابאİﬁⅫｗäğı١', '\u200d', '\u0301'];
    const labels: string[] = [];
    while (labels.length < 20_000) {
      let label = 'xn--';
      if (labels.length % 2 === 0) {
        let text = '';
        for (let i = next(6); i >= 0; i--) text += next(2) ? unicode[next(unicode.length)] : letters[next(26)];
        const written = URL.parse(`http://${text}/`)?.hostname ?? '';
        if (!/^xn--[^.]+$/.test(written)) continue;
        const at = 4 + next(written.length - 4);
        label = labels.length % 4 === 0 ? written : `${written.slice(0, at)}${letters[next(letters.length)]}${written.slice(at + 1)}`;
      } else {
        for (let i = next(10); i > 0; i--) label += letters[next(letters.length)];
      }
      if (URL.parse(`http://${label}.example/`)?.hostname === `${label}.example`) labels.push(label);
    }
    const differ = labels.filter((label) => (webAddress(`http://${label}.example/`) !== null) !== (domainToUnicode(label) !== label));
    expect(differ).toEqual([]);
  });
});
