import { Marked, Renderer, type Tokens } from 'marked';
import { sanitizeHtml } from './sanitize';

/*
 * Admin-written rich text (Notice, About, HomePageContent as Markdown; the Footer option as
 * HTML, contract §5.4). The server stores it raw; the console renders Markdown with marked and
 * always passes the HTML through DOMPurify (./sanitize) before it reaches the page.
 */

/** One private instance, so nothing else's marked options change what this renders. */
const markdown = new Marked({ gfm: true, breaks: false, async: false });

/** The class of the box around each Markdown table: it scrolls sideways on narrow screens (and takes focus, so keyboards can scroll it). */
export const tableScrollClass = 'md-table-scroll';
markdown.use({
  renderer: {
    table(this: Renderer, token: Tokens.Table): string {
      return `<div class="${tableScrollClass}" tabindex="0">${Renderer.prototype.table.call(this, token)}</div>\n`;
    },
  },
});

/** Markdown to HTML (not yet sanitised: pass the result to `sanitizeHtml`). */
export function renderMarkdown(text: string): string {
  return markdown.parse(text, { async: false });
}

/** Markdown to HTML safe to inject. */
export const renderSafeMarkdown = (text: string): string => sanitizeHtml(renderMarkdown(text));

export { sanitizeHtml };
