import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { parse as parseYaml } from 'yaml';
import { renderInline } from '../../src/lib/site/text.ts';

/** A Markdown twin split into its YAML front matter (parsed) and its body parsed as CommonMark + GFM. */
export function parseTwin(markdown: string): { frontMatter: Record<string, unknown>; tree: Root } {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(markdown);
  if (!match) throw new Error('no front matter at the start of the document');
  return { frontMatter: parseYaml(match[1]!) as Record<string, unknown>, tree: parseMarkdown(match[2]!) };
}

/** Markdown parsed as CommonMark with the GFM extensions (tables, footnotes, strikethrough, autolinks). */
export function parseMarkdown(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** Markdown as micromark renders it to HTML with the GFM extensions (its autolinks come from the syntax alone). */
export function markdownHtml(markdown: string): string {
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

/** Every node of a type in a tree, in document order. */
export function nodesOf<T extends Nodes['type']>(tree: Nodes, type: T): Extract<Nodes, { type: T }>[] {
  const found: Nodes[] = [];
  const walk = (node: Nodes) => {
    if (node.type === type) found.push(node);
    if ('children' in node) for (const child of node.children) walk(child as Nodes);
  };
  walk(tree);
  return found as Extract<Nodes, { type: T }>[];
}

/** The text of a node as a reader sees it, whitespace collapsed. */
export function textOf(node: Nodes): string {
  return collapse(toString(node));
}

/** What the record page shows for a text block: the safe renderer's output without tags, entities decoded. */
export function pageText(text: string): string {
  const decoded = renderInline(text)
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|quot|#39|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name]!);
  return collapse(decoded);
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
