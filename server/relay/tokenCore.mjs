// @ts-check
/**
 * Token counting with a bounded, linear cost, shared by the main thread (tokenCount.ts) and the
 * counting threads (tokenCountWorker.mjs). Plain JavaScript so that a worker thread can load it
 * without a TypeScript loader (see settlementWorker.mjs).
 *
 * gpt-tokenizer splits text into pieces with the encoding's regular expression, then runs byte
 * pair encoding on each piece; the merge step is super-linear in the piece's length, so one piece
 * of 100,000 letters took seconds. Here a text longer than `maxPieceChars` is scanned for pieces
 * longer than that first: the runs of ordinary pieces between them are counted as they are (the
 * library's own count, exact), and each over-long piece is counted in slices of `maxPieceChars`.
 * Normal text (no piece above 128 characters: words, numbers, punctuation and whitespace runs)
 * is counted exactly as before; an over-long piece (a run of 129+ letters, spaces or symbols)
 * is counted within a few tokens of the library's count, at a cost linear in its length.
 */
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

/** Pieces longer than this (UTF-16 units) are counted in slices of this length. */
export const maxPieceChars = 128;

/**
 * The most UTF-8 bytes one token of cl100k_base or o200k_base stands for (a run of 128 spaces;
 * tests/server/relay-tokens.test.ts checks it against both vocabularies). So a text of B bytes
 * is at least ceil(B / 128) tokens, and at most B tokens (every byte is a token of its own).
 */
export const maxTokenBytes = 128;

/** Special tokens are plain text here (never a thrown "Disallowed special token"). */
const plainText = { disallowedSpecial: new Set() };

/** @param {string} s @param {number} end a slice end that does not split a surrogate pair */
const safeEnd = (s, end) => {
  if (end >= s.length) return s.length;
  const code = s.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
};

/**
 * The token count of `text` with cl100k_base, or o200k_base when `o200k`.
 * @param {string} text
 * @param {boolean} o200k
 * @returns {number}
 */
export function countBounded(text, o200k) {
  if (text === '') return 0;
  const count = o200k ? countO200k : countCl100k;
  if (text.length <= maxPieceChars) return count(text, plainText);
  const split = o200k ? O200K_TOKEN_SPLIT_REGEX : CL100K_TOKEN_SPLIT_REGEX;
  let total = 0;
  let runStart = 0;
  let longPieces = 0;
  for (const match of text.matchAll(split)) {
    const piece = match[0];
    if (piece.length <= maxPieceChars) continue;
    longPieces += 1;
    const start = match.index ?? 0;
    if (start > runStart) total += count(text.slice(runStart, start), plainText);
    for (let at = 0; at < piece.length; ) {
      const end = safeEnd(piece, at + maxPieceChars);
      total += count(piece.slice(at, end), plainText);
      at = end;
    }
    runStart = start + piece.length;
  }
  if (longPieces === 0) return count(text, plainText);
  if (runStart < text.length) total += count(text.slice(runStart), plainText);
  return total;
}
