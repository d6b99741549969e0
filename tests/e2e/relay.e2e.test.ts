import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import type { BrowserContext, Page } from 'playwright';
import { copyText } from '../../src/domain/chatLinks';
import { formatNumber } from '../../src/domain/format';
import { Client } from '../server/support/http';
import { replyText, startRelayUpstream, upstreamUsage, type RelayUpstream } from '../server/support/relayUpstream';
import { chooseMenuItem, setOptions, startGateway, type GatewayUnderTest } from './support/gateway';
import { closeToasts, expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/*
 * The relay end to end (issue 6, "Done when"), with a fake OpenAI-compatible upstream: root
 * creates a channel to it with the console form; a user creates a token in the console and
 * copies its key; the official openai SDK calls the gateway's /v1 with that key (non-streaming
 * and streaming); the user's log page shows both consume rows with their tokens, the token list
 * the used quota, the row's 'test' button the relay's answer (and, once the token is disabled,
 * the relay's refusal), and the chat links carry the gateway's address and the key.
 */

let gw: GatewayUnderTest;
let upstream: RelayUpstream;
let root: Client;

const username = 'relayuser';
const password = 'relayuser-pass-1';
const model = 'gpt-3.5-turbo';
const upstreamKey = 'upstream-key-e2e';
const tokenName = 'e2e-relay';

beforeAll(async () => {
  gw = await startGateway();
  upstream = await startRelayUpstream();
  root = await gw.root();
  // The new user gets quota to spend; quotas show as plain numbers (a few tokens are far below
  // $0.01); chat links use this gateway's address.
  await setOptions(root, { QuotaForNewUser: '10000000', DisplayInCurrencyEnabled: 'false', ServerAddress: gw.url });
  const user = new Client(gw.url);
  const registered = await user.post('/api/user/register', { username, password, password2: password, email: '', verification_code: '', aff_code: '' });
  expect(registered.body?.success, registered.text).toBe(true);
}, 180_000);

afterAll(async () => {
  await upstream?.close();
  await gw?.close();
});

/** A browser context with generous timeouts (the machine running the suite may be busy). */
async function open(options: Parameters<GatewayUnderTest['newContext']>[0] = {}): Promise<BrowserContext> {
  const context = await gw.newContext(options);
  context.setDefaultTimeout(60_000);
  context.setDefaultNavigationTimeout(120_000);
  return context;
}

async function signIn(page: Page, name: string, secret: string, landing: string): Promise<void> {
  await page.goto(`${gw.url}/login`);
  const form = page.getByRole('form', { name: '用户登录' });
  await form.getByLabel('用户名或邮箱').fill(name);
  await form.getByLabel('密码').fill(secret);
  await form.getByRole('button', { name: '登录' }).click();
  await page.waitForURL(`${gw.url}${landing}`);
}

interface WireToken {
  readonly id: number;
  readonly name: string;
  readonly key: string;
  readonly used_quota: number;
}

async function tokenOnServer(client: Client): Promise<WireToken> {
  const list = await client.request('GET', '/api/token/?p=0');
  expect(list.body?.success, list.text).toBe(true);
  return (list.body?.data as WireToken[]).find((t) => t.name === tokenName)!;
}

const clipboardText = (page: Page): Promise<string> => page.evaluate(() => navigator.clipboard.readText());

describe('the relay from the console', () => {
  it('a channel and a token made in the console serve the openai SDK; logs, quota, test and chat links follow', async () => {
    // ---- root: a channel to the fake upstream, through the form ----
    const rootContext = await open();
    const rootPage = await rootContext.newPage();
    const rootToasts = await watchToasts(rootPage);
    await signIn(rootPage, 'root', '123456', '/user/edit');
    await rootPage.goto(`${gw.url}/channel/add`);
    const channelForm = rootPage.getByRole('form');
    await channelForm.locator('select[name="type"]').selectOption('8');
    await channelForm.getByLabel(/^名称/).fill('e2e-relay-upstream');
    await channelForm.getByLabel('Base URL').fill(upstream.url);
    await channelForm.getByLabel(/^密钥/).fill(upstreamKey);
    const clear = channelForm.getByRole('button', { name: '清除所有模型' });
    if (await clear.isEnabled()) await clear.click();
    await channelForm.getByLabel('自定义模型名称').fill(model);
    await channelForm.getByRole('button', { name: '填入', exact: true }).click();
    await channelForm.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => rootToasts.texts, { timeout: 15_000 }).toContain('渠道创建成功！');
    expectNoUnexpectedErrors(rootToasts);
    await rootContext.close();

    // ---- the user: a token made in the console, its key copied ----
    const context = await open({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await signIn(page, username, password, '/token');
    await page.goto(`${gw.url}/token/add`);
    const tokenForm = page.getByRole('form', { name: '创建新的令牌' });
    await tokenForm.getByLabel(/^名称/).fill(tokenName);
    await tokenForm.getByRole('button', { name: '提交' }).click();
    const table = page.getByRole('table', { name: '令牌' });
    await table.getByText(tokenName, { exact: true }).waitFor();

    const user = new Client(gw.url);
    expect((await user.login(username, password)).body?.success).toBe(true);
    const created = await tokenOnServer(user);
    const label = `${tokenName}（#${created.id}）`;
    const row = table.getByRole('row').filter({ has: page.getByText(tokenName, { exact: true }) });
    await row.getByRole('cell', { name: formatNumber(0), exact: true }).waitFor();

    await page.getByRole('button', { name: `复制令牌 ${label}` }).click();
    await expect.poll(() => clipboardText(page)).toBe(`sk-${created.key}`);
    const apiKey = await clipboardText(page);

    // ---- the openai SDK, unchanged, against the gateway's /v1 ----
    const sdk = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey, maxRetries: 0, timeout: 20_000 });
    const models = await sdk.models.list();
    expect(models.data.map((m) => m.id)).toContain(model);
    const answer = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello.' }] });
    expect(answer.choices[0]?.message.content).toBe(replyText(model));
    expect(answer.usage?.prompt_tokens).toBe(upstreamUsage.prompt_tokens);
    const stream = await sdk.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Say hello, slowly.' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(replyText(model));
    // the gateway sent the channel's key upstream, never the token's
    expect(upstream.requestsFor(upstreamKey).length).toBeGreaterThanOrEqual(2);
    expect(upstream.requests.some((r) => r.key.includes(created.key))).toBe(false);

    // ---- the log page: both consume rows with their tokens ----
    // Each consume log is written once its answer has settled (the stream's after its end): wait
    // for both on the server, so that the page's first fetch, which index.html's script sends as
    // the page loads, finds them (the page does not fetch again by itself).
    const logsOf = async () => ((await user.get('/api/log/self/?p=0')).body?.data as { model_name?: string }[] | undefined) ?? [];
    await expect.poll(async () => (await logsOf()).filter((l) => l.model_name === model).length, { timeout: 15_000 }).toBe(2);
    await page.goto(`${gw.url}/log`);
    await page.getByRole('heading', { name: '使用明细' }).waitFor();
    const logRows = page.getByRole('table', { name: '使用明细' }).locator('tbody tr').filter({ hasText: model });
    await expect.poll(() => logRows.count(), { timeout: 15_000 }).toBe(2);
    const plain = logRows.filter({ hasText: '非流' });
    const streamedRow = logRows.filter({ has: page.getByText('流', { exact: true }) });
    await plain.waitFor();
    await streamedRow.waitFor();
    for (const logRow of [plain, streamedRow]) {
      await logRow.getByText(tokenName, { exact: true }).waitFor();
      await logRow.getByText(String(upstreamUsage.prompt_tokens), { exact: true }).waitFor();
      await logRow.getByText(String(upstreamUsage.completion_tokens), { exact: true }).waitFor();
    }

    // ---- the token list: the used quota the two requests cost ----
    const spent = await tokenOnServer(user);
    expect(spent.used_quota).toBeGreaterThan(0);
    await page.goto(`${gw.url}/token`);
    await row.getByRole('cell', { name: formatNumber(spent.used_quota), exact: true }).waitFor();

    // ---- 'test' on the row: the relay's answer in the toast ----
    await page.getByRole('button', { name: `测试令牌 ${label}` }).click();
    await expect
      .poll(() => toasts.texts.find((t) => t.startsWith(`令牌 ${tokenName} 测试成功`)), { timeout: 15_000 })
      .toMatch(new RegExp(`^令牌 ${tokenName} 测试成功：模型 ${model}，耗时 \\d+\\.\\d{2} 秒，回复：${replyText(model)}$`));
    const lastChat = upstream.requestsFor(upstreamKey).at(-1)!;
    expect(lastChat.json).toMatchObject({ model, max_tokens: 8, messages: [{ role: 'user', content: 'ping' }] });
    expect(lastChat.stream).toBe(false);

    // ---- chat links: the gateway's address and the key ----
    // the toast sits over the row's end (and stays while the pointer rests on it): closed first
    await closeToasts(page);
    await page.getByRole('button', { name: `令牌 ${label} 的复制格式` }).click();
    await chooseMenuItem(page, '复制 LobeChat 链接');
    await expect.poll(() => clipboardText(page)).toBe(copyText('lobechat', { key: created.key, serverAddress: gw.url, chatLink: '' }));
    const lobe = await clipboardText(page);
    expect(lobe).toContain(`"baseURL":"${gw.url}/v1"`);
    expect(lobe).toContain(`sk-${created.key}`);
    const chat = page.getByRole('link', { name: `聊天：在 NextChat 中使用令牌 ${label}` });
    expect(await chat.getAttribute('href')).toBe(copyText('next', { key: created.key, serverAddress: gw.url, chatLink: '' }));

    // ---- a disabled token: 'test' shows the relay's own refusal (not a signed-out console) ----
    await closeToasts(page);
    await page.getByRole('button', { name: `禁用令牌 ${label}` }).click();
    await page.getByRole('button', { name: `启用令牌 ${label}` }).waitFor();
    await closeToasts(page);
    await page.getByRole('button', { name: `测试令牌 ${label}` }).click();
    await expect.poll(() => toasts.errors.find((t) => t.startsWith('该令牌状态不可用')), { timeout: 15_000 }).toBeDefined();
    expect(page.url()).toBe(`${gw.url}/token`);
    const refusal = toasts.errors.find((t) => t.startsWith('该令牌状态不可用'))!;
    expectNoUnexpectedErrors(toasts, [refusal]);
    await context.close();
  });
});
