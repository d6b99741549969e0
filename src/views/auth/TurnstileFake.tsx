/* Stories only: never imported by the app. */

/**
 * A stand-in for Cloudflare's `window.turnstile` (the real script is never loaded in stories):
 * `render` puts a button into the box that "solves" the challenge with a fixed token.
 */
export function installFakeTurnstile(token = 'fake-turnstile-token'): () => void {
  const host = window as { turnstile?: unknown };
  const previous = host.turnstile;
  const boxes = new Map<string, HTMLElement>();
  let next = 0;
  host.turnstile = {
    render(box: HTMLElement, options: { callback: (t: string) => void }) {
      const id = `fake-${++next}`;
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Verify you are human';
      button.addEventListener('click', () => {
        button.textContent = 'Success!';
        options.callback(token);
      });
      box.appendChild(button);
      boxes.set(id, box);
      return id;
    },
    remove(id: string) {
      boxes.get(id)?.replaceChildren();
      boxes.delete(id);
    },
  };
  return () => {
    host.turnstile = previous;
  };
}
