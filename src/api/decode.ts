import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { decodeError, type ApiError } from '../domain/apiError';

/**
 * The ONE decoding helper of the API layer (conventions §5): runs `codec` on `value` and turns a
 * failure into a `Decode` ApiError whose report names the bad field path and the value received,
 * e.g. `data.0.id: expected number, got "x"`. `at` is the path of `value` inside the body
 * ('' for the whole body, 'data' for an envelope's payload). Never throws.
 */
export function decodeAt<A>(codec: t.Decoder<unknown, A>, value: unknown, call: string, at: string): E.Either<ApiError, A> {
  const result = codec.decode(value);
  return E.isRight(result) ? E.right(result.right) : E.left(decodeError(call, reportErrors(result.left, at)));
}

/** How many distinct problems a report lists before it says "(+n more)". */
const MAX_ISSUES = 3;
const MAX_VALUE_CHARS = 40;
const MAX_TYPE_CHARS = 40;

/** io-ts errors as a short, toast-sized text: one `path: expected T, got V` per distinct problem. */
export function reportErrors(errors: t.Errors, at = ''): string {
  const issues: string[] = [];
  for (const error of errors) {
    const issue = describeError(error, at);
    if (!issues.includes(issue)) issues.push(issue);
  }
  if (issues.length === 0) return `${at === '' ? '(body)' : at}: invalid value`;
  const shown = issues.slice(0, MAX_ISSUES).join('; ');
  const rest = issues.length - MAX_ISSUES;
  return rest > 0 ? `${shown} (+${rest} more)` : shown;
}

const tagOf = (type: t.Decoder<unknown, unknown>): string | undefined => {
  const tag: unknown = (type as { _tag?: unknown })._tag;
  return typeof tag === 'string' ? tag : undefined;
};

/** Members of unions and intersections are validated under their index: not a path segment. */
const isComposite = (type: t.Decoder<unknown, unknown>): boolean => {
  const tag = tagOf(type);
  return tag === 'UnionType' || tag === 'IntersectionType';
};

function describeError(error: t.ValidationError, at: string): string {
  const context = error.context;
  const segments: string[] = at === '' ? [] : [at];
  let anchor = 0;
  for (let i = 1; i < context.length; i++) {
    const parent = context[i - 1];
    const entry = context[i];
    if (parent === undefined || entry === undefined || isComposite(parent.type)) continue;
    segments.push(entry.key);
    anchor = i;
  }
  const anchorEntry = context[anchor];
  const leaf = context[context.length - 1];
  // A union or intersection at the failing path is reported as a whole, so its members'
  // errors collapse into one issue.
  const expectedType = anchorEntry !== undefined && isComposite(anchorEntry.type) ? anchorEntry.type : leaf?.type;
  const received = anchorEntry !== undefined && 'actual' in anchorEntry ? anchorEntry.actual : error.value;
  const path = segments.length === 0 ? '(body)' : segments.join('.');
  return `${path}: expected ${expectedType === undefined ? 'a valid value' : typeName(expectedType)}, got ${showValue(received)}`;
}

function typeName(type: t.Decoder<unknown, unknown>): string {
  const name = type.name;
  if (name.length <= MAX_TYPE_CHARS) return name;
  switch (tagOf(type)) {
    case 'InterfaceType':
    case 'PartialType':
    case 'IntersectionType':
    case 'ExactType':
    case 'StrictType':
      return 'object';
    case 'ArrayType':
    case 'ReadonlyArrayType':
      return 'array';
    case 'DictionaryType':
      return 'record';
    default:
      return `${name.slice(0, MAX_TYPE_CHARS - 1)}…`;
  }
}

/** A received value as short text: JSON where possible, truncated. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value;
  }
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
