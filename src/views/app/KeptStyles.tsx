import { memo, useInsertionEffect } from 'react';
import { __unsafe_useEmotionCache as useEmotionCache, css as serialize } from '@emotion/react';
import { useChakraContext, type SystemStyleObject } from '@chakra-ui/react';

type EmotionCache = NonNullable<ReturnType<typeof useEmotionCache>>;
type Sheet = EmotionCache['sheet'];

/** A class's sheet as written: the styles it was written from, in which emotion cache. */
interface Written {
  readonly sheet: Sheet;
  readonly cache: EmotionCache;
  source: SystemStyleObject;
}

/** Every scoped sheet written so far, by class name: written once, kept while the page lives. */
const written = new Map<string, Written>();

/**
 * Writes `.className`'s rules into its sheet, unless that sheet already holds them: a new sheet is
 * placed where emotion places a `Global`'s (before the sheet of the components' own styles, so
 * that their rules keep the last word in a tie, as before), a sheet written from other styles is
 * emptied and written again.
 */
function writeScoped(cache: EmotionCache, className: string, styles: SystemStyleObject, resolve: (styles: SystemStyleObject) => SystemStyleObject) {
  const was = written.get(className);
  if (was !== undefined && was.cache === cache && was.source === styles) return;
  const serialized = serialize({ [`.${className}`]: resolve(styles) } as Parameters<typeof serialize>[0]);
  let entry = was?.cache === cache ? was : undefined;
  if (entry === undefined) {
    was?.sheet.flush();
    const sheet = new (cache.sheet.constructor as new (options: object) => Sheet)({
      key: `${cache.key}-scoped`,
      nonce: cache.sheet.nonce,
      container: cache.sheet.container,
      speedy: cache.sheet.isSpeedy,
    });
    if (cache.sheet.tags.length > 0) sheet.before = cache.sheet.tags[0] ?? null;
    entry = { sheet, cache, source: styles };
    written.set(className, entry);
  } else {
    // written before from other styles: the same place, the new rules
    const last = entry.sheet.tags[entry.sheet.tags.length - 1];
    if (last !== undefined) entry.sheet.before = last.nextElementSibling;
    entry.sheet.flush();
    entry.source = styles;
  }
  // keyframes declared by the styles, as emotion's components insert theirs (once per cache)
  for (let next = serialized.next; next !== undefined; next = next.next) {
    if (cache.inserted[next.name] === undefined) cache.insert('', next, cache.sheet, true);
  }
  cache.insert('', serialized, entry.sheet, false);
}

/**
 * Writes `styles` (resolved by the Chakra system: tokens, conditions, colour palettes) once, as a
 * sheet under `.className`, for parts mounted again and again (a table's rows and cells): unlike
 * `ScopedStyles` (a component mounted once, the shell's), the sheet outlives the component. A page
 * shown again (a list opened again, a table's body mounted again) finds its rules written and
 * neither resolves, serializes nor inserts them again (nor does Chromium rebuild its rule sets for
 * a new sheet), when its `styles` keep their identity (`useSystemMemo`); other styles for the
 * class replace its rules. The rules only match elements of that class, so a sheet with no such
 * element in the page does nothing. Kept out of the shell's module: /login's first load does not
 * carry it.
 */
export const KeptStyles = memo(function KeptStyles({
  className,
  styles,
  resolved = false,
}: {
  readonly className: string;
  readonly styles: SystemStyleObject;
  /** `styles` are the system's `css()` output already: written as they are. */
  readonly resolved?: boolean;
}) {
  const cache = useEmotionCache();
  const { css } = useChakraContext();
  useInsertionEffect(() => {
    // no cache: no document (emotion's own components insert nothing then either)
    if (cache !== null) writeScoped(cache, className, styles, resolved ? asResolved : css);
  }, [cache, className, styles, css, resolved]);
  return null;
});

const asResolved = (styles: SystemStyleObject): SystemStyleObject => styles;

const perSystem = new WeakMap<object, Map<string, unknown>>();

/**
 * A value worked out from the Chakra system once per system and `key` (the same object on every
 * mount): the styles of a `KeptStyles` keep their identity, and their sheet is not written again.
 */
export function useSystemMemo<T>(key: string, compute: (system: ReturnType<typeof useChakraContext>) => T): T {
  const system = useChakraContext();
  let values = perSystem.get(system);
  if (values === undefined) {
    values = new Map();
    perSystem.set(system, values);
  }
  if (!values.has(key)) values.set(key, compute(system));
  return values.get(key) as T;
}
