import { createHash } from 'node:crypto';

/** The site's stylesheet as published: its path (named by its content, so browsers may cache it for good) and its text. */
export interface Stylesheet {
  path: string;
  text: string;
}

/**
 * The published form of the site's CSS, shared by Astro's pages and the record pages built
 * beside them: comments dropped and whitespace collapsed (the CSS holds no string that a
 * collapsed space would change), named `/styles/site.<hash>.css`.
 */
export function stylesheetOf(css: string): Stylesheet {
  const text = css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?([{};]) ?/g, '$1')
    .trim();
  return { path: `/styles/site.${createHash('sha256').update(text).digest('hex').slice(0, 10)}.css`, text };
}
