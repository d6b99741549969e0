import * as t from 'io-ts';

/**
 * What the console reads from the relay (/v1, contract §4): the model list, a chat completion
 * and OpenAI's error body. Only the fields the console uses are required; the rest of OpenAI's
 * shapes pass through unchecked. Plus the pure rules of the token list's 'test' action: which
 * model it asks for, what it says, and how much of the reply the toast shows.
 */

/** One entry of `GET /v1/models` (catalogue object or one-api's custom entry). */
export const RelayModel = t.intersection([t.type({ id: t.string }), t.partial({ object: t.string, owned_by: t.string })]);
export type RelayModel = t.TypeOf<typeof RelayModel>;

/** `GET /v1/models`: `{ object: "list", data: [...] }`. */
export const RelayModelList = t.type({ data: t.array(RelayModel) });
export type RelayModelList = t.TypeOf<typeof RelayModelList>;

/** One choice of a non-streaming chat completion; `content` is null for tool calls. */
export const ChatChoice = t.intersection([
  t.type({ message: t.intersection([t.type({ content: t.union([t.string, t.null]) }), t.partial({ role: t.string })]) }),
  t.partial({ index: t.number, finish_reason: t.union([t.string, t.null]) }),
]);
export type ChatChoice = t.TypeOf<typeof ChatChoice>;

/** Token counts of an answered request. */
export const ChatUsage = t.type({ prompt_tokens: t.number, completion_tokens: t.number });
export type ChatUsage = t.TypeOf<typeof ChatUsage>;

/** `POST /v1/chat/completions` without `stream`. */
export const ChatCompletion = t.intersection([
  t.type({ model: t.string, choices: t.array(ChatChoice) }),
  t.partial({ id: t.string, object: t.string, created: t.number, usage: t.union([ChatUsage, t.null]) }),
]);
export type ChatCompletion = t.TypeOf<typeof ChatCompletion>;

/** OpenAI's error body, which the relay answers instead of the /api envelope (contract §4.1). */
export const RelayErrorBody = t.type({
  error: t.intersection([
    t.type({ message: t.string }),
    t.partial({ type: t.union([t.string, t.null]), param: t.union([t.string, t.null]), code: t.unknown }),
  ]),
});
export type RelayErrorBody = t.TypeOf<typeof RelayErrorBody>;

/** The one chat message a token test sends. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** The body of a non-streaming chat completion request. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly max_tokens?: number;
  readonly stream?: false;
}

/** What a token test asks: one short user message, a few tokens back, no stream. */
export const tokenTestPrompt = 'ping';
export const tokenTestMaxTokens = 8;
/** How many characters of the reply a test toast shows. */
export const replyPreviewChars = 60;

/** The names of a token's `models` restriction ('' or null = none), trimmed, empties dropped. */
export const restrictedModels = (models: string | null | undefined): readonly string[] =>
  (models ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');

/**
 * The model a test asks for when the relay lists none (no channel serves the owner's group):
 * one-api's channel-test default. The relay's own refusal then says what is missing.
 */
export const fallbackTestModel = 'gpt-3.5-turbo';

/**
 * The model a token test asks for: the first of the token's restriction when it has one, else
 * the first model the relay lists for the token, else `fallbackTestModel`.
 */
export const pickTestModel = (tokenModels: string | null | undefined, listed: readonly RelayModel[]): string =>
  restrictedModels(tokenModels)[0] ?? listed[0]?.id ?? fallbackTestModel;

export const chatRequestFor = (model: string): ChatRequest => ({
  model,
  messages: [{ role: 'user', content: tokenTestPrompt }],
  max_tokens: tokenTestMaxTokens,
  stream: false,
});

/** The first choice's text, whitespace folded, cut to `max` characters with an ellipsis. */
export function replyPreview(completion: ChatCompletion, max = replyPreviewChars): string {
  const text = (completion.choices[0]?.message.content ?? '').replace(/\s+/g, ' ').trim();
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}
