/**
 * Both catalogues, every area, loaded synchronously: for tests, stories and the server, which
 * render either language at once. The console itself never imports this module (it loads the
 * active language's shell area, then each page's area with the page).
 */
import { registerCatalogue, type Catalogue, type Lang } from '.';
import { en } from './en';
import { zh } from './zh';

export const catalogues: Readonly<Record<Lang, Catalogue>> = { zh, en };

/** Registers both catalogues, so `translate`/`renderMessage` work in either language at once. */
export function preloadAllCatalogues(): void {
  registerCatalogue('zh', zh);
  registerCatalogue('en', en);
}

preloadAllCatalogues();
