import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/records.ts';

/**
 * The layers of `src/`, top first: a module may import its own layer and those below it, never one
 * above. A path names a folder (ending in `/`) or a file; the longest that holds a module places it.
 */
const LAYERS: { name: string; paths: string[] }[] = [
  {
    name: 'entry points and markup',
    paths: ['src/cli/', 'src/pages/', 'src/layouts/', 'src/components/', 'src/site.ts', 'src/site-context.d.ts'],
  },
  { name: 'composition roots and tools', paths: ['src/lib/service/', 'src/lib/bench/', 'src/lib/dev/'] },
  {
    name: 'the service and its documentation',
    paths: ['src/lib/publish/', 'src/lib/mcp/', 'src/lib/openapi/', 'src/lib/docs/', 'src/lib/dashboard/'],
  },
  { name: 'the build pipeline', paths: ['src/lib/pipeline/'] },
  {
    name: 'pages, search, revisions, serving and webhooks',
    paths: ['src/lib/site/', 'src/lib/revisions/', 'src/lib/search/', 'src/lib/serve/', 'src/lib/webhooks/'],
  },
  { name: 'databases', paths: ['src/lib/database/'] },
  { name: 'records', paths: ['src/lib/record/', 'src/schema/'] },
  { name: 'shared basics', paths: ['src/lib/'] },
];

/** The renderers above the page view: nothing the view is made from may reach one (README, "How it is built"). */
const PAGE_RENDERERS = ['record-page.ts', 'record-parts.ts', 'markdown.ts', 'markdown-parts.ts', 'garment-page.ts', 'page-frame.ts'].map(
  (name) => `src/lib/site/${name}`,
);

/** A module's layer (its index in LAYERS), or undefined outside `src/`. */
function layerOf(file: string): number | undefined {
  let found: { layer: number; length: number } | undefined;
  LAYERS.forEach(({ paths }, layer) => {
    for (const place of paths) {
      const holds = place.endsWith('/')
        ? file.startsWith(place) && (place !== 'src/lib/' || !file.slice(place.length).includes('/'))
        : file === place;
      if (holds && place.length > (found?.length ?? -1)) found = { layer, length: place.length };
    }
  });
  return found?.layer;
}

const specifiersRead = new Map<string, string[]>();

/** Every module specifier a file names: imports, re-exports, `import()` (types too) and workers. */
function specifiersOf(file: string): string[] {
  const known = specifiersRead.get(file);
  if (known) return known;
  const source = ts.createSourceFile(file, readFileSync(path.join(projectRoot, file), 'utf8'), ts.ScriptTarget.Latest);
  const named: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      named.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0]!))
      named.push(node.arguments[0].text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      named.push(node.argument.literal.text);
    else if (ts.isNewExpression(node) && node.expression.getText(source) === 'Worker') {
      const url = node.arguments?.[0];
      if (url && ts.isNewExpression(url) && url.arguments?.[0] && ts.isStringLiteral(url.arguments[0])) named.push(url.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  specifiersRead.set(file, named);
  return named;
}

/** The project's modules a file imports, as paths relative to the project. */
function importsOf(file: string): string[] {
  return specifiersOf(file)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) =>
      path
        .relative(projectRoot, path.resolve(projectRoot, path.dirname(file), specifier))
        .split(path.sep)
        .join('/'),
    );
}

/** The packages a file imports (Node's own, `node:…`, among them). */
function packagesOf(file: string): string[] {
  return specifiersOf(file).filter((specifier) => !specifier.startsWith('.'));
}

/** Every TypeScript and JavaScript module in `src/`, relative to the project. */
function sourceModules(): string[] {
  return readdirSync(path.join(projectRoot, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|mts|js|mjs)$/.test(name))
    .map((name) => `src/${name.split(path.sep).join('/')}`);
}

/** The imports among `edges` that run up the layers, in words. */
function upwardImports(edges: [from: string, to: string][]): string[] {
  return edges.flatMap(([from, to]) => {
    const [fromLayer, toLayer] = [layerOf(from), layerOf(to)];
    return fromLayer !== undefined && toLayer !== undefined && toLayer < fromLayer
      ? [`${from} (${LAYERS[fromLayer]!.name}) imports ${to} (${LAYERS[toLayer]!.name})`]
      : [];
  });
}

/** The modules `start` reaches through its imports. */
function reachedFrom(start: string): Set<string> {
  const reached = new Set<string>();
  const waiting = [start];
  while (waiting.length > 0) {
    const file = waiting.pop()!;
    if (reached.has(file) || !/\.(ts|js|mjs)$/.test(file)) continue;
    reached.add(file);
    waiting.push(...importsOf(file));
  }
  return reached;
}

/** The modules the modules of a folder reach, themselves included. */
function reachedFromFolder(folder: string): Set<string> {
  return new Set(sourceModules().flatMap((file) => (file.startsWith(folder) ? [...reachedFrom(file)] : [])));
}

/** Code that runs in the browser, and the search query it shares with the MCP tool, which runs anywhere. */
const BROWSER_CODE = ['src/lib/search/browser/', 'src/lib/search/query/', 'src/lib/site/browser/', 'src/lib/dashboard/browser/'];

/**
 * What the modules of a folder reach that a page's script must not: any package (Node's own among
 * them; the site's scripts are its own, issue 35) and the search index's building code.
 */
function notForTheBrowser(folder: string): string[] {
  return [...reachedFromFolder(folder)].flatMap((file) => [
    ...packagesOf(file).map((name) => `${file} imports ${name}`),
    ...(file.startsWith('src/lib/search/index/') ? [`${file} is index building code`] : []),
  ]);
}

describe('import layers of src/', () => {
  it('places every module of src/lib in a layer', () => {
    expect(sourceModules().filter((file) => file.startsWith('src/lib/') && layerOf(file) === undefined)).toEqual([]);
  });

  it('has no import running back up the layers', () => {
    const edges = sourceModules().flatMap((file) => importsOf(file).map((to): [string, string] => [file, to]));
    expect(edges.length).toBeGreaterThan(500);
    expect(upwardImports(edges)).toEqual([]);
  });

  it('names an import that runs up, and lets one run down or stay in its layer', () => {
    expect(
      upwardImports([
        ['src/lib/record/load.ts', 'src/lib/site/urls.ts'],
        ['src/lib/errors.ts', 'src/cli/build.ts'],
        ['src/lib/site/urls.ts', 'src/lib/record/load.ts'],
        ['src/lib/site/urls.ts', 'src/lib/search/query/search-keys.ts'],
        ['src/cli/build.ts', 'src/lib/errors.ts'],
      ]),
    ).toEqual([
      'src/lib/record/load.ts (records) imports src/lib/site/urls.ts (pages, search, revisions, serving and webhooks)',
      'src/lib/errors.ts (shared basics) imports src/cli/build.ts (entry points and markup)',
    ]);
  });

  it('keeps the page view free of the renderers above it', () => {
    const reached = reachedFrom('src/lib/site/page-view.ts');
    expect(reached.has('src/lib/site/page-parts.ts')).toBe(true);
    expect(PAGE_RENDERERS.filter((renderer) => reached.has(renderer))).toEqual([]);
  });
});

describe('browser code (STYLE 14)', () => {
  it.each(BROWSER_CODE)('keeps %s and what it reaches free of packages and of index building', (folder) => {
    expect(sourceModules().filter((file) => file.startsWith(folder)).length).toBeGreaterThan(0);
    expect(notForTheBrowser(folder)).toEqual([]);
  });

  it.each([
    ['src/lib/search/browser/', 'src/lib/search/query/search-messages.ts'],
    ['src/lib/site/browser/', 'src/lib/site/comparison.ts'],
  ])('keeps %s from the strings module, whose words the page gives it as data', (folder, shared) => {
    const reached = reachedFromFolder(folder);
    expect(reached.has(shared)).toBe(true);
    expect(reached.has('src/lib/site/strings.ts')).toBe(false);
  });

  it('names a package or index building code wherever a folder reaches one', () => {
    expect(notForTheBrowser('src/lib/search/index/')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/index-site\.ts imports node:crypto$/),
        expect.stringMatching(/^src\/lib\/search\/index\/index-site\.ts is index building code$/),
      ]),
    );
  });
});
