import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readIndexedPages } from '../../../../src/lib/search/index/indexed-pages.ts';

/** A fragment file as Pagefind writes one: gzipped signature and JSON. */
const fragment = (data: unknown, signature = 'pagefind_dcd') => gzipSync(Buffer.from(`${signature}${JSON.stringify(data)}`));

describe('readIndexedPages', () => {
  let bundle: string;
  const write = (name: string, bytes: Buffer) => writeFileSync(path.join(bundle, 'fragment', name), bytes);

  beforeEach(() => {
    bundle = mkdtempSync(path.join(tmpdir(), 'indexed-pages-'));
    mkdirSync(path.join(bundle, 'fragment'));
  });
  afterEach(() => rmSync(bundle, { recursive: true, force: true }));

  it('gives each page’s text, metadata and filters by URL', () => {
    write(
      'en_1.pf_fragment',
      fragment({
        url: '/garments/a/',
        content: 'Heavy tee.',
        word_count: 2,
        filters: { color: ['Navy'] },
        meta: { title: 'A', names: 'RK-1' },
        anchors: [],
      }),
    );
    write('en_2.pf_fragment', fragment({ url: '/garments/b/', content: 'Tech.', word_count: 1, filters: {}, meta: {}, anchors: [] }));
    expect(readIndexedPages(bundle)).toEqual(
      new Map([
        ['/garments/a/', { content: 'Heavy tee.', filters: { color: ['Navy'] }, meta: { title: 'A', names: 'RK-1' } }],
        ['/garments/b/', { content: 'Tech.', filters: {}, meta: {} }],
      ]),
    );
  });

  it('leaves out anything that is not a page fragment as Pagefind 1 writes them, so its record is read again', () => {
    write('plain.pf_fragment', Buffer.from('not gzip'));
    write('signature.pf_fragment', fragment({ url: '/x/', content: 'x', filters: {} }, 'pagefind_xyz'));
    write('shape.pf_fragment', fragment({ url: '/y/', content: 42, filters: {} }));
    write('filters.pf_fragment', fragment({ url: '/z/', content: 'z', filters: { color: 'Navy' }, meta: {} }));
    write('meta.pf_fragment', fragment({ url: '/v/', content: 'v', filters: {}, meta: { title: 3 } }));
    write('other.txt', fragment({ url: '/w/', content: 'w', filters: {} }));
    expect(readIndexedPages(bundle).size).toBe(0);
  });

  it('gives nothing for a folder that holds no index', () => {
    expect(readIndexedPages(path.join(bundle, 'missing')).size).toBe(0);
  });
});
