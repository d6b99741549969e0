import createDOMPurify, { type DOMPurify } from 'dompurify';

/*
 * Admin-written HTML (the Footer option, and Markdown rendered by ./markdown) always passes
 * through DOMPurify before it reaches the page. Kept apart from marked so the footer does not
 * pull the Markdown renderer in.
 */

let purifier: DOMPurify | null = null;

/** A DOMPurify instance of its own (hooks stay local); null where there is no DOM. */
function getPurifier(): DOMPurify | null {
  if (purifier !== null) return purifier;
  if (typeof window === 'undefined') return null;
  const instance = createDOMPurify(window);
  if (!instance.isSupported) return null;
  // Links that open a new tab get no handle on this window.
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('target') === '_blank') {
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  purifier = instance;
  return instance;
}

/**
 * HTML safe to inject: scripts, event handlers, `javascript:` URLs, forms and frames removed;
 * links may keep `target`. Without a DOM (never the case in the browser) nothing is trusted
 * and the result is ''.
 */
export function sanitizeHtml(html: string): string {
  const p = getPurifier();
  if (p === null) return '';
  return p.sanitize(html, {
    USE_PROFILES: { html: true },
    ADD_ATTR: ['target'],
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
  });
}

