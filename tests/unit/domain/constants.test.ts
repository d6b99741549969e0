import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as c from '../../../src/domain/constants';
import {
  channelExtraFields,
  channelFormNoteKey,
  channelKeyHintKey,
  channelTypeLabel,
  channelTypes,
  relaySupportHintKey,
  relaySupportKey,
} from '../../../src/domain/channelTypes';
import { isMessageKey, renderMessage, type MessageKey } from '../../../src/i18n';
import { catalogues } from '../../../src/i18n/all';

const zh = (labelKey: MessageKey) => renderMessage('zh', { key: labelKey });
const en = (labelKey: MessageKey) => renderMessage('en', { key: labelKey });

describe('roles (spec §4)', () => {
  it('labels 1, 10, 100 and calls anything else unknown identity', () => {
    expect([1, 10, 100].map((r) => zh(c.roleOf(r).labelKey))).toEqual(['普通用户', '管理员', '超级管理员']);
    for (const r of [0, 2, 9, 11, 99, 101, -1]) {
      expect(c.roleOf(r)).toEqual({ value: r, labelKey: 'domain.role.unknown', color: 'red' });
    }
    expect(zh('domain.role.unknown')).toBe('未知身份');
    expect(en('domain.role.unknown')).toBe('Unknown identity');
  });
  it('admin is role >= 10, root role >= 100, no user is neither', () => {
    expect([0, 1, 9, 10, 11, 99, 100, 1000].map(c.isAdmin)).toEqual([false, false, false, true, true, true, true, true]);
    expect([1, 10, 99, 100, 101].map(c.isRoot)).toEqual([false, false, false, true, true]);
    expect(c.isAdmin(undefined)).toBe(false);
    expect(c.isRoot(undefined)).toBe(false);
  });
});

describe('user status (spec §4)', () => {
  it('1 activated, 2 banned, else unknown', () => {
    expect(zh(c.userStatusOf(1).labelKey)).toBe('已激活');
    expect(zh(c.userStatusOf(2).labelKey)).toBe('已封禁');
    expect(c.userStatusOf(3)).toEqual({ value: 3, labelKey: 'domain.userStatus.unknown', color: 'gray' });
    expect(c.userStatusOf(1).color).toBe('green');
    expect(c.userStatusOf(2).color).toBe('red');
  });
  it('the toggle disables an activated user and enables any other', () => {
    expect(c.userToggleAction(1)).toBe('disable');
    expect(c.userToggleAction(2)).toBe('enable');
    expect(c.userToggleAction(0)).toBe('enable');
  });
});

describe('channel status (spec §4)', () => {
  it('1 green enabled, 2 red manually disabled, 3 yellow auto-disabled, else unknown', () => {
    const [enabled, manual, auto] = [1, 2, 3].map(c.channelStatusOf);
    expect(enabled).toMatchObject({ value: 1, color: 'green' });
    expect(zh(enabled!.labelKey)).toBe('已启用');
    expect(manual).toMatchObject({ value: 2, color: 'red', tooltipKey: 'domain.channelStatus.manuallyDisabled' });
    expect(zh(manual!.labelKey)).toBe('已禁用');
    expect(en(manual!.tooltipKey!)).toMatch(/manually/);
    expect(auto).toMatchObject({ value: 3, color: 'yellow', tooltipKey: 'domain.channelStatus.autoDisabled' });
    expect(zh(auto!.tooltipKey!)).toBe('本渠道被程序自动禁用');
    expect(c.channelStatusOf(0)).toEqual({ value: 0, labelKey: 'domain.channelStatus.unknown', color: 'gray' });
    expect(c.channelStatusOf(4).labelKey).toBe('domain.channelStatus.unknown');
  });
  it('the button switches 1 to 2 and anything else to 1', () => {
    expect([1, 2, 3, 0].map(c.nextChannelStatus)).toEqual([2, 1, 1, 1]);
  });
});

describe('token status (spec §4)', () => {
  it('1 enabled, 2 disabled, 3 expired, 4 exhausted, else unknown', () => {
    expect([1, 2, 3, 4].map((s) => zh(c.tokenStatusOf(s).labelKey))).toEqual(['已启用', '已禁用', '已过期', '已耗尽']);
    expect([1, 2, 3, 4].map((s) => en(c.tokenStatusOf(s).labelKey))).toEqual(['Enabled', 'Disabled', 'Expired', 'Exhausted']);
    expect(c.tokenStatusOf(5).labelKey).toBe('domain.tokenStatus.unknown');
    expect(c.tokenStatusOf(5).value).toBe(5);
  });
  it('the toggle sets 1 or 2', () => {
    expect([1, 2, 3, 4].map(c.nextTokenStatus)).toEqual([2, 1, 1, 1]);
  });
});

describe('redemption status (spec §4)', () => {
  it('1 unused, 2 disabled, 3 used, else unknown', () => {
    expect([1, 2, 3].map((s) => zh(c.redemptionStatusOf(s).labelKey))).toEqual(['未使用', '已禁用', '已使用']);
    expect(c.redemptionStatusOf(0).labelKey).toBe('domain.redemptionStatus.unknown');
  });
  it('a used code cannot be toggled; the toggle sets 1 or 2', () => {
    expect([1, 2, 3].map(c.canToggleRedemption)).toEqual([true, true, false]);
    expect([1, 2].map(c.nextRedemptionStatus)).toEqual([2, 1]);
  });
});

describe('log types (spec §4, contract §3.2)', () => {
  it('0 all, 1 top-up, 2 consumption, 3 management, 4 system (and 5 test on rows)', () => {
    expect([0, 1, 2, 3, 4, 5].map((t) => zh(c.logTypeOf(t).labelKey))).toEqual(['全部', '充值', '消费', '管理', '系统', '测试']);
    expect(c.logTypeOf(6)).toEqual({ value: 6, labelKey: 'domain.logType.unknown', color: 'gray' });
  });
  it('the filter dropdown offers 0..4', () => {
    expect(c.logTypeFilterOptions.map((t) => t.value)).toEqual([0, 1, 2, 3, 4]);
  });
  it('colours follow one-api (consumption olive → teal)', () => {
    expect(c.logTypeOf(1).color).toBe('green');
    expect(c.logTypeOf(2).color).toBe('teal');
    expect(c.logTypeOf(3).color).toBe('orange');
  });
});

describe('palette mapping', () => {
  it('maps every Semantic UI colour to a Chakra palette', () => {
    const pairs: [c.SemanticColor, c.Palette][] = [
      ['green', 'green'], ['red', 'red'], ['yellow', 'yellow'], ['orange', 'orange'], ['olive', 'teal'],
      ['teal', 'cyan'], ['blue', 'blue'], ['violet', 'purple'], ['purple', 'purple'], ['pink', 'pink'],
      ['brown', 'orange'], ['grey', 'gray'], ['black', 'gray'],
    ];
    for (const [semantic, palette] of pairs) expect(c.paletteOf(semantic), semantic).toBe(palette);
  });
});

describe('business constants (spec §9, contract §3.3)', () => {
  it('has the spec values', () => {
    expect(c.pageSize).toBe(10);
    expect(c.paginationSiblingRange).toBe(1);
    expect(c.tokenDefaults).toEqual({ remain_quota: 500000, expired_time: -1, unlimited_quota: false });
    expect(c.redemptionDefaults).toEqual({ quota: 100000, count: 1 });
    expect(c.defaultAzureApiVersion).toBe('2024-03-01-preview');
    expect([c.passwordMinLength, c.passwordMaxLength, c.usernameMaxLength, c.usernameDisplayLength]).toEqual([8, 20, 12, 15]);
    expect(c.resendCooldownSeconds).toBe(30);
    expect(c.wechatCodeValidMinutes).toBe(3);
    expect(c.oauthRetryBaseMs).toBe(2000);
    expect(c.responseTimeThresholdsMs).toEqual({ fast: 1000, ok: 3000, slow: 5000 });
    expect(c.mobileBreakpointPx).toBe(600);
    expect(c.logCleanDefaultOffsetSeconds).toBe(2592000);
    expect(c.logDefaultRangeAheadSeconds).toBe(3600);
    expect(c.defaultLogo).toBe('/logo.png');
    expect(c.tokenKeyPrefix).toBe('sk-');
    expect(c.defaultTestModel).toBe('gpt-3.5-turbo');
    expect(c.defaultSmtpPort).toBe(587);
    expect(c.popupDelayMs).toEqual({ open: 50, close: 70 });
    expect(c.lazyLoadTimeoutMs).toBe(120000);
    expect(c.footerPoll).toEqual({ intervalMs: 200, times: 5 });
  });
  it('toast durations per level; notices are sticky', () => {
    expect(c.toastDurationMs).toEqual({ success: 1500, info: 3000, error: 5000, warning: 10000, notice: 20000 });
    expect(c.isStickyToast('notice')).toBe(true);
    expect(c.isStickyToast('info')).toBe(false);
    expect(c.isStickyToast('error')).toBe(false);
  });
  it('mobile is width 600 px or less', () => {
    expect(c.isMobileWidth(600)).toBe(true);
    expect(c.isMobileWidth(320)).toBe(true);
    expect(c.isMobileWidth(601)).toBe(false);
  });
  it('expiry quick buttons: never, month = 30 days, day, hour, minute', () => {
    const now = 1_700_000_000;
    expect(c.expiryQuickOptions.map((o) => o.id)).toEqual(['never', 'month', 'day', 'hour', 'minute']);
    expect(c.expiryQuickOptions.map((o) => zh(o.labelKey))).toEqual([
      '永不过期', '一个月后过期', '一天后过期', '一小时后过期', '一分钟后过期',
    ]);
    expect(c.expiryFromQuick('never', now)).toBe(-1);
    expect(c.expiryFromQuick('month', now)).toBe(now + 30 * 24 * 3600);
    expect(c.expiryFromQuick('day', now)).toBe(now + 86400);
    expect(c.expiryFromQuick('hour', now)).toBe(now + 3600);
    expect(c.expiryFromQuick('minute', now)).toBe(now + 60);
  });
  it('recognises the bootstrap root login root / 123456 only', () => {
    expect(c.defaultRootUsername).toBe('root');
    expect(c.defaultRootPassword).toBe('123456');
    expect(c.isDefaultRootLogin('root', '123456')).toBe(true);
    expect(c.isDefaultRootLogin('root', '1234567')).toBe(false);
    expect(c.isDefaultRootLogin('Root', '123456')).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Every key src/domain can emit is in the catalogue, and every domain/validation key is used.

const domainDir = path.resolve(process.cwd(), 'src/domain');
const literalKeys = (): Set<string> => {
  const keys = new Set<string>();
  for (const file of readdirSync(domainDir).filter((f) => f.endsWith('.ts'))) {
    const source = readFileSync(path.join(domainDir, file), 'utf8');
    // a quoted prefix ending in '.' (a MessageKeySuffix argument) is not a key
    for (const m of source.matchAll(/'((?:domain|validation)\.[\w.]*\w)'/g)) keys.add(m[1]!);
  }
  return keys;
};
const generatedKeys = (): Set<string> => {
  const keys = new Set<string>();
  // the generic relay-support labels are reached through the support's name, by any type that has no reason of its own
  for (const support of ['native', 'compatible', 'openai', 'none']) keys.add(`domain.channelType.relay.${support}`).add(`domain.channelType.relayHint.${support}`);
  for (const t of channelTypes) {
    if (t.descriptionKey !== undefined) keys.add(t.descriptionKey);
    if (t.tipKey !== undefined) keys.add(t.tipKey);
    keys.add(channelKeyHintKey(t.value));
    keys.add(relaySupportKey(t.value));
    keys.add(relaySupportHintKey(t.value));
    for (const f of channelExtraFields(t.value)) {
      keys.add(f.labelKey);
      if (f.placeholderKey !== undefined) keys.add(f.placeholderKey);
    }
    const label = channelTypeLabel(t.value);
    if ('key' in label) keys.add(label.key);
    const note = channelFormNoteKey(t.value);
    if (note !== null) keys.add(note);
  }
  return keys;
};

describe('catalogue coverage', () => {
  it('every key the domain emits exists in the catalogue', () => {
    const keys = [...literalKeys(), ...generatedKeys()];
    expect(keys.length).toBeGreaterThan(80);
    expect(keys.filter((k) => !isMessageKey(k))).toEqual([]);
  });
  it('every domain.* and validation.* catalogue key is emitted by the domain', () => {
    const emitted = new Set([...literalKeys(), ...generatedKeys()]);
    const areaKeys = Object.keys(catalogues.zh).filter((k) => k.startsWith('domain.') || k.startsWith('validation.'));
    expect(areaKeys.filter((k) => !emitted.has(k))).toEqual([]);
  });
  it('no zh or en text of these areas is empty', () => {
    const areaKeys = Object.keys(catalogues.zh)
      .filter(isMessageKey)
      .filter((k) => k.startsWith('domain.') || k.startsWith('validation.'));
    for (const k of areaKeys) {
      expect(en(k).trim(), k).not.toBe('');
      expect(zh(k).trim(), k).not.toBe('');
    }
  });
});
