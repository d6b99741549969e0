import { describe, expect, it } from 'vitest';
import { apiBodyLimits, formatBytes, jsonShapeRefusal, nestedDeeperThan, trimTrailingSlashes } from '../../server/http/bodyGuard';
import { judgeRequest } from '../../server/http/csrf';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/** Body limits before parsing (issue 18 §1): the scan itself, and the refusals on a real server. */

describe('the JSON shape scan', () => {
  it('counts only brackets outside strings, escapes included', () => {
    expect(nestedDeeperThan('[[[]]]', 3)).toBe(false);
    expect(nestedDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(nestedDeeperThan('{"a":"[[[[[[[[[["}', 1)).toBe(false);
    expect(nestedDeeperThan(String.raw`{"a":"\"[[[[","b":"\\"}`, 1)).toBe(false);
    expect(nestedDeeperThan(String.raw`{"a":"\\\"[[[[","b":[[[1]]]}`, 2)).toBe(true);
    expect(nestedDeeperThan('"unterminated [[[[[', 1)).toBe(false);
    expect(jsonShapeRefusal('[1,2,3]', 8, 2)).toBe(null);
    expect(jsonShapeRefusal('[1,2,3,4]', 8, 2)).toBe('too_many');
    expect(jsonShapeRefusal('{"a":1}', 8, 0)).toBe('too_many');
    expect(jsonShapeRefusal('{"a":",,,,::::"}', 8, 1)).toBe(null);
  });

  it('scans 32 MB of base64 and a 4 MB bracket run in milliseconds', () => {
    const image = JSON.stringify({ messages: [{ content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${'QUJD'.repeat(8_000_000)}` } }] }] });
    const started = performance.now();
    expect(jsonShapeRefusal(image, 128, 400_000)).toBe(null);
    expect(nestedDeeperThan('['.repeat(4_000_000), 32)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('a request path of 16,000 slashes costs microseconds, not a quadratic regex (140 ms each before)', () => {
    const path = `/api${'/'.repeat(16_000)}x`;
    const facts = { method: 'POST', path, secFetchSite: 'same-origin', origin: undefined, referer: undefined, ownHosts: ['127.0.0.1'], hasSessionCookie: false, hasAuthorization: false, contentType: undefined, hasBody: false };
    expect(trimTrailingSlashes('/api/user///')).toBe('/api/user');
    expect(trimTrailingSlashes(path)).toBe(path);
    const started = performance.now();
    for (let i = 0; i < 50; i += 1) {
      apiBodyLimits('POST', path);
      judgeRequest(facts, new Set());
    }
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('limits per route: 16 KB where anyone may post, 4 MB elsewhere', () => {
    expect(apiBodyLimits('POST', '/api/user/login/').maxBytes).toBe(16 * 1024);
    expect(apiBodyLimits('post', '/api/user/register').maxBytes).toBe(16 * 1024);
    expect(apiBodyLimits('POST', '/api/user/reset').maxBytes).toBe(16 * 1024);
    expect(apiBodyLimits('PUT', '/api/option/').maxBytes).toBe(4 * 1024 * 1024);
    expect(formatBytes(16 * 1024)).toBe('16 KB');
    expect(formatBytes(4 * 1024 * 1024)).toBe('4 MB');
  });
});

const sqlite = dbTargets.find((target) => target.label.toLowerCase().includes('sqlite')) ?? dbTargets[0];
if (sqlite === undefined) throw new Error('no database target');

describe('body limits on a real server', () => {
  const suite = setupSuite(sqlite);
  const post = async (path: string, body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${suite.api.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
      ...(typeof body === 'string' ? {} : { duplex: 'half' }),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('login nested 40 levels → refused naming 32 levels, in Chinese when asked; 32 levels → the usual login failure', async () => {
    const nested = (n: number) => `{"username":"root","password":"x","x":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
    expect(await post('/api/user/login', nested(40))).toEqual({ status: 200, body: { success: false, message: 'request body nested too deeply: at most 32 levels of arrays and objects' } });
    expect(await post('/api/user/login', nested(40), { 'Accept-Language': 'zh-CN,zh' })).toEqual({ status: 200, body: { success: false, message: '请求体嵌套过深：数组与对象最多 32 层' } });
    expect((await post('/api/user/login', nested(32))).body).toEqual({ success: false, message: '用户名或密码错误，或用户已被封禁' });
  });

  it('a chunked login body (no Content-Length) over 16 KB → refused while it streams in; a small chunked one works', async () => {
    const chunked = (text: string, times: number) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < times; i++) controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        },
      });
    expect(await post('/api/user/login', chunked(' ', 20_000))).toEqual({ status: 200, body: { success: false, message: 'request body too large: this route accepts at most 16 KB' } });
    const small = await post('/api/user/login', chunked('{"username":"root","password":"123456"}', 1));
    expect(small.body).toMatchObject({ success: true });
  });

  it('an /api body of more than 100,000 values → refused naming the limit', async () => {
    // refused before the route's own checks (this caller is not even signed in)
    const many = JSON.stringify({ ids: Array.from({ length: 100_001 }, () => 1) });
    expect(await post('/api/channel/test_run', many)).toEqual({
      status: 200,
      body: { success: false, message: 'request body has too many values: at most 100000 array items and object members' },
    });
  });
});

describe('route limits on hostile paths', () => {
  it('a path of 16,000 slashes is matched in linear time', () => {
    const started = performance.now();
    expect(apiBodyLimits('POST', `/api/user/login${'/'.repeat(16_000)}`).maxBytes).toBe(16 * 1024);
    expect(apiBodyLimits('POST', `/api${'/'.repeat(16_000)}x`).maxBytes).toBe(4 * 1024 * 1024);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
