import * as E from 'fp-ts/Either';
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../../src/api/client';
import { fileNameOf } from '../../../src/api/download';
import { createLogApi } from '../../../src/api/logApi';

/** The log export call (wire: GET /api/log/export and /api/log/self/export, streamed CSV). */
describe('log export', () => {
  const csv = '\uFEFFid,created_at\r\n5,1763900000\r\ntotal,\r\n';
  const answer = (body: string, headers: Record<string, string>, status = 200) => new Response(body, { status, headers });

  it('GETs the admin or self route with the filters only, and answers the file name and bytes', async () => {
    const fetch = vi.fn((_url: string, _init: RequestInit) => {
      return Promise.resolve(
        answer(csv, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="logs-20261123-100000.csv"' }),
      );
    });
    const api = createLogApi(createApiClient({ fetch }));
    const admin = await api.exportCsv({ model_name: 'gpt-4o', username: 'alice', channel: 7, type: 2 }, 'admin')();
    expect(fetch.mock.calls[0]![0]).toBe('/api/log/export?type=2&username=alice&model_name=gpt-4o&channel=7');
    expect(fetch.mock.calls[0]![1].credentials).toBe('include');
    expect(E.isRight(admin)).toBe(true);
    if (E.isRight(admin)) {
      expect(admin.right.name).toBe('logs-20261123-100000.csv');
      // the bytes are kept as sent, BOM included (text() decodes it away)
      expect(admin.right.blob.size).toBe(new TextEncoder().encode(csv).length);
      expect(await admin.right.blob.text()).toBe(csv.slice(1));
    }
    await api.exportCsv({ model_name: 'gpt-4o', username: 'alice', channel: 7 }, 'self')();
    expect(fetch.mock.calls[1]![0]).toBe('/api/log/self/export?model_name=gpt-4o');
  });

  it('an envelope instead of CSV is the server’s message; other answers are readable errors', async () => {
    const refused = createLogApi(
      createApiClient({ fetch: () => Promise.resolve(answer('{"success":false,"message":"无效的参数"}', { 'Content-Type': 'application/json' })) }),
    );
    expect(await refused.exportCsv({}, 'admin')()).toEqual(E.left({ _tag: 'Failure', call: 'GET /api/log/export', message: '无效的参数' }));
    const onUnauthorized = vi.fn();
    const expired = createLogApi(
      createApiClient({
        fetch: () => Promise.resolve(answer('{"success":false,"message":"无权进行此操作，未登录且未提供 access token"}', { 'Content-Type': 'application/json' }, 401)),
        onUnauthorized,
      }),
    );
    const left = await expired.exportCsv({}, 'self')();
    expect(E.isLeft(left) && left.left._tag).toBe('HttpStatus');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    const html = createLogApi(createApiClient({ fetch: () => Promise.resolve(answer('<html></html>', { 'Content-Type': 'text/html' })) }));
    const decode = await html.exportCsv({}, 'self')();
    expect(E.isLeft(decode) && decode.left._tag).toBe('Decode');
    const offline = createLogApi(createApiClient({ fetch: () => Promise.reject(new Error('Failed to fetch')) }));
    expect(await offline.exportCsv({}, 'self')()).toEqual(E.left({ _tag: 'Network', call: 'GET /api/log/self/export', message: 'Failed to fetch' }));
  });

  it('reads the Content-Disposition file name', () => {
    expect(fileNameOf('attachment; filename="logs-1.csv"')).toBe('logs-1.csv');
    expect(fileNameOf("attachment; filename*=UTF-8''%E6%97%A5%E5%BF%97.csv; filename=\"x.csv\"")).toBe('日志.csv');
    expect(fileNameOf('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameOf('attachment')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});
