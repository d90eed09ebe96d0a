import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { linksFor } from '../../../src/lib/site/links.ts';
import { publishedJson } from '../../../src/lib/site/published-json.ts';
import { projectRoot, sampleRecords } from '../../support/records.ts';

const links = linksFor({ slug: 'tee', projection: 'svc' }, 'https://garments.example.org', true);
const twin = (source: string) => publishedJson(Buffer.from(source), links).toString('utf8');

describe('publishedJson', () => {
  it('gives each sample record with its links filled, keys in order, laid out as the file is', () => {
    for (const { file, record } of sampleRecords()) {
      const published = twin(readFileSync(path.join(projectRoot, file), 'utf8'));
      expect(JSON.parse(published)).toEqual({ ...record, links });
      expect(Object.keys(JSON.parse(published))).toEqual(Object.keys(record));
      // The sample files are two-space JSON with a final newline, so their twins are too.
      expect(published).toBe(`${JSON.stringify({ ...record, links }, null, 2)}\n`);
    }
  });

  it('changes nothing but the value of links: spacing, escapes and numbers stay as written', () => {
    const source = '{ "n" : 1.0,"big":1e400, "s":"caf\\u00e9 \\"links\\": {} \\\\", "links":{"self":"x"} ,"after":[{"links":[]}]}';
    expect(twin(source)).toBe(source.replace('{"self":"x"}', JSON.stringify(links)));
  });

  it('indents links as the line it stands on, with the file’s line breaks', () => {
    const tabbed = twin('{\n\t"a": 1,\n\t"links": {}\n}\n');
    expect(tabbed).toBe(`{\n\t"a": 1,\n\t"links": ${JSON.stringify(links, null, '\t').replaceAll('\n', '\n\t')}\n}\n`);
    const crlf = twin('{\r\n    "links": null\r\n}');
    expect(crlf).toBe(`{\r\n    "links": ${JSON.stringify(links, null, '    ').replaceAll('\n', '\r\n    ')}\r\n}`);
    expect(JSON.parse(crlf).links).toEqual(links);
  });

  it('replaces links however the key is escaped, and every repeat of it', () => {
    const published = JSON.parse(twin('{"links":{"self":"first"},"\\u006cinks":{"self":"second"},"x":{"links":"nested"}}'));
    expect(published).toEqual({ links, x: { links: 'nested' } });
    expect(twin('{"links":1,"links":2}')).toBe(`{"links":${JSON.stringify(links)},"links":${JSON.stringify(links)}}`);
  });

  it('drops a byte order mark and keeps every other byte, UTF-8 included', () => {
    const source = '{"title":"Tee – «naïve» 🧵","links":{}}';
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(source)]);
    expect(publishedJson(bytes, links).toString('utf8')).toBe(source.replace('{}', JSON.stringify(links)));
  });

  it('replaces only a top-level links, wherever the key is written', () => {
    for (const source of [
      '{"a":{"links":1}}',
      '{"a":[{"links":1}] }',
      '{"a":{"b":{}, "links":1}\n}',
      '{"links" :\n1, "x": 2,\t"y": {"links":3}}',
    ]) {
      const expected = JSON.parse(source);
      if ('links' in expected) expected.links = links;
      expect(JSON.parse(twin(source)), source).toEqual(expected);
    }
    expect(twin('{"a": "\\"links\\"", "b":{"links" : 1}, "links": 2 }')).toBe(
      `{"a": "\\"links\\"", "b":{"links" : 1}, "links": ${JSON.stringify(links)} }`,
    );
  });

  it('refuses bytes that are not a JSON object', () => {
    for (const source of ['[]', '"links"', '{"links":{}', '{"a" 1}', '{"a":"unterminated}']) {
      expect(() => twin(source), source).toThrow('not a JSON object');
    }
  });
});
