import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLoopbackServer } from './loopbackServer';

/**
 * A loopback fake of Tencent Cloud's Hunyuan API (`ChatCompletions`, version 2023-09-01),
 * speaking its documented wire format:
 * - `POST /` with `X-TC-Action`, `X-TC-Version`, `X-TC-Timestamp` and a TC3-HMAC-SHA256
 *   `Authorization`; the fake recomputes the signature of what arrived with the SecretKey of the
 *   SecretId it names (its own implementation of "Signature v3") and refuses a mismatch
 *   (`AuthFailure.SignatureFailure`), an unknown SecretId (`AuthFailure.SecretIdNotFound`), a
 *   credential date that is not the timestamp's or a service other than `hunyuan`;
 * - errors are `{"Response":{"Error":{"Code","Message"},"RequestId"}}` with HTTP 200;
 * - a whole answer is `{"Response":{Id, Created, Choices:[{Index, Message, FinishReason}], Usage,
 *   Note, RequestId}}`; a stream is `text/event-stream` whose `data:` objects carry
 *   `Choices[0].Delta.Content` and the usage so far, the last `FinishReason: "stop"`, no end event;
 *   faults: a dropped connection, a malformed event, an `ErrorMsg` event;
 * - function calling: `Tools` entries must be `{Type: "function", Function: {Name, Parameters}}`
 *   with `Parameters` a JSON string, `ToolChoice` one of none / auto / custom (custom needs a
 *   `CustomTool`), a `tool` message needs its `ToolCallId`; with tools and a last message that is
 *   not a tool result (and `ToolChoice` not none), the answer is a call of the custom tool or the
 *   first one, `Message.ToolCalls` with `FinishReason: "tool_calls"`, streamed as
 *   `Delta.ToolCalls` pieces sharing the call's `Id`.
 * Deterministic: the reply is `tencentReply(model)`, streamed as `tencentPieces(model)`, with
 * `tencentUsage`. Behaviour per SecretId.
 */

export type TencentBehaviour =
  | { readonly kind: 'ok' }
  /** An error answer (HTTP 200) with this code and message. */
  | { readonly kind: 'error'; readonly code: string; readonly message: string }
  /** Streams `deltas` pieces, then destroys the connection. */
  | { readonly kind: 'dropMidStream'; readonly deltas: number }
  /** A non-JSON `data:` line between the pieces. */
  | { readonly kind: 'malformedEvent' }
  /** Two pieces, then an event with `ErrorMsg` (the service failed mid-stream), then the end. */
  | { readonly kind: 'errorMidStream' };

export interface TencentRequest {
  readonly headers: IncomingMessage['headers'];
  readonly json: Record<string, unknown>;
}

export interface TencentUpstream {
  readonly url: string;
  readonly requests: readonly TencentRequest[];
  /** Accepts `secretId` signed with `secretKey`, behaving as told. */
  account(secretId: string, secretKey: string, behaviour?: TencentBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

export const tencentUsage = { PromptTokens: 17, CompletionTokens: 9, TotalTokens: 26 } as const;
export const tencentReply = (model: string): string => `Hunyuan ${model} answers deterministically.`;
export const tencentPieces = (model: string): string[] => tencentReply(model).split(/(?= )/);
/** The arguments of the fake's tool calls, and the pieces it streams them in. */
export const tencentToolArguments = '{"city":"Paris","unit":"celsius"}';
export const tencentToolArgumentPieces = ['{"city":', '"Paris","unit"', ':"celsius"}'];

/** What the documented tool fields of a ChatCompletions body get wrong, or null. */
function toolFault(body: Record<string, unknown>): string | null {
  const isTool = (t: unknown): boolean => {
    if (typeof t !== 'object' || t === null) return false;
    const tool = t as Record<string, unknown>;
    const fn = tool.Function as Record<string, unknown> | undefined;
    if (tool.Type !== 'function' || typeof fn !== 'object' || fn === null || typeof fn.Name !== 'string' || fn.Name === '' || typeof fn.Parameters !== 'string') return false;
    try {
      JSON.parse(fn.Parameters);
      return true;
    } catch {
      return false;
    }
  };
  if (body.Tools !== undefined && (!Array.isArray(body.Tools) || !body.Tools.every(isTool))) return 'Tools must be [{Type: "function", Function: {Name, Parameters (a JSON string)}}].';
  if (body.ToolChoice !== undefined && !(typeof body.ToolChoice === 'string' && ['none', 'auto', 'custom'].includes(body.ToolChoice))) return 'ToolChoice must be none, auto or custom.';
  if (body.ToolChoice === 'custom' && !isTool(body.CustomTool)) return 'CustomTool is required when ToolChoice is custom.';
  for (const message of body.Messages as Record<string, unknown>[]) {
    if (message.Role === 'tool' && (typeof message.ToolCallId !== 'string' || message.ToolCallId === '')) return 'A tool message needs its ToolCallId.';
  }
  return null;
}

const hex = (text: string): string => createHash('sha256').update(text).digest('hex');
const mac = (key: string | Buffer, text: string): Buffer => createHmac('sha256', key).update(text).digest();

/** Signature v3 of a POST to `/` over the named headers, as the service checks it. */
function expectedSignature(secretKey: string, date: string, service: string, timestamp: string, signed: string[], headers: IncomingMessage['headers'], body: string): string {
  const canonicalHeaders = signed.map((name) => `${name}:${String(headers[name] ?? '').trim().toLowerCase()}\n`).join('');
  const canonical = `POST\n/\n\n${canonicalHeaders}\n${signed.join(';')}\n${hex(body)}`;
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${hex(canonical)}`;
  const key = mac(mac(mac(`TC3${secretKey}`, date), service), 'tc3_request');
  return createHmac('sha256', key).update(toSign).digest('hex');
}

export async function startTencentUpstream(): Promise<TencentUpstream> {
  const accounts = new Map<string, { secretKey: string; behaviour: TencentBehaviour }>();
  const requests: TencentRequest[] = [];
  let count = 0;

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    count += 1;
    const requestId = `req-${count}`;
    const json = (body: unknown) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-TC-RequestId': requestId });
      res.end(JSON.stringify(body));
    };
    const fail = (code: string, message: string) => json({ Response: { Error: { Code: code, Message: message }, RequestId: requestId } });
    if (req.method !== 'POST' || req.url !== '/') return fail('InvalidAction', 'The requested path is not served.');
    if (req.headers['x-tc-action'] !== 'ChatCompletions') return fail('InvalidAction', `The action ${String(req.headers['x-tc-action'])} is not found.`);
    if (req.headers['x-tc-version'] !== '2023-09-01') return fail('NoSuchVersion', 'The version is not supported.');

    const authorization = String(req.headers.authorization ?? '');
    const timestamp = String(req.headers['x-tc-timestamp'] ?? '');
    const parts = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([a-z;-]+), Signature=([0-9a-f]{64})$/.exec(authorization);
    if (parts === null || !/^\d+$/.test(timestamp)) return fail('AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
    const [, secretId = '', date = '', service = '', signedHeaders = '', signature = ''] = parts;
    const account = accounts.get(secretId);
    if (account === undefined) return fail('AuthFailure.SecretIdNotFound', 'The SecretId is not found, please ensure that your SecretId is correct.');
    const signed = signedHeaders.split(';');
    const dated = new Date(Number(timestamp) * 1000).toISOString().slice(0, 10);
    if (!signed.includes('content-type') || !signed.includes('host') || date !== dated || service !== 'hunyuan') {
      return fail('AuthFailure.SignatureFailure', 'The provided credentials could not be validated because of the credential scope.');
    }
    if (expectedSignature(account.secretKey, date, service, timestamp, signed, req.headers, raw) !== signature) {
      return fail('AuthFailure.SignatureFailure', 'The provided credentials could not be validated. Please check your signature is correct.');
    }

    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return fail('InvalidParameter', 'The request body is not valid JSON.');
    }
    requests.push({ headers: req.headers, json: body });
    const { behaviour } = account;
    if (behaviour.kind === 'error') return fail(behaviour.code, behaviour.message);
    const model = typeof body.Model === 'string' ? body.Model : '';
    if (model === '' || !Array.isArray(body.Messages) || body.Messages.length === 0) return fail('InvalidParameter', 'Model and Messages are required.');
    const fault = toolFault(body);
    if (fault !== null) return fail('InvalidParameter', fault);
    const created = 1_700_000_000;
    const id = `hunyuan-${count}`;
    const messages = body.Messages as Record<string, unknown>[];
    const tools = (body.Tools ?? []) as { Function: { Name: string } }[];
    const calling = tools.length > 0 && body.ToolChoice !== 'none' && messages.at(-1)?.Role !== 'tool';
    const toolName = body.ToolChoice === 'custom' ? (body.CustomTool as { Function: { Name: string } }).Function.Name : (tools[0]?.Function.Name ?? '');
    const callId = `call-hunyuan-${count}`;
    if (calling && body.Stream !== true) {
      return json({
        Response: {
          Id: id,
          Created: created,
          Choices: [{ Index: 0, Message: { Role: 'assistant', Content: '', ToolCalls: [{ Id: callId, Type: 'function', Index: 0, Function: { Name: toolName, Arguments: tencentToolArguments } }] }, FinishReason: 'tool_calls' }],
          Usage: tencentUsage,
          RequestId: requestId,
        },
      });
    }
    if (calling) {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-TC-RequestId': requestId });
      for (const [i, piece] of tencentToolArgumentPieces.entries()) {
        const call = i === 0 ? { Id: callId, Type: 'function', Index: 0, Function: { Name: toolName, Arguments: piece } } : { Id: callId, Index: 0, Function: { Arguments: piece } };
        res.write(`data: ${JSON.stringify({ Id: id, Created: created, Choices: [{ Index: 0, Delta: { Role: 'assistant', Content: '', ToolCalls: [call] }, FinishReason: '' }] })}\n\n`);
      }
      res.end(`data: ${JSON.stringify({ Id: id, Created: created, Choices: [{ Index: 0, Delta: { Role: 'assistant', Content: '' }, FinishReason: 'tool_calls' }], Usage: tencentUsage })}\n\n`);
      return;
    }

    if (body.Stream !== true) {
      return json({
        Response: {
          Id: id,
          Created: created,
          Note: 'The above content is generated by AI.',
          Choices: [{ Index: 0, Message: { Role: 'assistant', Content: tencentReply(model) }, FinishReason: 'stop' }],
          Usage: tencentUsage,
          RequestId: requestId,
        },
      });
    }

    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-TC-RequestId': requestId });
    const event = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
    for (const [i, text] of tencentPieces(model).entries()) {
      if (behaviour.kind === 'dropMidStream' || behaviour.kind === 'errorMidStream') await new Promise((resolve) => setTimeout(resolve, 10));
      if (behaviour.kind === 'dropMidStream' && i === behaviour.deltas) {
        res.destroy();
        return;
      }
      if (behaviour.kind === 'errorMidStream' && i === 2) {
        res.end(event({ Id: id, Created: created, Choices: [], ErrorMsg: { Code: 4000, Msg: 'service internal error' } }));
        return;
      }
      if (behaviour.kind === 'malformedEvent' && i === 1) res.write('data: {"Choices": [\n\n');
      const usage = { PromptTokens: tencentUsage.PromptTokens, CompletionTokens: i + 1, TotalTokens: tencentUsage.PromptTokens + i + 1 };
      res.write(event({ Id: id, Created: created, Note: 'The above content is generated by AI.', Choices: [{ Index: 0, Delta: { Role: 'assistant', Content: text }, FinishReason: '' }], Usage: usage }));
    }
    res.end(event({ Id: id, Created: created, Choices: [{ Index: 0, Delta: { Role: 'assistant', Content: '' }, FinishReason: 'stop' }], Usage: tencentUsage }));
  };

  const server = await startLoopbackServer(answer);
  return {
    url: server.url,
    requests,
    account: (secretId, secretKey, behaviour = { kind: 'ok' }) => accounts.set(secretId, { secretKey, behaviour }),
    reset: () => {
      requests.length = 0;
    },
    close: () => server.close(),
  };
}
