import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyObject } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { anthropicMessage, anthropicStream, type AnthropicBehaviour } from './anthropicUpstream';
import { geminiPieces, geminiReply, geminiToolArgs, geminiUsage } from './geminiUpstream';
import { startLoopbackServer } from './loopbackServer';

/**
 * A loopback fake of Google's OAuth 2.0 token endpoint and Vertex AI's prediction endpoints,
 * speaking their documented wire formats:
 * - `POST /token` (form-encoded): the JWT-bearer grant of a service account. The assertion must
 *   be an RS256 JWT whose signature verifies with the account's public key, whose `kid` is the
 *   account's key id and whose claims are `iss` the account's email, `aud` this token endpoint,
 *   `scope` cloud-platform, `iat` now and `exp` at most an hour later; the answer is
 *   `{access_token, expires_in, token_type}`, an error `{error, error_description}` (400
 *   `invalid_grant`). The refresh-token grant of user credentials is served too.
 * - `POST /v1/projects/<project>/locations/<region>/publishers/google/models/<model>:
 *   generateContent`, `:streamGenerateContent?alt=sse` (Gemini's answers, as the Gemini fake
 *   gives them), `:predict` (text embeddings: `predictions[].embeddings` with `values` and
 *   `statistics.token_count`), and `publishers/anthropic/models/<model>:rawPredict` /
 *   `:streamRawPredict` (Anthropic's Messages body with `anthropic_version: vertex-2023-10-16`
 *   and no `model`, answered as the Anthropic fake answers). Every call must carry
 *   `Authorization: Bearer <a token this endpoint issued, not expired>` for an account of the
 *   URL's project; errors are Google's `{"error":{"code","message","status"}}`.
 * Faults are chosen per model (`behave`) and per account (`account`'s token fault).
 */

export type VertexBehaviour =
  | { readonly kind: 'ok' }
  /** A Google error with this HTTP status, gRPC status name and message. */
  | { readonly kind: 'status'; readonly status: number; readonly grpcStatus: string; readonly message: string }
  /** Gemini: streams `chunks` answers, then destroys the connection. */
  | { readonly kind: 'dropMidStream'; readonly chunks: number }
  /** Gemini: a non-JSON `data:` line between the answers. */
  | { readonly kind: 'malformedEvent' }
  /** Claude: Anthropic's own faults (drop, malformed event, error events). */
  | { readonly kind: 'anthropic'; readonly behaviour: AnthropicBehaviour };

/** A service account the token endpoint knows. */
export interface VertexAccount {
  readonly email: string;
  readonly keyId: string;
  readonly publicKey: KeyObject;
  /** The project its tokens may call. */
  readonly project: string;
  /** `expires_in` of its tokens (default 3599). */
  readonly lifetimeSeconds?: number;
  /** The token endpoint refuses it with this status and OAuth error. */
  readonly refuse?: { readonly status: number; readonly error: string; readonly description: string };
}

export interface VertexRequest {
  readonly path: string;
  readonly project: string;
  readonly region: string;
  readonly publisher: string;
  readonly model: string;
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  readonly json: Record<string, unknown>;
}

export interface TokenRequest {
  readonly grantType: string;
  /** The assertion's issuer (service accounts) or the client id (user credentials). */
  readonly subject: string;
  readonly claims: Record<string, unknown>;
  readonly header: Record<string, unknown>;
  /** The token issued, or null when refused. */
  readonly issued: string | null;
}

export interface VertexUpstream {
  readonly url: string;
  readonly tokenUrl: string;
  readonly requests: readonly VertexRequest[];
  readonly tokenRequests: readonly TokenRequest[];
  account(account: VertexAccount): void;
  /** User credentials (refresh-token grant) for `project`. */
  user(clientId: string, clientSecret: string, refreshToken: string, project: string): void;
  behave(model: string, behaviour: VertexBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

export const vertexScope = 'https://www.googleapis.com/auth/cloud-platform';
/** The embedding every input gets, and its token count (one per word). */
export const vertexVector = [0.125, -0.5, 0.75];
export const vertexTokenCount = (text: string): number => text.split(' ').length;

const modelRoute = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(generateContent|streamGenerateContent|predict|rawPredict|streamRawPredict)$/;

const sse = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

export async function startVertexUpstream(): Promise<VertexUpstream> {
  const accounts = new Map<string, VertexAccount>();
  const users = new Map<string, { secret: string; refreshToken: string; project: string }>();
  const behaviours = new Map<string, VertexBehaviour>();
  const issued = new Map<string, { project: string; expiresAt: number }>();
  const requests: VertexRequest[] = [];
  const tokenRequests: TokenRequest[] = [];
  let url = '';
  let counter = 0;

  const googleError = (res: ServerResponse, status: number, grpcStatus: string, message: string): void => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify({ error: { code: status, message, status: grpcStatus } }));
  };

  const token = async (raw: string, res: ServerResponse): Promise<void> => {
    const form = new URLSearchParams(raw);
    const refuse = (status: number, error: string, description: string, request?: Omit<TokenRequest, 'issued'>) => {
      if (request !== undefined) tokenRequests.push({ ...request, issued: null });
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error, error_description: description }));
    };
    const grant = (request: Omit<TokenRequest, 'issued'>, project: string, lifetime: number) => {
      counter += 1;
      const accessToken = `ya29.fake-${counter}`;
      issued.set(accessToken, { project, expiresAt: Date.now() + lifetime * 1000 });
      tokenRequests.push({ ...request, issued: accessToken });
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ access_token: accessToken, expires_in: lifetime, token_type: 'Bearer' }));
    };
    const grantType = form.get('grant_type') ?? '';
    if (grantType === 'refresh_token') {
      const clientId = form.get('client_id') ?? '';
      const user = users.get(clientId);
      const request = { grantType, subject: clientId, claims: {}, header: {} };
      if (user === undefined || user.secret !== form.get('client_secret')) return refuse(401, 'invalid_client', 'The OAuth client was not found.', request);
      if (user.refreshToken !== form.get('refresh_token')) return refuse(400, 'invalid_grant', 'Bad Request', request);
      return grant(request, user.project, 3599);
    }
    if (grantType !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return refuse(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`);
    const assertion = form.get('assertion') ?? '';
    let claims: Record<string, unknown>;
    let header: Record<string, unknown>;
    try {
      claims = decodeJwt(assertion);
      header = decodeProtectedHeader(assertion);
    } catch {
      return refuse(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
    }
    const request = { grantType, subject: String(claims.iss), claims, header };
    const account = accounts.get(String(claims.iss));
    if (account === undefined) return refuse(400, 'invalid_grant', 'Invalid grant: account not found', request);
    if (header.kid !== account.keyId) return refuse(400, 'invalid_grant', 'Invalid JWT Signature.', request);
    try {
      await jwtVerify(assertion, account.publicKey, { algorithms: ['RS256'], issuer: account.email, audience: `${url}/token`, maxTokenAge: 3600, clockTolerance: 5 });
    } catch {
      return refuse(400, 'invalid_grant', 'Invalid JWT Signature.', request);
    }
    const iat = Number(claims.iat);
    const exp = Number(claims.exp);
    if (!(exp > iat && exp - iat <= 3600) || Math.abs(iat - Date.now() / 1000) > 300) {
      return refuse(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.', request);
    }
    if (claims.scope !== vertexScope) return refuse(400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.', request);
    if (account.refuse !== undefined) return refuse(account.refuse.status, account.refuse.error, account.refuse.description, request);
    return grant(request, account.project, account.lifetimeSeconds ?? 3599);
  };

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const path = req.url ?? '';
    if (req.method === 'POST' && path === '/token') return token(raw, res);
    const [pathname = '', query = ''] = path.split('?');
    const matched = modelRoute.exec(pathname);
    if (req.method !== 'POST' || matched === null) return googleError(res, 404, 'NOT_FOUND', `Requested entity was not found: ${path}`);
    const [, project = '', region = '', publisher = '', model = '', method = ''] = matched;
    const streamed = method === 'streamGenerateContent' || method === 'streamRawPredict';
    if (method === 'streamGenerateContent' && query !== 'alt=sse') return googleError(res, 400, 'INVALID_ARGUMENT', 'this fake streams only with alt=sse');
    if ((publisher === 'anthropic') !== (method === 'rawPredict' || method === 'streamRawPredict')) return googleError(res, 404, 'NOT_FOUND', `Publisher model ${model} does not support ${method}`);

    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    const grant = issued.get(bearer);
    if (grant === undefined || grant.expiresAt <= Date.now()) {
      return googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    }
    if (grant.project !== project) return googleError(res, 403, 'PERMISSION_DENIED', `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/${project}/locations/${region}/publishers/${publisher}/models/${model}' (or it may not exist).`);
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    requests.push({ path, project, region, publisher, model, method, headers: req.headers, json });
    const behaviour = behaviours.get(model) ?? { kind: 'ok' };
    if (behaviour.kind === 'status') return googleError(res, behaviour.status, behaviour.grpcStatus, behaviour.message);

    if (method === 'predict') {
      const instances = Array.isArray(json.instances) ? (json.instances as { content?: unknown }[]) : [];
      if (instances.length === 0 || instances.some((i) => typeof i.content !== 'string')) return googleError(res, 400, 'INVALID_ARGUMENT', 'instances[].content is required');
      const predictions = instances.map((i) => ({ embeddings: { values: vertexVector, statistics: { token_count: vertexTokenCount(String(i.content)), truncated: false } } }));
      res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify({ predictions, metadata: { billableCharacterCount: 42 } }));
      return;
    }

    if (publisher === 'anthropic') {
      if (json.anthropic_version !== 'vertex-2023-10-16') return googleError(res, 400, 'INVALID_ARGUMENT', 'anthropic_version: vertex-2023-10-16 is required');
      if ('model' in json) return googleError(res, 400, 'INVALID_ARGUMENT', 'model: Extra inputs are not permitted');
      if (typeof json.max_tokens !== 'number') return googleError(res, 400, 'INVALID_ARGUMENT', 'max_tokens: Field required');
      const request = { ...json, model };
      const id = `msg_vrtx_${requests.length}`;
      if (!streamed) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(anthropicMessage(request, id)));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
      for await (const step of anthropicStream(request, id, behaviour.kind === 'anthropic' ? behaviour.behaviour : { kind: 'ok' })) {
        if (step.kind === 'drop') {
          res.destroy();
          return;
        }
        res.write(step.kind === 'malformed' ? `event: ${step.type}\ndata: {not json\n\n` : sse(step.type, step.data));
      }
      res.end();
      return;
    }

    // Gemini
    const tools = Array.isArray(json.tools) ? (json.tools as { functionDeclarations?: { name?: string }[] }[]) : [];
    const contents = Array.isArray(json.contents) ? (json.contents as { parts?: Record<string, unknown>[] }[]) : [];
    const lastIsResponse = (contents.at(-1)?.parts ?? []).some((p) => p.functionResponse !== undefined);
    const tool = tools[0]?.functionDeclarations?.[0]?.name;
    const callsTool = tool !== undefined && !lastIsResponse;
    const base = { modelVersion: model, responseId: `vrtx-${requests.length}` };
    if (!streamed) {
      const parts = callsTool ? [{ functionCall: { name: tool, args: geminiToolArgs } }] : [{ text: geminiReply(model) }];
      res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: geminiUsage, ...base }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const pieces = callsTool ? [] : geminiPieces(model);
    for (const [i, text] of pieces.entries()) {
      if (behaviour.kind === 'dropMidStream') {
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (i === behaviour.chunks) {
          res.destroy();
          return;
        }
      }
      if (behaviour.kind === 'malformedEvent' && i === 1) res.write('data: {"candidates": [\r\n\r\n');
      const usageMetadata = { promptTokenCount: geminiUsage.promptTokenCount, candidatesTokenCount: i + 1, totalTokenCount: 20 + i };
      res.write(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }], usageMetadata, ...base })}\r\n\r\n`);
    }
    const finalParts = callsTool ? [{ functionCall: { name: tool, args: geminiToolArgs } }] : [{ text: '' }];
    res.end(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: finalParts }, finishReason: 'STOP', index: 0 }], usageMetadata: geminiUsage, ...base })}\r\n\r\n`);
  };

  const server = await startLoopbackServer(answer);
  url = server.url;
  return {
    url,
    tokenUrl: `${url}/token`,
    requests,
    tokenRequests,
    account: (account) => accounts.set(account.email, account),
    user: (clientId, clientSecret, refreshToken, project) => users.set(clientId, { secret: clientSecret, refreshToken, project }),
    behave: (model, behaviour) => behaviours.set(model, behaviour),
    reset: () => {
      behaviours.clear();
      requests.length = 0;
      tokenRequests.length = 0;
    },
    close: () => server.close(),
  };
}
