import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { readingOrder, type GarmentRecord, type TextBlock } from '../../../src/lib/record/index.ts';
import { linksFor } from '../../../src/lib/site/links.ts';
import { footnoteLabels, frontMatterYaml, recordMarkdown } from '../../../src/lib/site/markdown.ts';
import { pageView } from '../../../src/lib/site/page-view.ts';
import { plainText } from '../../../src/lib/site/text.ts';
import { nodesOf, pageText, type parseMarkdown, parseTwin, textOf } from '../../support/markdown.ts';
import { copyOf, projectRoot, sampleRecords } from '../../support/records.ts';

const SITE = 'https://garments.example.org';
const hostileDir = path.join(projectRoot, 'tests/fixtures/hostile');
/** The sample records, and the hostile fixtures whose every free-text string is an attack. */
const samples = [
  ...sampleRecords(),
  ...readdirSync(hostileDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({
      file: `tests/fixtures/hostile/${name}`,
      record: JSON.parse(readFileSync(path.join(hostileDir, name), 'utf8')) as GarmentRecord,
    })),
];
const tee = samples.find(({ record }) => record.slug === 'ridgeline-rk6210-heavyweight-tee' && record.projection === 'svc')!.record;
/** The commerce sample without its data collections: quicker to parse where only text matters. */
const slimTee = (() => {
  const copy = copyOf(tee);
  const data = copy.data as unknown as Record<string, unknown>;
  for (const key of Object.keys(data)) if (Array.isArray(data[key])) data[key] = [];
  return copy;
})();

const parsedSamples = new Map<GarmentRecord, ReturnType<typeof twin>>();
/** A sample's twin, parsed once for all the tests that read it (parsing is the slow part). */
function sampleTwin(record: GarmentRecord) {
  if (!parsedSamples.has(record)) parsedSamples.set(record, twin(record));
  return parsedSamples.get(record)!;
}

function twin(record: GarmentRecord) {
  const links = linksFor(record, SITE, true);
  const markdown = recordMarkdown(pageView(record, { otherProjectionExists: links.other_projection !== null }), links).join('');
  return { markdown, links, ...parseTwin(markdown) };
}

/** The text of every block-level container a text block can end up in. */
function blockTexts(tree: ReturnType<typeof parseMarkdown>): string[] {
  return [...nodesOf(tree, 'paragraph'), ...nodesOf(tree, 'heading')].map(textOf);
}

/** Counts of the block constructs that record text must never create. */
function structure(tree: ReturnType<typeof parseMarkdown>) {
  return Object.fromEntries(
    (
      ['heading', 'table', 'list', 'listItem', 'blockquote', 'code', 'html', 'thematicBreak', 'definition', 'footnoteDefinition'] as const
    ).map((type) => [type, nodesOf(tree, type).length]),
  );
}

const HOSTILE = [
  '# Not a heading',
  '---',
  'front: matter',
  '---',
  '> not a quote',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '[^c1]: not a footnote definition',
  '[ref]: https://evil.example/ "not a definition"',
  '- not a list',
  '* not a list either',
  '+ nor this',
  '1. not ordered',
  '2) nor this',
  '<script>alert("x")</script>',
  '<div onclick="x()">raw html</div>',
  '<!-- not a comment -->',
  '```',
  'not code',
  '```',
  '~~~',
  '    not indented code',
  '===',
  '* * *',
  ':-- | --:',
  'text with [a link](javascript:alert(1)) and ![an image](https://x.example/i.png) and <https://ok.example/>',
  'and `code | with <b>` and **bold** and a trailing hash #',
].join('\n');

describe('recordMarkdown', () => {
  it.each(samples.map(({ file, record }) => [file, record] as const))(
    '%s: every text block appears as the page shows it',
    (_file, record) => {
      const { tree } = sampleTwin(record);
      const texts = blockTexts(tree);
      for (const { pointer, block } of readingOrder(record)) {
        const expected = pageText(block.text);
        expect(
          texts.some((text) => text.includes(expected)),
          `${pointer}: ${expected}`,
        ).toBe(true);
      }
    },
  );

  it.each(samples.map(({ file, record }) => [file, record] as const))(
    '%s: every claim has a referenced footnote naming it',
    (_file, record) => {
      const { tree } = sampleTwin(record);
      const labels = footnoteLabels(record.claims.map((c) => c.id));
      const definitions = new Map(nodesOf(tree, 'footnoteDefinition').map((d) => [d.identifier, d]));
      const referenced = new Set(nodesOf(tree, 'footnoteReference').map((r) => r.identifier));
      for (const claim of record.claims) {
        const label = labels.get(claim.id)!.toLowerCase();
        expect(definitions.has(label), claim.id).toBe(true);
        expect(referenced.has(label), claim.id).toBe(true);
        expect(textOf(definitions.get(label)!)).toContain(claim.id);
      }
      expect(definitions.size).toBe(record.claims.length);
    },
  );

  it.each(samples.map(({ file, record }) => [file, record] as const))(
    '%s: holds no raw HTML and links only to http(s) or mailto',
    (_file, record) => {
      const { tree } = sampleTwin(record);
      expect(nodesOf(tree, 'html')).toEqual([]);
      for (const node of [...nodesOf(tree, 'link'), ...nodesOf(tree, 'image')]) expect(node.url).toMatch(/^(https?:|mailto:)/);
      expect(nodesOf(tree, 'image')).toEqual([]);
    },
  );

  it.each(samples.map(({ file, record }) => [file, record] as const))(
    '%s: says the call to action as the page does, or nothing',
    (_file, record) => {
      // Said once, among the key facts, as the page's key facts say it.
      const paragraphs = nodesOf(sampleTwin(record).tree, 'paragraph').map(textOf);
      const said = paragraphs.filter((text) => text.startsWith('Next step: '));
      const url = record.catalog?.launch_url;
      if (record.projection === 'tech' && !record.page.cta_label && !url) expect(said).toEqual([]);
      else expect(said).toEqual([`Next step: ${record.page.cta_label ?? (url ? 'Go to the product' : 'Not stated')}`]);
    },
  );

  it('says each text block’s kind first, as the page does, and cites a claim once however often the block names it', () => {
    const record = copyOf(slimTee);
    const blocks = readingOrder(record).filter(({ part }) => part !== 'title');
    blocks.forEach(({ block }, n) =>
      Object.assign(block, { text: `Block ${n}.`, kind: (['fact', 'interpretation', 'generic_navigation'] as const)[n % 3] }),
    );
    const { block: first } = blocks[0]!;
    first.claim_ids = [record.claims[0]!.id, record.claims[0]!.id];
    const { tree } = twin(record);
    const paragraphs = nodesOf(tree, 'paragraph').map(textOf);
    blocks.forEach(({ pointer }, n) => {
      const kind = ['Fact', 'Interpretation', 'Navigation'][n % 3];
      expect(
        paragraphs.some((text) => text.startsWith(`${kind}: Block ${n}.`)),
        pointer,
      ).toBe(true);
    });
    const firstParagraph = nodesOf(tree, 'paragraph').find((paragraph) => textOf(paragraph).startsWith('Fact: Block 0.'))!;
    expect(nodesOf(firstParagraph, 'footnoteReference')).toHaveLength(1);
  });

  it('says, as the page does, that prices are observations and a missing asset proves nothing', () => {
    const quotes = nodesOf(twin(copyOf(slimTee)).tree, 'blockquote').map(textOf);
    expect(quotes).toEqual([
      'Research snapshots: prices are timestamped observations, not quotes. The absence of an asset does not prove that none exists.',
    ]);
  });

  it('puts schema_version, slug, projection, revision, published_at, research status and links in YAML front matter', () => {
    const { frontMatter, links } = twin(slimTee);
    expect(frontMatter).toMatchObject({
      schema_version: 'garment-access/2.4.0',
      slug: tee.slug,
      projection: tee.projection,
      record_revision: tee.record_revision,
      published_at: tee.published_at,
      research_status: tee.research.status,
    });
    expect(frontMatter.links).toEqual(links);
  });

  it('keeps every section heading in the specification order, one h1 and no skipped levels', () => {
    const { tree } = twin(slimTee);
    const headings = nodesOf(tree, 'heading');
    expect(headings.filter((h) => h.depth === 1)).toHaveLength(1);
    expect(headings[0]!.depth).toBe(1);
    headings.slice(1).forEach((heading, i) => expect(heading.depth).toBeLessThanOrEqual(headings[i]!.depth + 1));
    const h2 = headings.filter((h) => h.depth === 2).map(textOf);
    expect(h2[0]).toBe('Key facts');
    expect(h2.slice(1, 12)).toEqual([
      'Overview',
      'When it fits',
      'Fit and sizing',
      'Fabric and colors',
      'Decoration',
      'Standard pricing',
      'Customer evidence',
      'Trade-offs',
      'Alternatives',
      'Sample before launch',
      'Technical handoff',
    ]);
  });

  it('cannot be broken by hostile text in any text block', () => {
    const benign = copyOf(slimTee);
    const hostile = copyOf(slimTee);
    const everyBlock = (record: GarmentRecord, text: string) => {
      for (const { block } of readingOrder(record)) (block as TextBlock).text = text;
      for (const entry of record.page.faq) entry.question = text;
    };
    everyBlock(benign, 'Plain words.');
    everyBlock(hostile, HOSTILE);

    const clean = twin(benign);
    const attacked = twin(hostile);
    expect(structure(attacked.tree)).toEqual(structure(clean.tree));
    expect(nodesOf(attacked.tree, 'html')).toEqual([]);
    expect(attacked.frontMatter.links).toEqual(attacked.links);
    for (const link of nodesOf(attacked.tree, 'link')) expect(link.url).toMatch(/^(https?:|mailto:)/);

    const expected = pageText(HOSTILE);
    const paragraphs = nodesOf(attacked.tree, 'paragraph')
      .map(textOf)
      .map((text) => text.replace(/^(Fact|Interpretation|Navigation): /, ''));
    expect(paragraphs.filter((text) => text === expected).length).toBeGreaterThanOrEqual(readingOrder(hostile).length - 1);
    // The title is a heading; its claim references follow the text.
    expect(textOf(nodesOf(attacked.tree, 'heading')[0]!)).toBe(expected);
    // FAQ questions are plain data, shown exactly.
    const questions = nodesOf(attacked.tree, 'heading')
      .filter((h) => h.depth === 3)
      .map(textOf);
    expect(questions.filter((q) => q === HOSTILE.replace(/\s+/g, ' '))).toHaveLength(hostile.page.faq.length);
  });

  it('keeps data that looks like a block at the start of a line as text: the limitations, a source title in a footnote', () => {
    const shaped = (text: string) => {
      const record = copyOf(slimTee);
      record.selection_summary.limitations = text;
      const cited = record.claims.find((claim) => claim.references.length > 0)!;
      const source = record.sources.find((s) => s.id === cited.references[0]!.source_id)!;
      Object.assign(source, { title: text, url: null });
      return twin(record);
    };
    const plain = shaped('item');
    for (const text of ['- item', '+ item', '> item', '1. item', '1) item', '---', '# item']) {
      const attacked = shaped(text);
      expect(structure(attacked.tree), text).toEqual(structure(plain.tree));
    }
  });

  it('closes the bidirectional formatting a text block leaves open, so its claim references stay in order', () => {
    const record = copyOf(slimTee);
    record.page.summary = { ...record.page.summary!, text: '\u202Eabc' };
    const { markdown } = twin(record);
    const line = markdown.split('\n').find((l) => l.includes('\u202Eabc'))!;
    expect(line).toMatch(/\u202Eabc\u202C/);
  });

  it('quotes front matter strings, so YAML 1.1 readers see no booleans or dates', () => {
    const record = copyOf(slimTee);
    record.slug = 'no';
    const { markdown } = twin(record);
    const yaml11 = parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(markdown)![1]!, { version: '1.1' }) as Record<string, unknown>;
    expect(yaml11.slug).toBe('no');
    expect(yaml11.published_at).toBe(record.published_at);
  });

  it('keeps a title with YAML syntax inside the front matter', () => {
    const record = copyOf(slimTee);
    record.page.title!.text = 'Tee\n---\nslug: evil\n...\n"quoted": [x]';
    const { frontMatter } = twin(record);
    expect(frontMatter.slug).toBe(tee.slug);
    expect(frontMatter.title).toBe(plainText(record.page.title!.text));
  });

  it('escapes pipes and line breaks in table cells', () => {
    const record = copyOf(slimTee);
    record.gaps = [{ ...record.gaps[0]!, priority: 'blocking', impact: 'a | b\nc || d', next_action: '`x | y`' }];
    const { tree } = twin(record);
    const gapTable = nodesOf(tree, 'table').find((table) => textOf(table.children[0]!).startsWith('About'))!;
    const row = gapTable.children[1]!;
    expect(row.children).toHaveLength(5);
    expect(textOf(row.children[2]!)).toBe('a | b c || d');
    expect(textOf(row.children[3]!)).toBe('`x | y`');
  });

  it('makes site-relative links in text absolute from the page address', () => {
    const record = copyOf(slimTee);
    record.page.sections.overview = [
      {
        text: 'See the [tech page](/garments/x/tech/) and [that part](#claims).',
        claim_ids: [],
        kind: 'generic_navigation',
      } as unknown as TextBlock,
    ];
    const { tree } = twin(record);
    const urls = nodesOf(tree, 'link').map((link) => link.url);
    expect(urls).toContain('https://garments.example.org/garments/x/tech/');
    expect(urls).toContain(`https://garments.example.org/garments/${tee.slug}/${tee.projection}/#claims`);
  });
});

describe('recordMarkdown in pieces', () => {
  it('keeps a table of 1,500 rows in pieces, every row in the one table', () => {
    const record = copyOf(sampleRecords()[0]!.record);
    const variant = record.data.variants[0]!;
    record.data.variants = Array.from({ length: 1500 }, (_, i) => ({ ...variant, id: `var-${i}` }));
    const pieces = recordMarkdown(pageView(record, { otherProjectionExists: true }), linksFor(record, SITE, true));
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(2 ** 16);
    const tables = nodesOf(parseTwin(pieces.join('')).tree, 'table').filter((table) => textOf(table).includes('var-0'));
    expect(tables).toHaveLength(1);
    // The header row, then a row per variant.
    expect(tables[0]!.children).toHaveLength(1501);
    expect(tables[0]!.children.slice(1).map((row) => textOf(row.children[0]!))).toEqual(record.data.variants.map((v) => v.id));
  });
});

describe('frontMatterYaml', () => {
  // YAML 1.2's printable characters (c-printable), less what YAML 1.1 reads as a line break (NEL, LS, PS).
  const NOT_PRINTABLE = /[^\t\n\r\x20-\x7E\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]|[\u2028\u2029]/u;

  it.each([
    ['plain text', 'Heavyweight tee'],
    ['a YAML 1.1 boolean', 'no'],
    ['a date', '2026-11-21T00:00:00Z'],
    ['a document marker', '--- ...'],
    ['quotes and a backslash', 'a "quoted" \\ path'],
    ['a line break', 'one\ntwo'],
    ['a space before a line break', 'one \n two'],
    ['control characters', 'bell\u0007 null\u0000 escape\u001b form feed\f'],
    ['DEL and C1 controls', 'del\u007f csi\u009b'],
    ['line and paragraph separators', 'a\u2028b\u2029c'],
    ['a no-break space and NEL', 'a\u00a0b\u0085c'],
    ['noncharacters', 'a\ufffeb\uffffc'],
    ['non-ASCII text', 'Café ‘quoted’ – 🧵'],
    ['YAML syntax', '{a: [1, 2]} # not a comment & *alias !tag'],
    ['an empty string', ''],
    ['a very long line', 'word '.repeat(100)],
  ])('writes %s as a double-quoted string that YAML 1.2 and 1.1 read back, in printable characters only', (_, value) => {
    const fields = { slug: 'tee', title: value, links: { page: value, other_projection: null } };
    const yaml = frontMatterYaml(fields);
    expect(yaml).not.toMatch(NOT_PRINTABLE);
    expect(yaml.split('\n')).toHaveLength(6);
    expect(parseYaml(yaml)).toEqual(fields);
    expect(parseYaml(yaml, { version: '1.1' })).toEqual(fields);
  });

  it('writes every string double-quoted and empty nested fields as an empty map', () => {
    expect(frontMatterYaml({ slug: 'no', published_at: '2026-11-21', links: {} })).toBe(
      'slug: "no"\npublished_at: "2026-11-21"\nlinks: {}\n',
    );
  });
});

describe('code in the data', () => {
  it('keeps backticks, pipes and surrounding spaces of code values exactly', () => {
    const record = copyOf(slimTee);
    const data = record.data as unknown as Record<string, Record<string, unknown>[]>;
    // gtin is shown as code; one variant per tricky value.
    const values = ['`tick`', ' spaced ', 'a | b', '``x`'];
    data.variants = values.map((gtin, i) => ({ ...tee.data.variants[0]!, id: `v-${i}`, gtin }));
    const { tree } = twin(record);
    const inlineCode = nodesOf(tree, 'inlineCode').map((node) => node.value);
    for (const value of values) expect(inlineCode).toContain(value);
  });

  it('keeps a pipe inside code from splitting a table cell', () => {
    const record = copyOf(slimTee);
    const data = record.data as unknown as Record<string, Record<string, unknown>[]>;
    const blank = Object.fromEntries(Object.keys(tee.data.variants[0]!).map((key) => [key, null]));
    // With few fields a collection is a table.
    data.variants = [{ ...blank, id: 'v-1', gtin: 'a | b', size_label: 'M' }];
    const { tree } = twin(record);
    const variants = nodesOf(tree, 'table').find((table) => textOf(table.children[0]!).includes('GTIN'))!;
    expect(variants.children[1]!.children).toHaveLength(variants.children[0]!.children.length);
    expect(nodesOf(variants, 'inlineCode').map((node) => node.value)).toContain('a | b');
  });
});

describe('footnoteLabels', () => {
  it('uses safe, case-insensitively unique ids as they are', () => {
    expect([...footnoteLabels(['c1', 'clm-weight.2']).values()]).toEqual(['c1', 'clm-weight.2']);
  });

  it('numbers ids that are unsafe or differ only in case, avoiding ids already taken', () => {
    expect([...footnoteLabels(['a b', 'C1', 'c1', 'claim-1', ']x']).entries()]).toEqual([
      ['a b', 'claim-1-1'],
      ['C1', 'claim-2'],
      ['c1', 'claim-3'],
      ['claim-1', 'claim-1'],
      [']x', 'claim-5'],
    ]);
  });
});
