import * as t from 'io-ts';
import { msg, type Message } from './message';
import { defaultTestModel } from './channelStatus';

const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

/** An upstream channel (contract §2.1.3). `key` is "" on reads. */
export const Channel = t.intersection([
  t.type({
    id: t.number,
    type: t.number,
    name: t.string,
    status: t.number,
    models: t.string,
    group: t.string,
  }),
  t.partial({
    key: t.string,
    weight: nullable(t.number),
    created_time: t.number,
    test_time: t.number,
    response_time: t.number,
    base_url: nullable(t.string),
    other: nullable(t.string),
    balance: t.number,
    balance_updated_time: t.number,
    used_quota: t.number,
    model_mapping: nullable(t.string),
    priority: nullable(t.number),
    config: t.string,
    system_prompt: nullable(t.string),
    /** The channel's tags (not in one-api; absent from a one-api server). */
    tags: t.array(t.string),
  }),
]);
export type Channel = t.TypeOf<typeof Channel>;

/** The per-type settings carried as JSON text in `channel.config`. */
export const ChannelConfig = t.partial({
  region: t.string,
  sk: t.string,
  ak: t.string,
  user_id: t.string,
  api_version: t.string,
  library_id: t.string,
  plugin: t.string,
  vertex_ai_project_id: t.string,
  vertex_ai_adc: t.string,
});
export type ChannelConfig = t.TypeOf<typeof ChannelConfig>;

/** Body of `POST /api/channel/` and full `PUT /api/channel/`. */
export const ChannelPayload = t.intersection([
  t.type({ type: t.number, name: t.string, models: t.string, group: t.string }),
  t.partial({
    id: t.number,
    key: t.string,
    base_url: t.string,
    other: t.string,
    model_mapping: t.string,
    system_prompt: t.string,
    config: t.string,
    status: t.number,
    priority: t.number,
    weight: t.number,
    /** Absent on PUT = the stored tags stay. */
    tags: t.array(t.string),
  }),
]);
export type ChannelPayload = t.TypeOf<typeof ChannelPayload>;

/** Partial update used for status, priority and weight (`PUT /api/channel/`). */
export const ChannelPatch = t.intersection([
  t.type({ id: t.number }),
  t.partial({ status: t.number, priority: t.number, weight: t.number }),
]);
export type ChannelPatch = t.TypeOf<typeof ChannelPatch>;

/** `GET /api/channel/test/:id` — the envelope plus `time` (s) and `modelName` (not enveloped data). */
export const ChannelTestResult = t.intersection([
  t.type({ success: t.boolean, message: t.string }),
  t.partial({ time: t.number, modelName: t.string, model: t.string }),
]);
export type ChannelTestResult = t.TypeOf<typeof ChannelTestResult>;

/** `GET /api/channel/update_balance/:id` — `balance` at the top level. */
export const BalanceResult = t.intersection([
  t.type({ success: t.boolean, message: t.string }),
  t.partial({ balance: t.number }),
]);
export type BalanceResult = t.TypeOf<typeof BalanceResult>;

/** `GET /api/channel/models` — an OpenAI model list, not enveloped. */
export const ModelCatalogue = t.type({
  object: t.string,
  data: t.array(t.type({ id: t.string })),
});
export type ModelCatalogue = t.TypeOf<typeof ModelCatalogue>;

// `GET /api/models` lives in ./channelTypeModels (the entry reads the stored copy and the status API decodes it).
export { ChannelTypeModels } from './channelTypeModels';

/** Largest number of channel ids one test run request may name. */
export const maxTestRunIds = 10000;

/** Which channels a test run covers: every channel, the disabled ones, or a list of ids. */
export const ChannelTestRunScope = t.keyof({ all: null, disabled: null, ids: null }, 'ChannelTestRunScope');
export type ChannelTestRunScope = t.TypeOf<typeof ChannelTestRunScope>;

/** The state of a test run. */
export const ChannelTestRunStatus = t.keyof({ running: null, finished: null, cancelled: null }, 'ChannelTestRunStatus');
export type ChannelTestRunStatus = t.TypeOf<typeof ChannelTestRunStatus>;

/** One tested channel of a run (`GET /api/channel/test_run`). */
export const ChannelTestRunResult = t.type(
  {
    /** 0-based position in the run's results. */
    index: t.number,
    channel_id: t.number,
    success: t.boolean,
    /** The upstream's reply, or the error. */
    message: t.string,
    /** Seconds the test took. */
    time: t.number,
    /** The model tested. */
    model: t.string,
    /** The channel's status after this test (automatic disabling / enabling applied). */
    status: t.number,
    /** Milliseconds stored as the channel's `response_time`. */
    response_time: t.number,
    /** Unix seconds stored as the channel's `test_time`. */
    test_time: t.number,
  },
  'ChannelTestRunResult',
);
export type ChannelTestRunResult = t.TypeOf<typeof ChannelTestRunResult>;

/** A background test of several channels, one after another, with the results so far. */
export const ChannelTestRun = t.type(
  {
    id: t.number,
    scope: ChannelTestRunScope,
    status: ChannelTestRunStatus,
    total: t.number,
    done: t.number,
    /** Unix seconds. */
    started_at: t.number,
    /** Unix seconds; 0 while running. */
    finished_at: t.number,
    /** The channels of the run in test order. */
    channel_ids: t.array(t.number),
    results: t.array(ChannelTestRunResult),
  },
  'ChannelTestRun',
);
export type ChannelTestRun = t.TypeOf<typeof ChannelTestRun>;

/** A positive safe integer (a channel id). */
const ChannelId = t.refinement(t.number, (n) => Number.isSafeInteger(n) && n > 0, 'positive integer');

/** 1 to `maxTestRunIds` channel ids. */
const ChannelIdList = t.refinement(
  t.array(ChannelId),
  (ids) => ids.length > 0 && ids.length <= maxTestRunIds,
  `list of 1 to ${maxTestRunIds} channel ids`,
);

const ScopeRunRequest = t.type({ scope: t.keyof({ all: null, disabled: null }, '"all" | "disabled"') });
const IdsRunRequest = t.type({ ids: ChannelIdList });

/** Body of `POST /api/channel/test_run`: exactly one of `scope` and `ids`. */
export type ChannelTestRunRequest = { readonly scope: 'all' | 'disabled' } | { readonly ids: readonly number[] };

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/** Body of `POST /api/channel/test_run`: exactly one of `scope` and `ids`. */
export const ChannelTestRunRequest = new t.Type<ChannelTestRunRequest, ChannelTestRunRequest, unknown>(
  'ChannelTestRunRequest',
  (u): u is ChannelTestRunRequest => isRecord(u) && ('scope' in u ? !('ids' in u) && ScopeRunRequest.is(u) : IdsRunRequest.is(u)),
  (u, c) => {
    if (!isRecord(u)) return t.failure(u, c, 'expected an object with "scope" or "ids"');
    const hasScope = 'scope' in u;
    if (hasScope && 'ids' in u) return t.failure(u, c, 'give either "scope" or "ids", not both');
    if (!hasScope && !('ids' in u)) return t.failure(u, c, 'expected "scope" or "ids"');
    return hasScope ? ScopeRunRequest.validate(u, c) : IdsRunRequest.validate(u, c);
  },
  (a) => a,
);

// ---------------------------------------------------------------------------------------------
// The channel list's rules (spec §2 "Channel list", §4): statuses, test models, row and bulk
// actions, inline numbers. Label keys are literal types, so the views translate them unchecked.

// The statuses live in ./channelStatus (no codecs: the shell's constants re-export them).
export * from './channelStatus';

/** The names of a comma list (models, groups), trimmed, each once, in order. */
export const channelModelNames = (models: string): readonly string[] => [
  ...new Set(
    models
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m !== ''),
  ),
];

/** The model a test uses by default: gpt-3.5-turbo when the channel serves it, else its first model. */
export const defaultTestModelOf = (models: string): string => {
  const names = channelModelNames(models);
  return names.includes(defaultTestModel) ? defaultTestModel : (names[0] ?? '');
};

/**
 * A row of the channel list: a channel as the server lists it plus the client-only `test_model`
 * the row's dropdown chose.
 */
export type ChannelRow = Channel & { readonly test_model?: string; readonly last_test?: ChannelLastTest };

/**
 * The last test of a channel seen by this page (a single test, or a result of a run), kept on the
 * row until the rows are reloaded: the server stores only `response_time` and `test_time`, and a
 * batch run stores the elapsed time even when the test failed (contract §4.10).
 */
export interface ChannelLastTest {
  readonly success: boolean;
  /** The model's reply, or the error. */
  readonly message: string;
  /** Milliseconds (0 when it failed). */
  readonly response_time: number;
  /** Unix seconds. */
  readonly test_time: number;
}

/**
 * A failed balance query as a sentence naming the channel: the gateway's known answers (contract
 * §2.9.11: `尚未实现` for types without a balance endpoint, `status code: <n>` for an upstream that
 * refused) get their own sentence with the server's text in brackets; any other text is kept.
 */
export function balanceFailureMessage(name: string, serverText: string): Message {
  const detail = serverText.trim();
  if (detail === '尚未实现' || /not implemented/i.test(detail)) return msg('channels.balance.failed.unsupported', { name });
  const status = /^status code: (\d{3})$/i.exec(detail);
  if (status !== null) {
    const code = Number(status[1]);
    if (code === 404 || code === 405) return msg('channels.balance.failed.noEndpoint', { name, detail });
    if (code === 401 || code === 403) return msg('channels.balance.failed.refused', { name, detail });
    if (code === 429) return msg('channels.balance.failed.tooMany', { name, detail });
    if (code >= 500) return msg('channels.balance.failed.upstream', { name, detail });
  }
  return msg('channels.balance.failed.other', { name, detail: detail === '' ? '?' : detail });
}

/** The model the row's test uses: the dropdown's choice, else the default. */
export const testModelOf = (row: ChannelRow): string =>
  row.test_model !== undefined && row.test_model !== '' ? row.test_model : defaultTestModelOf(row.models);

/** Action names of the rows (`row.action`); the composition root maps each to API calls. */
export const channelRowActions = {
  /** Test with the model in `value` (GET /api/channel/test/:id?model=). */
  test: 'test',
  /** Enable a disabled channel, disable an enabled one. */
  toggle: 'toggle',
  remove: 'delete',
  /** Inline priority: `value` is the number typed. */
  priority: 'priority',
  /** Inline weight: `value` is the number typed; negatives become 0. */
  weight: 'weight',
  /** Ask the provider for the balance again. */
  balance: 'balance',
} as const;
export type ChannelRowAction = (typeof channelRowActions)[keyof typeof channelRowActions];

/** Action names of the selection (`bulk.request`). */
export const channelBulkActions = {
  enable: 'enable',
  disable: 'disable',
  remove: 'delete',
  /** `value`: the priority for every selected channel. */
  priority: 'priority',
  /** `value`: a model name added to each channel's models. */
  addModel: 'addModel',
  /** `value`: a model name removed from each channel's models. */
  removeModel: 'removeModel',
  /** `value`: the group every selected channel is put in (replacing its groups). */
  setGroup: 'setGroup',
} as const;
export type ChannelBulkAction = (typeof channelBulkActions)[keyof typeof channelBulkActions];

/** Bulk actions that ask for a value first, in the selection bar's order. */
export const channelBulkValueActions = ['priority', 'addModel', 'removeModel', 'setGroup'] as const satisfies readonly ChannelBulkAction[];
export type ChannelBulkValueAction = (typeof channelBulkValueActions)[number];

/** Every action a channel row can be acted on with, one by one or in bulk. */
export type ChannelAction = ChannelRowAction | ChannelBulkAction;

const channelActionNames: ReadonlySet<string> = new Set<ChannelAction>([...Object.values(channelRowActions), ...Object.values(channelBulkActions)]);
const bulkActionNames: ReadonlySet<string> = new Set<ChannelBulkAction>(Object.values(channelBulkActions));

/** An action name of the channel list (the table carries them as plain strings). */
export const isChannelAction = (action: string): action is ChannelAction => channelActionNames.has(action);
export const isChannelBulkAction = (action: string): action is ChannelBulkAction => bulkActionNames.has(action);
export const isChannelBulkValueAction = (action: string): action is ChannelBulkValueAction =>
  (channelBulkValueActions as readonly string[]).includes(action);

/** The bulk actions that destroy (their confirm button is red). */
export const isDangerousChannelAction = (action: string): boolean => action === channelBulkActions.remove;

/** A bulk action's name (button, dialog title). */
export type ChannelBulkLabelKey = `channels.bulk.${ChannelBulkAction}`;
/** A bulk action with its value ("set priority to {value}"). */
export type ChannelBulkValueLabelKey = `channels.bulk.label.${ChannelBulkValueAction}`;
/** The value prompt's field label. */
export type ChannelBulkFieldKey = `channels.bulk.value.field.${ChannelBulkValueAction}`;

export const channelBulkLabelKey = (action: ChannelBulkAction): ChannelBulkLabelKey => `channels.bulk.${action}`;
export const channelBulkValueLabelKey = (action: ChannelBulkValueAction): ChannelBulkValueLabelKey => `channels.bulk.label.${action}`;
export const channelBulkFieldKey = (action: ChannelBulkValueAction): ChannelBulkFieldKey => `channels.bulk.value.field.${action}`;

/**
 * How a bulk run is named: "set priority to 5" when its action took a value, else the action's
 * name; null for a name that is no channel bulk action.
 */
export function channelBulkRunLabel(
  action: string,
  value: string,
): { readonly key: ChannelBulkValueLabelKey; readonly value: string } | { readonly key: ChannelBulkLabelKey } | null {
  if (value !== '' && isChannelBulkValueAction(action)) return { key: channelBulkValueLabelKey(action), value };
  return isChannelBulkAction(action) ? { key: channelBulkLabelKey(action) } : null;
}

/** The numbers typed inline on a row. */
export type InlineNumberField = 'priority' | 'weight';

/**
 * An inline number as typed (priority, weight): '' is ignored (null); otherwise an integer
 * (fractions truncated), weight clamped to 0 when negative. Not a number: null.
 */
export function parseInlineNumber(text: string, field: InlineNumberField): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  if (!Number.isFinite(n)) return null;
  const whole = Math.trunc(n);
  return field === 'weight' && whole < 0 ? 0 : whole;
}

/**
 * What leaving an inline number box saves: the parsed number as the action's value, or null when
 * there is nothing to save (empty, not a number, or unchanged).
 */
export function inlineNumberToSave(text: string, field: InlineNumberField, current: number): string | null {
  const n = parseInlineNumber(text, field);
  return n === null || n === current ? null : String(n);
}

// ---------------------------------------------------------------------------------------------
// Tags (not in one-api: stored in our own table, shown and edited by this console)

/** Longest tag, in characters (code points), after trimming. */
export const maxTagLength = 32;
/** Most tags one channel may carry. */
export const maxTagsPerChannel = 16;

/** Why a tag is refused. */
export type ChannelTagProblem = 'empty' | 'tooLong' | 'comma' | 'control';

/** What is wrong with one tag as typed (it is trimmed first), or null when it is fine. */
export function channelTagProblem(raw: string): ChannelTagProblem | null {
  const tag = raw.trim();
  if (tag === '') return 'empty';
  if ([...tag].length > maxTagLength) return 'tooLong';
  if (tag.includes(',')) return 'comma';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(tag)) return 'control';
  return null;
}

/** The first refusal of a tag list: which tag (index, -1 for the list itself) and why. */
export type ChannelTagsRefusal =
  | { readonly index: number; readonly problem: ChannelTagProblem }
  | { readonly index: -1; readonly problem: 'tooMany'; readonly count: number };

/**
 * A tag list as it is stored: every tag trimmed, each once (first-seen order), or the first
 * refusal (a bad tag, or more than `maxTagsPerChannel` distinct tags).
 */
export function normalizeChannelTags(raw: readonly string[]): { readonly tags: readonly string[] } | { readonly refusal: ChannelTagsRefusal } {
  for (const [index, tag] of raw.entries()) {
    const problem = channelTagProblem(tag);
    if (problem !== null) return { refusal: { index, problem } };
  }
  const tags = [...new Set(raw.map((tag) => tag.trim()))];
  if (tags.length > maxTagsPerChannel) return { refusal: { index: -1, problem: 'tooMany', count: tags.length } };
  return { tags };
}

/** Splits comma-typed text into tags (empty pieces dropped): the form's tag input. */
export const splitTagText = (text: string): readonly string[] =>
  text
    .split(',')
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '');

/** `GET /api/channel/tags`: every tag in use and how many channels carry it, by tag. */
export const ChannelTagCount = t.type({ tag: t.string, count: t.number });
export type ChannelTagCount = t.TypeOf<typeof ChannelTagCount>;

/** The fields an edit by tag may change. */
export const channelTagEditFields = ['priority', 'weight', 'models', 'group', 'status'] as const;
export type ChannelTagEditField = (typeof channelTagEditFields)[number];

/**
 * Body of `PUT /api/channel/tag`: the tag, and the fields to set on every channel carrying it
 * (absent = unchanged). `status` is 1 (enable) or 2 (disable).
 */
export const ChannelTagEdit = t.exact(
  t.intersection([
    t.type({ tag: t.string }),
    t.partial({ priority: t.number, weight: t.number, models: t.string, group: t.string, status: t.number }),
  ]),
  'ChannelTagEdit',
);
export type ChannelTagEdit = t.TypeOf<typeof ChannelTagEdit>;

/** `PUT /api/channel/tag`'s data: how many channels were changed. */
export const ChannelTagEditResult = t.type({ count: t.number });
export type ChannelTagEditResult = t.TypeOf<typeof ChannelTagEditResult>;
