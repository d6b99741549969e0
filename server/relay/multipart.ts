import * as E from 'fp-ts/Either';
import { relayError, type RelayBody, type RelayError, type RelayMode } from './types';

/**
 * Multipart request bodies of the relay (audio transcriptions and translations, image edits,
 * contract §4.2 step 11 "form field `model` for multipart"): the form is parsed by the platform
 * (`Response.formData()`, Node's built-in undici), never by hand, and only after the body was read
 * within the relay's size limit (auth.ts). A cheap count of the boundary lines bounds the parts
 * first, so a body of a million tiny parts cannot hold the event loop. The form is re-encoded by
 * the platform too (`encodedForm`), with the upstream model in its `model` field.
 */

/** The modes whose body is a multipart form. */
const multipartModes: ReadonlySet<RelayMode> = new Set(['transcriptions', 'translations', 'image_edits']);

/** Whether requests of `mode` send a multipart form. */
export const isMultipartMode = (mode: RelayMode): boolean => multipartModes.has(mode);

/** Most parts accepted in a form (OpenAI's audio and image-edit forms have about a dozen fields; gpt-image-1 takes up to 16 images). */
export const maxFormParts = 64;

export const multipartMessages = {
  contentType: (type: string) => `unsupported Content-Type ${type}: this route takes multipart/form-data`,
  tooManyParts: `multipart body has too many parts (limit ${maxFormParts})`,
  invalid: (detail: string) => `invalid multipart body: ${detail}`,
  fieldRequired: (field: string) => `field ${field} is required`,
} as const;

/** The boundary of a `multipart/form-data` Content-Type, or null for any other type. */
export function formBoundary(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  const [type = '', ...params] = contentType.split(';');
  if (type.trim().toLowerCase() !== 'multipart/form-data') return null;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    return value === '' ? null : value;
  }
  return null;
}

/** Whether `bytes` holds more than `limit` occurrences of the delimiter `--<boundary>` (a linear scan, no parsing). */
function hasMoreDelimiters(bytes: Buffer, boundary: string, limit: number): boolean {
  const delimiter = Buffer.from(`--${boundary}`);
  let seen = 0;
  for (let at = bytes.indexOf(delimiter); at >= 0; at = bytes.indexOf(delimiter, at + delimiter.length)) {
    seen += 1;
    // n parts have n + 1 delimiter lines (the last one closes the form)
    if (seen > limit + 1) return true;
  }
  return false;
}

/** The text fields of a form as an object (a field sent twice: the last value). */
function textFields(form: FormData): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name] = value;
  return fields;
}

/**
 * The relay body of a multipart request: the parsed form, its text fields as `json`, and the model
 * (form field `model`, else `defaultModel`). A body that is not `multipart/form-data` with a
 * boundary is a 415, one with more than `maxFormParts` parts a 413, one that does not parse a 400.
 */
export async function readMultipartBody(bytes: Buffer, contentType: string | undefined, defaultModel: string): Promise<E.Either<RelayError, RelayBody>> {
  const boundary = formBoundary(contentType);
  if (boundary === null) return E.left(relayError(415, multipartMessages.contentType(contentType ?? ''), 'unsupported_content_type', 'invalid_request_error'));
  if (hasMoreDelimiters(bytes, boundary, maxFormParts)) return E.left(relayError(413, multipartMessages.tooManyParts, 'request_too_large', 'invalid_request_error'));
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), { headers: { 'Content-Type': contentType ?? '' } }).formData();
  } catch (error) {
    return E.left(relayError(400, multipartMessages.invalid(error instanceof Error ? error.message : String(error)), 'invalid_multipart_body', 'invalid_request_error'));
  }
  const model = form.get('model');
  return E.right({ raw: '', json: textFields(form), model: typeof model === 'string' && model !== '' ? model : defaultModel, form });
}

/** A copy of `form` with `model` set to `model` (the mapped upstream model), encoded: its bytes and its Content-Type (with the new boundary). */
export async function encodedForm(form: FormData, model: string): Promise<{ readonly body: Uint8Array; readonly contentType: string }> {
  const sent = new FormData();
  let modelSet = false;
  for (const [name, value] of form.entries()) {
    if (name === 'model') {
      if (!modelSet) sent.append('model', model);
      modelSet = true;
      continue;
    }
    sent.append(name, value);
  }
  if (!modelSet) sent.append('model', model);
  const encoded = new Response(sent);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('Content-Type') ?? 'multipart/form-data' };
}
