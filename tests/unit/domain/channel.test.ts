import { describe, expect, it } from 'vitest';
import * as ch from '../../../src/domain/channel';
import { channelTestStateOf } from '../../../src/domain/channelTestState';
import * as constants from '../../../src/domain/constants';
import { isMessageKey } from '../../../src/i18n';

/* The channel list's rules (src/domain/channel): statuses, test models, actions, inline numbers. */

const row: ch.ChannelRow = { id: 1, type: 1, name: 'a', status: 1, models: 'a,b', group: 'default' };

describe('channel statuses', () => {
  it('1 enabled, 2 manually and 3 automatically disabled, anything else unknown', () => {
    expect(ch.channelStatusValues).toEqual([1, 2, 3]);
    expect(ch.channelStatusOf(1)).toEqual({ value: 1, labelKey: 'domain.channelStatus.enabled', color: 'green' });
    expect(ch.channelStatusOf(2).tooltipKey).toBe('domain.channelStatus.manuallyDisabled');
    expect(ch.channelStatusOf(3).tooltipKey).toBe('domain.channelStatus.autoDisabled');
    expect(ch.channelStatusOf(7)).toEqual({ value: 7, labelKey: 'domain.channelStatus.unknown', color: 'gray' });
    expect([1, 2, 3, 0].map(ch.isChannelDisabled)).toEqual([false, true, true, false]);
    expect([1, 2, 3, 0].map(ch.nextChannelStatus)).toEqual([2, 1, 1, 1]);
  });

  it('is the one definition the shared constants module re-exports', () => {
    expect(constants.channelStatusOf).toBe(ch.channelStatusOf);
    expect(constants.channelStatusEnabled).toBe(ch.channelStatusEnabled);
    expect(constants.defaultTestModel).toBe(ch.defaultTestModel);
  });

  it('every status label, tooltip and filter option is a catalogue key', () => {
    const keys = [
      ...ch.channelStatuses.flatMap((s) => [s.labelKey, s.tooltipKey ?? s.labelKey]),
      ch.channelStatusOf(0).labelKey,
      ...ch.channelStatusValues.map(ch.channelStatusFilterKey),
    ];
    for (const key of keys) expect(isMessageKey(key), key).toBe(true);
  });
});

describe('test models', () => {
  it('splits a comma list: trimmed, empty names dropped, each once, in order', () => {
    expect(ch.channelModelNames(' gpt-4o, ,gpt-3.5-turbo,gpt-4o ')).toEqual(['gpt-4o', 'gpt-3.5-turbo']);
    expect(ch.channelModelNames('')).toEqual([]);
  });

  it('the default test model: gpt-3.5-turbo when listed, else the first', () => {
    expect(ch.defaultTestModel).toBe('gpt-3.5-turbo');
    expect(ch.defaultTestModelOf('gpt-4o, gpt-3.5-turbo')).toBe('gpt-3.5-turbo');
    expect(ch.defaultTestModelOf('llama,qwen')).toBe('llama');
    expect(ch.defaultTestModelOf('')).toBe('');
  });

  it("a row's test model: the dropdown's choice, else the default", () => {
    expect(ch.testModelOf(row)).toBe('a');
    expect(ch.testModelOf({ ...row, test_model: 'b' })).toBe('b');
    expect(ch.testModelOf({ ...row, test_model: '' })).toBe('a');
  });
});

describe('row and bulk actions', () => {
  it('knows its action names and nothing else', () => {
    for (const a of [...Object.values(ch.channelRowActions), ...Object.values(ch.channelBulkActions)]) expect(ch.isChannelAction(a)).toBe(true);
    expect(ch.isChannelAction('explode')).toBe(false);
    expect(ch.isChannelBulkAction('toggle')).toBe(false);
    expect(ch.isChannelBulkAction('setGroup')).toBe(true);
    expect(ch.channelBulkValueActions.filter(ch.isChannelBulkValueAction)).toEqual(['priority', 'addModel', 'removeModel', 'setGroup']);
    expect(ch.isChannelBulkValueAction('enable')).toBe(false);
    expect(ch.isDangerousChannelAction('delete')).toBe(true);
    expect(ch.isDangerousChannelAction('disable')).toBe(false);
  });

  it('names a bulk run: with its value when it took one', () => {
    expect(ch.channelBulkRunLabel('priority', '5')).toEqual({ key: 'channels.bulk.label.priority', value: '5' });
    expect(ch.channelBulkRunLabel('priority', '')).toEqual({ key: 'channels.bulk.priority' });
    expect(ch.channelBulkRunLabel('disable', '')).toEqual({ key: 'channels.bulk.disable' });
    expect(ch.channelBulkRunLabel('explode', 'x')).toBeNull();
  });

  it('every bulk label is a catalogue key', () => {
    const keys = [
      ...Object.values(ch.channelBulkActions).map(ch.channelBulkLabelKey),
      ...ch.channelBulkValueActions.flatMap((a) => [ch.channelBulkValueLabelKey(a), ch.channelBulkFieldKey(a)]),
    ];
    for (const key of keys) expect(isMessageKey(key), key).toBe(true);
  });
});

describe('inline numbers (priority, weight)', () => {
  it('parses: empty and non-numbers ignored, fractions truncated, weight clamps negatives', () => {
    expect(ch.parseInlineNumber('', 'priority')).toBeNull();
    expect(ch.parseInlineNumber('  ', 'weight')).toBeNull();
    expect(ch.parseInlineNumber('abc', 'priority')).toBeNull();
    expect(ch.parseInlineNumber('-3', 'priority')).toBe(-3);
    expect(ch.parseInlineNumber('-3', 'weight')).toBe(0);
    expect(ch.parseInlineNumber('4.7', 'priority')).toBe(4);
  });

  it('saves only a number that differs from the shown one', () => {
    expect(ch.inlineNumberToSave('12', 'priority', 10)).toBe('12');
    expect(ch.inlineNumberToSave('10.9', 'priority', 10)).toBeNull();
    expect(ch.inlineNumberToSave('', 'priority', 10)).toBeNull();
    expect(ch.inlineNumberToSave('x', 'weight', 1)).toBeNull();
    expect(ch.inlineNumberToSave('-4', 'weight', 2)).toBe('0');
    expect(ch.inlineNumberToSave('-4', 'weight', 0)).toBeNull();
  });
});

describe('the test state of a row (response-time cell)', () => {
  const base: ch.ChannelRow = { id: 1, type: 1, name: 'a', status: 1, models: 'gpt-4o', group: 'default' };
  it('never tested: no test time', () => {
    expect(channelTestStateOf(base)).toEqual({ kind: 'untested' });
    expect(channelTestStateOf({ ...base, response_time: 0, test_time: 0 })).toEqual({ kind: 'untested' });
  });
  it('0 ms with a test time is a failed single test (the server kept no message)', () => {
    expect(channelTestStateOf({ ...base, response_time: 0, test_time: 1700000000 })).toEqual({ kind: 'failed', message: null, test_time: 1700000000 });
  });
  it('a stored time passed, in its band', () => {
    expect(channelTestStateOf({ ...base, response_time: 812, test_time: 5 })).toEqual({ kind: 'passed', band: 'fast', ms: 812, test_time: 5 });
    expect(channelTestStateOf({ ...base, response_time: 2500, test_time: 5 })).toMatchObject({ band: 'ok' });
    expect(channelTestStateOf({ ...base, response_time: 4500, test_time: 5 })).toMatchObject({ band: 'slow' });
    expect(channelTestStateOf({ ...base, response_time: 9000, test_time: 5 })).toMatchObject({ band: 'bad' });
  });
  it('a failed batch result wins over the elapsed time the run stored (never a green badge)', () => {
    const row = { ...base, response_time: 3, test_time: 10 };
    const live = { success: false, message: 'http status code: 401', response_time: 3, test_time: 10 };
    expect(channelTestStateOf(row, live)).toEqual({ kind: 'failed', message: 'http status code: 401', test_time: 10 });
    expect(channelTestStateOf({ ...row, last_test: { ...live, response_time: 0 } })).toMatchObject({ kind: 'failed', message: 'http status code: 401' });
  });
  it('the newest of the live result and the kept one decides', () => {
    const kept = { success: false, message: 'boom', response_time: 0, test_time: 20 };
    const older = { success: true, message: 'ok', response_time: 700, test_time: 10 };
    expect(channelTestStateOf({ ...base, last_test: kept }, older)).toMatchObject({ kind: 'failed', message: 'boom' });
    expect(channelTestStateOf({ ...base, last_test: kept }, { ...older, test_time: 30 })).toEqual({ kind: 'passed', band: 'fast', ms: 700, test_time: 30 });
  });
});

describe('balance failures as sentences', () => {
  it('maps the known server texts and keeps unknown ones, naming the channel', () => {
    expect(ch.balanceFailureMessage('n', 'status code: 404')).toEqual({ key: 'channels.balance.failed.noEndpoint', params: { name: 'n', detail: 'status code: 404' } });
    expect(ch.balanceFailureMessage('n', '尚未实现')).toEqual({ key: 'channels.balance.failed.unsupported', params: { name: 'n' } });
    expect(ch.balanceFailureMessage('n', 'status code: 401')).toMatchObject({ key: 'channels.balance.failed.refused' });
    expect(ch.balanceFailureMessage('n', 'status code: 429')).toMatchObject({ key: 'channels.balance.failed.tooMany' });
    expect(ch.balanceFailureMessage('n', 'status code: 502')).toMatchObject({ key: 'channels.balance.failed.upstream' });
    expect(ch.balanceFailureMessage('n', 'currency CNY not found')).toEqual({ key: 'channels.balance.failed.other', params: { name: 'n', detail: 'currency CNY not found' } });
    expect(ch.balanceFailureMessage('n', '')).toMatchObject({ key: 'channels.balance.failed.other', params: { detail: '?' } });
  });
});
