/**
 * The number literals of a JSON object's top-level members, as written (`{"quota": 1.0}` →
 * `quota → "1.0"`). JSON.parse turns `1.0`, `1e3` and `4503599627370496.5` into integers; Go's
 * decoder refuses them for an integer field, and so do we, which needs the text.
 * Assumes `text` is valid JSON (call it after JSON.parse succeeded); anything else yields an
 * empty map. Linear in the text, no recursion.
 */
export function topLevelNumberLiterals(text: string): Map<string, string> {
  const found = new Map<string, string>();
  let i = 0;
  const n = text.length;
  const skipSpace = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i += 1;
  };
  /** Skips a string starting at text[i] === '"'; returns its raw text (quotes included). */
  const skipString = (): string => {
    const start = i;
    i += 1;
    while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i += 1;
    return text.slice(start, i);
  };
  /** Skips an object or array starting at text[i], strings inside included. */
  const skipNested = (): void => {
    let depth = 0;
    while (i < n) {
      const ch = text[i];
      if (ch === '"') {
        skipString();
        continue;
      }
      if (ch === '{' || ch === '[') depth += 1;
      else if (ch === '}' || ch === ']') depth -= 1;
      i += 1;
      if (depth === 0) return;
    }
  };
  skipSpace();
  if (text[i] !== '{') return found;
  i += 1;
  while (i < n) {
    skipSpace();
    if (text[i] !== '"') return found;
    let key: string;
    try {
      key = JSON.parse(skipString()) as string;
    } catch {
      return found;
    }
    skipSpace();
    if (text[i] !== ':') return found;
    i += 1;
    skipSpace();
    const ch = text[i];
    if (ch === '"' || ch === '{' || ch === '[') {
      if (ch === '"') skipString();
      else skipNested();
      found.delete(key);
    } else {
      const start = i;
      while (i < n && !',} \n\r\t'.includes(text[i]!)) i += 1;
      const literal = text.slice(start, i);
      if (/^-?\d/.test(literal)) found.set(key, literal);
      else found.delete(key);
    }
    skipSpace();
    if (text[i] !== ',') return found;
    i += 1;
  }
  return found;
}
