import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLoopbackServer } from './loopbackServer';

/**
 * A loopback fake of OpenAI's audio, image-edit and edits endpoints (on any path ending in the
 * OpenAI route, so Azure's `/openai/deployments/<model>/audio/...` works too), for relay-audio:
 * - `/audio/speech` (JSON): the audio bytes `speechAudio(input)` as `audio/mpeg`, in two chunks;
 * - `/audio/transcriptions`, `/audio/translations` (multipart, a `file` part required): the text
 *   `transcriptOf(model)` in the requested `response_format` (json, text, srt, verbose_json, vtt);
 * - `/images/edits` (multipart, an `image` part and a `prompt` required): `n` image URLs;
 * - `/edits` (JSON): one choice and `editUsage`.
 * A form missing its required part is answered 400 with OpenAI's error shape, as the provider
 * does. An upstream key set to fail with `failWith(key, status)` gets OpenAI's error body. Every
 * request is recorded with its text fields and its files (name, type, bytes).
 */

export interface AudioFile {
  readonly name: string;
  readonly type: string;
  readonly bytes: Buffer;
}

export interface AudioRequest {
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  /** Bearer or `api-key`. */
  readonly key: string;
  /** JSON body (speech, edits). */
  readonly json: Record<string, unknown> | null;
  /** Text fields of a multipart form. */
  readonly fields: Record<string, string>;
  readonly files: Record<string, AudioFile>;
}

export interface AudioUpstream {
  readonly url: string;
  readonly requests: AudioRequest[];
  failWith(key: string, status: number): void;
  requestsFor(key: string): AudioRequest[];
  close(): Promise<void>;
}

/** The audio the fake "speaks" for `input` (deterministic bytes, not a real MP3). */
export const speechAudio = (input: string): Buffer => Buffer.concat([Buffer.from('ID3fake-audio:'), Buffer.from(input), Buffer.alloc(2048, 7)]);

/** The text of every transcription or translation by `model`. */
export const transcriptOf = (model: string): string => `The quick brown fox, transcribed by ${model}, jumps over the lazy dog.`;

/** The usage of every edits answer. */
export const editUsage = { prompt_tokens: 25, completion_tokens: 32, total_tokens: 57 } as const;

/** The edited text. */
export const editedText = 'What day of the week is it?';

const keyOf = (req: IncomingMessage): string => {
  const auth = req.headers.authorization ?? '';
  if (auth.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  const apiKey = req.headers['api-key'];
  return typeof apiKey === 'string' ? apiKey : '';
};

const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

const badRequest = (res: ServerResponse, message: string, param: string): void =>
  sendJson(res, 400, { error: { message, type: 'invalid_request_error', param, code: null } });

/** The transcript in `format` (OpenAI's shapes: srt and vtt cues with timings). */
function transcriptBody(format: string, text: string): { type: string; body: string } {
  switch (format) {
    case 'text':
      return { type: 'text/plain; charset=utf-8', body: `${text}\n` };
    case 'srt':
      return { type: 'text/plain; charset=utf-8', body: `1\n00:00:00,000 --> 00:00:04,000\n${text}\n\n` };
    case 'vtt':
      return { type: 'text/vtt; charset=utf-8', body: `WEBVTT\n\n00:00:00.000 --> 00:00:04.000\n${text}\n\n` };
    case 'verbose_json':
      return {
        type: 'application/json',
        body: JSON.stringify({ task: 'transcribe', language: 'english', duration: 4, text, segments: [{ id: 0, start: 0, end: 4, text }] }),
      };
    default:
      return { type: 'application/json', body: JSON.stringify({ text }) };
  }
}

/** Starts the fake on 127.0.0.1. */
export async function startAudioUpstream(): Promise<AudioUpstream> {
  const requests: AudioRequest[] = [];
  const failures = new Map<string, number>();

  const server = await startLoopbackServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const contentType = req.headers['content-type'] ?? '';
    let json: Record<string, unknown> | null = null;
    const fields: Record<string, string> = {};
    const files: Record<string, AudioFile> = {};
    if (contentType.startsWith('multipart/form-data')) {
      const form = await new Response(bytes, { headers: { 'Content-Type': contentType } }).formData();
      for (const [name, value] of form.entries()) {
        if (typeof value === 'string') fields[name] = value;
        else files[name] = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
      }
    } else {
      try {
        json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      } catch {
        json = null;
      }
    }
    const key = keyOf(req);
    requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers, key, json, fields, files });

    const failure = failures.get(key);
    if (failure !== undefined) {
      sendJson(res, failure, { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } });
      return;
    }
    const path = url.pathname;
    if (path.endsWith('/audio/speech')) {
      if (typeof json?.input !== 'string' || typeof json.voice !== 'string') return badRequest(res, "Missing required parameter: 'voice'.", 'voice');
      const audio = speechAudio(json.input);
      res.writeHead(200, { 'Content-Type': 'audio/mpeg', 'Transfer-Encoding': 'chunked' });
      res.write(audio.subarray(0, 100));
      await new Promise((resolve) => setTimeout(resolve, 10));
      res.end(audio.subarray(100));
      return;
    }
    if (path.endsWith('/audio/transcriptions') || path.endsWith('/audio/translations')) {
      if (files.file === undefined) return badRequest(res, "Missing required parameter: 'file'.", 'file');
      if (fields.model === undefined) return badRequest(res, "Missing required parameter: 'model'.", 'model');
      const { type, body } = transcriptBody(fields.response_format ?? 'json', transcriptOf(fields.model));
      res.writeHead(200, { 'Content-Type': type });
      res.end(body);
      return;
    }
    if (path.endsWith('/images/edits')) {
      if (files.image === undefined && files['image[]'] === undefined) return badRequest(res, "Missing required parameter: 'image'.", 'image');
      if (fields.prompt === undefined) return badRequest(res, "Missing required parameter: 'prompt'.", 'prompt');
      const n = Number(fields.n ?? '1');
      sendJson(res, 200, { created: 1_700_000_000, data: Array.from({ length: n }, (_, i) => ({ url: `https://images.invalid/edit/${i}.png` })) });
      return;
    }
    if (path.endsWith('/edits')) {
      sendJson(res, 200, { object: 'edit', created: 1_700_000_000, choices: [{ text: editedText, index: 0 }], usage: editUsage });
      return;
    }
    sendJson(res, 404, { error: { message: `fake upstream: no route ${req.method ?? ''} ${path}`, type: 'invalid_request_error', param: null, code: null } });
  });

  return {
    url: server.url,
    requests,
    failWith: (key, status) => void failures.set(key, status),
    requestsFor: (key) => requests.filter((r) => r.key === key),
    close: () => server.close(),
  };
}
