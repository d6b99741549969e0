import type { Message, MessageKey } from './message';

/**
 * The command palette's items and how a query finds them (pure): pages and actions are local,
 * matched on their keywords in Chinese and English; channels, tokens and users come from the
 * servers' search answers and link to their edit pages.
 */

export type PaletteGroup = 'pages' | 'actions' | 'channels' | 'tokens' | 'users';
/** The order the groups are shown in (and arrow keys walk). */
export const paletteGroups: readonly PaletteGroup[] = ['pages', 'actions', 'channels', 'tokens', 'users'];

/** What leaves the palette as an emitted `command` event: the shell runs it on the app actors. */
export type PaletteCommand = 'theme.toggle' | 'lang.toggle' | 'signOut';

/** Emitted by the palette: the shell runs the command on the app-lifetime actors. */
export interface PaletteCommandEvent {
  readonly type: 'command';
  readonly command: PaletteCommand;
}

export type PaletteRun =
  | { readonly kind: 'navigate'; readonly to: string }
  | { readonly kind: 'command'; readonly command: PaletteCommand }
  | { readonly kind: 'testChannels' };

export interface PaletteItem {
  /** Unique among the results: `page:/token`, `action:signOut`, `channel:3`. */
  readonly id: string;
  readonly group: PaletteGroup;
  readonly label: Message;
  /** A second line (an entity's id), or none. */
  readonly detail?: string;
  readonly run: PaletteRun;
}

/** An entity the search APIs found, reduced to what the palette shows. */
export interface PaletteEntity {
  readonly id: number;
  readonly name: string;
}

export interface PaletteEntities {
  readonly channels: readonly PaletteEntity[];
  readonly tokens: readonly PaletteEntity[];
  readonly users: readonly PaletteEntity[];
}

export const noEntities: PaletteEntities = { channels: [], tokens: [], users: [] };

interface LocalEntry {
  readonly item: PaletteItem;
  /** Words that find the entry, in both languages (the title first). */
  readonly keywords: readonly string[];
  readonly admin?: true;
}

const page = (to: string, key: MessageKey, keywords: readonly string[], admin?: true): LocalEntry => ({
  item: { id: `page:${to}`, group: 'pages', label: { key }, run: { kind: 'navigate', to } },
  keywords,
  ...(admin ? { admin } : {}),
});

const action = (id: string, key: MessageKey, run: PaletteRun, keywords: readonly string[], admin?: true): LocalEntry => ({
  item: { id: `action:${id}`, group: 'actions', label: { key }, run },
  keywords,
  ...(admin ? { admin } : {}),
});

/** Every page a viewer may open from the palette (spec §2's menu, plus the personal pages) and every action. */
const localEntries: readonly LocalEntry[] = [
  page('/', 'shell.nav.home', ['home', '首页', 'start']),
  page('/dashboard', 'shell.nav.dashboard', ['dashboard', '仪表盘', '数据看板', 'usage', 'stats', '统计']),
  page('/channel', 'shell.nav.channel', ['channels', '渠道', 'upstream', 'providers'], true),
  page('/token', 'shell.nav.token', ['tokens', '令牌', 'keys', 'api key', '密钥']),
  page('/redemption', 'shell.nav.redemption', ['redemptions', '兑换', '兑换码', 'codes'], true),
  page('/topup', 'shell.nav.topup', ['top up', 'topup', '充值', 'balance', '余额', 'recharge']),
  page('/user', 'shell.nav.user', ['users', '用户', 'accounts', '账户'], true),
  page('/log', 'shell.nav.log', ['logs', '日志', 'history', '记录']),
  page('/pricing', 'shell.nav.pricing', ['pricing', 'prices', 'models', '模型', '价格', '定价', 'cost']),
  page('/setting', 'shell.nav.setting', ['settings', '设置', 'preferences', 'options', '配置']),
  page('/user/edit', 'palette.page.profile', ['profile', '个人信息', 'account', 'my account', '资料']),
  page('/about', 'shell.nav.about', ['about', '关于']),
  action('newToken', 'palette.action.newToken', { kind: 'navigate', to: '/token/add' }, ['new token', 'add token', 'create token', '新建令牌', '添加令牌', '创建令牌']),
  action('testChannels', 'palette.action.testChannels', { kind: 'testChannels' }, ['test all channels', 'test channels', '测试所有渠道', '测试渠道'], true),
  action('theme', 'palette.action.toggleTheme', { kind: 'command', command: 'theme.toggle' }, ['toggle theme', 'dark mode', 'light mode', 'color mode', '切换主题', '深色', '浅色', '主题']),
  action('lang', 'palette.action.toggleLanguage', { kind: 'command', command: 'lang.toggle' }, ['toggle language', 'language', 'english', 'chinese', '切换语言', '语言', '中文', '英文']),
  action('signOut', 'palette.action.signOut', { kind: 'command', command: 'signOut' }, ['sign out', 'log out', 'logout', '退出登录', '登出', '注销']),
];

const normalise = (text: string): string => text.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * How well `query` matches `text` (higher is better), or 0 for no match: the whole text, a
 * prefix, a word's prefix, a substring, then the query's characters in order (fuzzy-ish).
 */
export function matchScore(query: string, text: string): number {
  const q = normalise(query);
  const s = normalise(text);
  if (q === '') return 1;
  if (s === q) return 100;
  if (s.startsWith(q)) return 80;
  if (s.split(' ').some((word) => word.startsWith(q))) return 60;
  if (s.includes(q)) return 40;
  let at = 0;
  for (const ch of s) {
    if (ch === q[at]) at += 1;
    if (at === q.length) return 10;
  }
  return 0;
}

/** The best score of any keyword of the entry. */
const scoreOf = (query: string, entry: LocalEntry): number => Math.max(0, ...entry.keywords.map((k) => matchScore(query, k)));

/**
 * The pages and actions a viewer may use that match `query`, best first (in their list order
 * when equal); an empty query lists them all. Admin entries only for admins.
 */
export function localResults(query: string, isAdmin: boolean): readonly PaletteItem[] {
  return localEntries
    .filter((e) => e.admin !== true || isAdmin)
    .map((e, index) => ({ item: e.item, index, score: scoreOf(query, e) }))
    .filter((e) => e.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((e) => e.item);
}

/** Every page a viewer may open (for the tests: admins see more). */
export const pagesFor = (isAdmin: boolean): readonly string[] =>
  localEntries.filter((e) => e.item.group === 'pages' && (e.admin !== true || isAdmin)).map((e) => (e.item.run as { to: string }).to);

const entityItems = (group: 'channels' | 'tokens' | 'users', path: string, list: readonly PaletteEntity[]): PaletteItem[] =>
  list.map((e) => ({ id: `${group}:${e.id}`, group, label: { text: e.name }, detail: `#${e.id}`, run: { kind: 'navigate', to: `/${path}/edit/${e.id}` } }));

/** The most entities of one kind the palette lists. */
export const entityLimit = 8;

/** Pages, actions, then the entities found, grouped in `paletteGroups` order: what the list shows and the arrows walk. */
export function paletteResults(query: string, isAdmin: boolean, entities: PaletteEntities): readonly PaletteItem[] {
  return [
    ...localResults(query, isAdmin),
    ...(isAdmin ? entityItems('channels', 'channel', entities.channels.slice(0, entityLimit)) : []),
    ...entityItems('tokens', 'token', entities.tokens.slice(0, entityLimit)),
    ...(isAdmin ? entityItems('users', 'user', entities.users.slice(0, entityLimit)) : []),
  ];
}

/** The keyword sent to the search APIs: the query trimmed; empty means no search. */
export const searchKeyword = (query: string): string => query.trim();

/** The index `step` places from `index` among `count` items, wrapping around (0 when there are none). */
export const moveIndex = (index: number, step: number, count: number): number => (count === 0 ? 0 : (((index + step) % count) + count) % count);
