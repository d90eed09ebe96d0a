// Reads the code examples of a built documentation page, so tests run them exactly as published.

/** Text of HTML with the entities Astro writes decoded. */
export function decodeHtml(text: string): string {
  return text.replace(
    /&(lt|gt|quot|#39|#x27|amp);/g,
    (_, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", amp: '&' })[name]!,
  );
}

/** The text of code examples on a docs page, by their data-example file name. */
export function examplesOf(html: string): Map<string, string> {
  return new Map([...html.matchAll(/<code data-example="([^"]+)"[^>]*>([\s\S]*?)<\/code>/g)].map((m) => [m[1]!, decodeHtml(m[2]!)]));
}
