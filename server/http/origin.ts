/** Web origins as `TRUSTED_ORIGINS` and the cross-site guard (csrf.ts) compare them. */

/** `scheme://host[:port]` of an http(s) origin, lower-cased, default port dropped; null for `null` and anything else. */
export function normaliseOrigin(text: string): string | null {
  const trimmed = text.trim();
  if (!/^https?:\/\/[^/?#]+\/?$/i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed);
    if (url.username !== '' || url.password !== '') return null;
    return url.origin;
  } catch {
    return null;
  }
}
