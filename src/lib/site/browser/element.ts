// The elements the site's scripts build: text goes in as text, never as markup.
import { withoutForbiddenCharacters } from '../../unicode.ts';

/**
 * An element with a class and text, when given. Text shows as the pages show record text: a
 * character HTML forbids (a control character, a noncharacter) as U+FFFD, not as a box or nothing.
 */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text?: string): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = withoutForbiddenCharacters(text);
  return made;
}
