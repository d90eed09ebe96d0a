import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../support/records.ts';

const SEARCH = path.join(projectRoot, 'src/lib/search');

/** Every module a file names: static and dynamic imports, re-exports and workers started from a URL. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const named =
    /(?:^|\s)(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]|new URL\(\s*['"]([^'"]+)['"]/gm;
  return [...text.matchAll(named)].map((match) => match[1] ?? match[2] ?? match[3] ?? match[4]!);
}

/** The files a runtime's folder reaches, following its relative imports wherever they lead, with the packages each names. */
function reached(folder: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const waiting = readdirSync(folder).map((name) => path.join(folder, name));
  while (waiting.length > 0) {
    const file = waiting.pop()!;
    if (packages.has(file)) continue;
    const named = importsOf(file);
    packages.set(
      file,
      named.filter((name) => !name.startsWith('.')),
    );
    for (const name of named) if (name.startsWith('.') && name.endsWith('.ts')) waiting.push(path.resolve(path.dirname(file), name));
  }
  return packages;
}

/** What a runtime's folder must not reach: Node's own modules, Pagefind's Node API, and the index builder. */
function forbidden(folder: string): string[] {
  const found: string[] = [];
  for (const [file, packages] of reached(folder)) {
    const where = path.relative(projectRoot, file);
    for (const name of packages) if (name.startsWith('node:') || name === 'pagefind') found.push(`${where} imports ${name}`);
    if (file.startsWith(path.join(SEARCH, 'index') + path.sep)) found.push(`${where} is index building code`);
  }
  return found;
}

describe('search modules by runtime', () => {
  it('keeps the browser script and the modules it reaches free of Node modules and of index building', () => {
    expect(reached(path.join(SEARCH, 'browser')).size).toBeGreaterThan(4);
    expect(forbidden(path.join(SEARCH, 'browser'))).toEqual([]);
  });

  it('keeps the query the browser and the MCP tool share free of Node modules and of index building', () => {
    expect(forbidden(path.join(SEARCH, 'query'))).toEqual([]);
  });

  it('finds a Node module or the index builder wherever a file reaches one', () => {
    expect(forbidden(path.join(SEARCH, 'index'))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/index-site\.ts imports node:crypto$/),
        expect.stringMatching(/is index building code$/),
      ]),
    );
  });
});
