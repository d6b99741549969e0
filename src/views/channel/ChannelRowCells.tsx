import { memo, type FocusEvent, type KeyboardEvent } from 'react';
import type { SystemStyleObject } from '@chakra-ui/react';
import '../app/laterComponents';
import {
  channelModelNames,
  channelRowActions,
  channelStatusEnabled,
  channelStatusOf,
  inlineNumberToSave,
  testModelOf,
  type ChannelRow,
  type ChannelRowAction,
  type ChannelTestRunResult,
  type InlineNumberField,
} from '../../domain/channel';
import { channelTestStateOf } from '../../domain/channelTestState';
import { channelTypeByValue, channelTypeLabel, isRelayableChannelType, relaySupportHintKey, relaySupportKey } from '../../domain/channelTypes';
import { msg } from '../../domain/message';
import { formatBalance, formatTimestamp, groupColor, groupNames, responseTimeBand, type QuotaDisplay } from '../../domain/format';
import { CellHint } from '../app/Hint';
import { useRenderMessage, useT } from '../app/i18n';
import { KeptStyles, useSystemMemo } from '../app/KeptStyles';
import { CellBadge, CellButton, CellLink, CellStack, cellInputLook, type CellLinkNavigation } from '../table/cellParts';

/** The cells of one channel row (spec §2 "Channel list"): badges, inline numbers, buttons. */

/** What a cell asks of the row: an action (with its value; `confirm` asks first). */
export type OnRowAction = (row: ChannelRow, action: ChannelRowAction, value?: string, confirm?: boolean) => void;

export function ChannelName({ row }: { readonly row: ChannelRow }) {
  return (
    <span style={{ fontWeight: 500 }}>{row.name}</span>
  );
}

export function ChannelGroupBadges({ row }: { readonly row: ChannelRow }) {
  return (
    <CellStack>
      {groupNames(row.group).map((g) => (
        <CellBadge key={g} palette={groupColor(g)}>
          {g}
        </CellBadge>
      ))}
    </CellStack>
  );
}

/** The channel's tags as outlined badges (none: nothing). */
export function ChannelTagBadges({ row }: { readonly row: ChannelRow }) {
  const tags = row.tags ?? [];
  if (tags.length === 0) return null;
  return (
    <CellStack>
      {tags.map((tag) => (
        <CellBadge key={tag} variant="outline" palette="purple">
          {tag}
        </CellBadge>
      ))}
    </CellStack>
  );
}

/** The type; a type the gateway cannot relay gets a second badge saying so (its tooltip: what happens to requests). */
export function ChannelTypeBadge({ row }: { readonly row: ChannelRow }) {
  const render = useRenderMessage();
  const badge = (
    <CellBadge palette={channelTypeByValue(row.type).color} nowrap>
      {render(channelTypeLabel(row.type))}
    </CellBadge>
  );
  if (isRelayableChannelType(row.type)) return badge;
  return (
    <CellStack>
      {badge}
      <CellHint text={render(msg(relaySupportHintKey(row.type)))}>
        <CellBadge palette="orange" variant="outline" nowrap tabIndex={0} data-relay-support="none">
          {render(msg(relaySupportKey(row.type)))}
        </CellBadge>
      </CellHint>
    </CellStack>
  );
}

/** Enabled / disabled; the tooltip of a disabled channel says by whom. */
export function ChannelStatusBadge({ row }: { readonly row: ChannelRow }) {
  const t = useT();
  const s = channelStatusOf(row.status);
  const badge = (
    <CellBadge palette={s.color} variant="surface" nowrap tabIndex={s.tooltipKey ? 0 : undefined}>
      {t(s.labelKey)}
    </CellBadge>
  );
  return s.tooltipKey ? <CellHint text={t(s.tooltipKey)}>{badge}</CellHint> : badge;
}

/**
 * The row's last test: a red "失败" badge (tooltip and title: the error, when known) for a failed
 * test, the response time in its band's colour for a passed one, "未测试" otherwise; beside it the
 * mark of the running test's result. The newest result this page saw decides (a batch run stores
 * the elapsed time even for a failure); without one, 0 ms with a test time is a failed test.
 */
export function ChannelResponseTime({ row, live }: { readonly row: ChannelRow; readonly live: ChannelTestRunResult | undefined }) {
  const t = useT();
  const render = useRenderMessage();
  const state = channelTestStateOf(row, live && { ...live, response_time: live.success ? live.response_time : 0 });
  const liveText = live && t(live.success ? 'channels.live.pass' : 'channels.live.fail', { message: live.message });
  let badge;
  if (state.kind === 'failed') {
    const time = state.test_time > 0 ? formatTimestamp(state.test_time) : '-';
    const why =
      state.message === null
        ? t('channels.testState.failedNoMessage', { time })
        : t('channels.testState.failedAt', { time, message: state.message });
    badge = (
      <CellHint text={why}>
        <CellBadge palette="red" variant="solid" tabIndex={0} title={why} data-test-state="failed">
          {t('channels.testState.failed')}
        </CellBadge>
      </CellHint>
    );
  } else {
    const rt = responseTimeBand(state.kind === 'passed' ? state.ms : 0);
    const tested = state.kind === 'passed' && state.test_time > 0;
    badge = (
      <CellHint text={tested ? t('channels.responseTime.testedAt', { time: formatTimestamp(state.test_time) }) : t('channels.responseTime.never')}>
        <CellBadge palette={rt.color} tabIndex={0} data-test-state={state.kind === 'passed' ? state.band : 'untested'}>
          {render(rt.label)}
        </CellBadge>
      </CellHint>
    );
  }
  return (
    <CellStack nowrap>
      {badge}
      {live && liveText && (
        <CellHint text={liveText}>
          <CellBadge
            palette={live.success ? 'green' : 'red'}
            variant="surface"
            tabIndex={0}
            role="img"
            aria-label={liveText}
            data-live-result={live.success ? 'pass' : 'fail'}
          >
            {live.success ? '✓' : '✗'}
          </CellBadge>
        </CellHint>
      )}
    </CellStack>
  );
}

/** The balance (detail mode); a click asks the provider again. */
export function ChannelBalanceButton({
  row,
  quotaDisplay,
  disabled,
  onAction,
}: {
  readonly row: ChannelRow;
  readonly quotaDisplay: QuotaDisplay;
  readonly disabled: boolean;
  readonly onAction: OnRowAction;
}) {
  const t = useT();
  const b = formatBalance(row.type, row.balance ?? 0, quotaDisplay);
  const updated = (row.balance_updated_time ?? 0) > 0;
  const text = b.kind === 'amount' ? b.text : t('domain.balance.unsupported');
  return (
    <CellHint text={updated ? t('channels.balance.updatedAt', { time: formatTimestamp(row.balance_updated_time ?? 0) }) : t('channels.balance.never')}>
      <CellButton
        variant="ghost"
        aria-label={t('channels.balance.label', { name: row.name, balance: text })}
        disabled={disabled}
        onClick={() => onAction(row, channelRowActions.balance)}
      >
        {text}
      </CellButton>
    </CellHint>
  );
}

/** An inline number (priority, weight): Enter or leaving the box saves a changed number; empty is ignored. */
export function InlineNumber({
  label,
  value,
  field,
  disabled,
  onSave,
}: {
  readonly label: string;
  readonly value: number;
  readonly field: InlineNumberField;
  readonly disabled: boolean;
  readonly onSave: (value: string) => void;
}) {
  return (
    <input
      // a saved value (or a reload) resets the box
      key={value}
      type="number"
      {...cellInputLook}
      defaultValue={value}
      min={field === 'weight' ? 0 : undefined}
      aria-label={label}
      disabled={disabled}
      onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
        if (e.key === 'Enter') e.currentTarget.blur();
      }}
      onBlur={(e: FocusEvent<HTMLInputElement>) => {
        const save = inlineNumberToSave(e.currentTarget.value, field, value);
        if (save !== null) onSave(save);
      }}
    />
  );
}

/** The row's inline priority or weight, saved as that row action. */
export function ChannelNumberCell({
  row,
  field,
  disabled,
  onAction,
}: {
  readonly row: ChannelRow;
  readonly field: InlineNumberField;
  readonly disabled: boolean;
  readonly onAction: OnRowAction;
}) {
  const t = useT();
  return (
    <InlineNumber
      // the table reuses a row's elements for another row: a box being typed in stays with its channel
      key={row.id}
      label={t(field === 'priority' ? 'channels.priority.label' : 'channels.weight.label', { name: row.name })}
      value={(field === 'priority' ? row.priority : row.weight) ?? 0}
      field={field}
      disabled={disabled}
      onSave={(v) => onAction(row, field === 'priority' ? channelRowActions.priority : channelRowActions.weight, v)}
    />
  );
}

const modelSelect = { root: 'oa-model-select', field: 'oa-model-select-field', indicator: 'oa-model-select-indicator' } as const;

const noStyles: SystemStyleObject = {};

/**
 * The test-model select's look (the theme's extra-small native select), written once as rules of
 * its class names (`KeptStyles`): every row then only sets class names, where a Chakra select per
 * row resolved its styles on each mount. Mounted once beside the channel table and cards, in
 * detail mode (the only mode with model selects).
 */
export const ChannelCellsStyles = memo(function ChannelCellsStyles() {
  // once per Chakra system: the same objects on every mount, their sheets written once
  const parts = useSystemMemo('channelModelSelect', (system) => {
    const recipe = system.getSlotRecipeFn('nativeSelect') as (props: Record<string, unknown>) => Record<string, SystemStyleObject | undefined>;
    return recipe({ size: 'xs' });
  });
  return (
    <>
      <KeptStyles className={modelSelect.root} styles={parts.root ?? noStyles} />
      <KeptStyles className={modelSelect.field} styles={parts.field ?? noStyles} />
      <KeptStyles className={modelSelect.indicator} styles={parts.indicator ?? noStyles} />
    </>
  );
});

/** The model the row's test uses (detail mode), kept on the row: a native select (its look: `ChannelCellsStyles`). */
export function ChannelTestModelSelect({
  row,
  disabled,
  onChoose,
}: {
  readonly row: ChannelRow;
  readonly disabled: boolean;
  /** The row and the model chosen. */
  readonly onChoose: (row: ChannelRow, model: string) => void;
}) {
  const t = useT();
  const models = channelModelNames(row.models);
  const off = models.length === 0 || disabled;
  return (
    <div className={modelSelect.root} data-disabled={off ? '' : undefined}>
      <select
        className={modelSelect.field}
        aria-label={t('channels.testModel.label', { name: row.name })}
        value={testModelOf(row)}
        disabled={off}
        onChange={(e) => onChoose(row, e.currentTarget.value)}
      >
        {models.length === 0 && <option value="">{t('channels.testModel.none')}</option>}
        {models.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
      <div className={modelSelect.indicator} data-disabled={off ? '' : undefined} aria-hidden>
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="m6 9 6 6 6-6" />
        </svg>
      </div>
    </div>
  );
}

/**
 * Test, enable/disable, edit, clone (a new channel prefilled from this one), delete (asks first).
 * Edit and clone are plain links the router follows (`nav`: one per table, not a router link per row).
 */
export function ChannelRowButtons({
  row,
  disabled,
  nav,
  onAction,
}: {
  readonly row: ChannelRow;
  readonly disabled: boolean;
  readonly nav: CellLinkNavigation;
  readonly onAction: OnRowAction;
}) {
  const t = useT();
  const enabled = row.status === channelStatusEnabled;
  return (
    <CellStack nowrap>
      <CellButton
        palette="blue"
        aria-label={t('channels.row.testLabel', { name: row.name })}
        disabled={disabled}
        onClick={() => onAction(row, channelRowActions.test, testModelOf(row))}
      >
        {t('channels.row.test')}
      </CellButton>
      <CellButton
        palette={enabled ? 'orange' : 'green'}
        aria-label={t(enabled ? 'channels.row.disableLabel' : 'channels.row.enableLabel', { name: row.name })}
        disabled={disabled}
        onClick={() => onAction(row, channelRowActions.toggle)}
      >
        {t(enabled ? 'channels.row.disable' : 'channels.row.enable')}
      </CellButton>
      <CellLink to={`/channel/edit/${row.id}`} nav={nav} aria-label={t('channels.row.editLabel', { name: row.name })}>
        {t('channels.row.edit')}
      </CellLink>
      <CellLink to={`/channel/clone/${row.id}`} nav={nav} aria-label={t('channels.row.cloneLabel', { name: row.name })}>
        {t('channels.row.clone')}
      </CellLink>
      <CellButton
        palette="red"
        aria-label={t('channels.row.deleteLabel', { name: row.name })}
        disabled={disabled}
        onClick={() => onAction(row, channelRowActions.remove, undefined, true)}
      >
        {t('channels.row.delete')}
      </CellButton>
    </CellStack>
  );
}
