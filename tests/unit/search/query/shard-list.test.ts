import { describe, expect, it } from 'vitest';
import { entryFiles, type ShardList } from '../../../../src/lib/search/query/shard-list.ts';

const entry = (hash: string) => ({ version: '1.6.0', languages: { en: { hash, wasm: 'en', page_count: 3 } }, include_characters: ['_'] });
const list: ShardList = {
  count: 3,
  shards: ['/pagefind/0.en_aa/', '/pagefind/2.en_bb/'],
  tags: ['en_aa', 'en_bb'],
  entries: [entry('en_aa'), entry('en_bb')],
  filters: {},
  words: {},
};

describe('entryFiles', () => {
  it('answers the address Pagefind asks each shard entry file at (bundle, then its tag) with the entry the list holds', () => {
    const files = entryFiles(list);
    expect([...files.keys()]).toEqual(['/pagefind/0.en_aa/pagefind-entry.json?ts=en_aa', '/pagefind/2.en_bb/pagefind-entry.json?ts=en_bb']);
    expect(JSON.parse(files.get('/pagefind/2.en_bb/pagefind-entry.json?ts=en_bb')!)).toEqual(entry('en_bb'));
  });

  it('answers nothing for a list kept from a site whose lists held no entry files: Pagefind fetches them', () => {
    const { entries: _, ...older } = list;
    expect(entryFiles(older as ShardList).size).toBe(0);
  });
});
