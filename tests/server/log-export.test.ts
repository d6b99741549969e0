import { request as httpRequest, type IncomingMessage } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema';
import { exportBatchSize, exportLogsCsv } from '../../server/services/logExport';
import { dumpDatabase, insertUser } from './support/db';
import type { Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * The streamed CSV export of the logs (`GET /api/log/export`, `/api/log/self/export`): columns of
 * each variant, filters equal to the list's, order, totals, BOM and headers, refusals before
 * anything streams, a large file arriving complete, and streaming (first bytes before the end, the
 * reading stops when the client goes away).
 */

const tokens = {
  common: 'e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1',
  admin: 'e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2',
} as const;

const adminHeader = [
  'id', 'created_at', 'time', 'type', 'username', 'token_name', 'model_name',
  'prompt_tokens', 'completion_tokens', 'quota', 'channel', 'elapsed_time', 'is_stream', 'content',
];
const selfHeader = adminHeader.filter((c) => c !== 'id' && c !== 'channel');
const base = 1_763_892_000; // 2025-11-23T10:00:00Z

/** RFC 4180 records of `text` (CRLF line ends, quoted fields may hold commas, quotes and newlines). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i += 1;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += ch;
    i += 1;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

/** A log as the list answers it. */
interface LogJson {
  id: number; user_id: number; created_at: number; type: number; content: string; username: string;
  token_name: string; model_name: string; quota: number; prompt_tokens: number; completion_tokens: number;
  channel: number; elapsed_time: number; is_stream: boolean;
}

/** The CSV cells the export must give for a list row. */
function expectedCells(row: LogJson, self: boolean): string[] {
  const all: Record<string, string> = {
    id: String(row.id),
    created_at: String(row.created_at),
    time: `${new Date(row.created_at * 1000).toISOString().slice(0, 19)}Z`,
    type: String(row.type),
    username: row.username,
    token_name: row.token_name,
    model_name: row.model_name,
    prompt_tokens: String(row.prompt_tokens),
    completion_tokens: String(row.completion_tokens),
    quota: String(row.quota),
    channel: String(row.channel),
    elapsed_time: String(row.elapsed_time),
    is_stream: String(row.is_stream),
    content: row.content,
  };
  return (self ? selfHeader : adminHeader).map((c) => all[c]!);
}

/** The totals row for `rows`. */
function expectedTotals(rows: readonly LogJson[], self: boolean): string[] {
  const sum = (k: 'prompt_tokens' | 'completion_tokens' | 'quota') => String(rows.reduce((s, r) => s + r[k], 0));
  return (self ? selfHeader : adminHeader).map((c, i) =>
    i === 0 ? 'total' : c === 'prompt_tokens' || c === 'completion_tokens' || c === 'quota' ? sum(c) : '',
  );
}

/** Inserts `count` logs for one user in chunks; returns nothing (ids are read back by the tests). */
async function insertMany(db: Kysely<Database>, count: number, userId: number, username: string, createdAt: (i: number) => number) {
  const chunk = 500;
  for (let start = 0; start < count; start += chunk) {
    const values = [];
    for (let i = start; i < Math.min(count, start + chunk); i += 1) {
      values.push({
        user_id: userId, created_at: createdAt(i), type: 2, content: `row ${i} ${'x'.repeat(120)}`, username, token_name: 'bulk',
        model_name: i % 2 === 0 ? 'gpt-4o' : 'gpt-4o-mini', quota: 3, prompt_tokens: 1, completion_tokens: 2,
        channel_id: 1, elapsed_time: 5, is_stream: false,
      });
    }
    await db.insertInto('logs').values(values).execute();
  }
}

/** GET `url` keeping the body's BOM (fetch's `text()` drops it). */
async function download(url: string, headers: Record<string, string>): Promise<Reply> {
  const response = await fetch(url, { headers });
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body, setCookies: [] };
}

/** GET over node:http with manual flow control: resolves at the response head. */
function openStream(url: string, token: string): Promise<IncomingMessage & { abort: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
      resolve(Object.assign(res, { abort: () => req.destroy() }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The first chunk of `res` (the stream is paused afterwards). */
function firstChunk(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    res.once('data', (chunk: Buffer) => {
      res.pause();
      resolve(chunk);
    });
  });
}

/** The rest of `res`, from `first` on. */
function rest(res: IncomingMessage, first: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks = [first];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    res.resume();
  });
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`log export — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => Date.UTC(2026, 10, 23, 10, 4, 5) });
    const db = () => suite.api.handle.db;
    const users = { common: 0, admin: 0 };

    const get = (who: keyof typeof tokens | 'anonymous', path: string, headers: Record<string, string> = {}): Promise<Reply> =>
      download(suite.api.url + path, who === 'anonymous' ? headers : { ...headers, Authorization: `Bearer ${tokens[who]}` });

    /** Every page of a list route. */
    async function wholeList(who: keyof typeof tokens, path: string, query: string): Promise<LogJson[]> {
      const rows: LogJson[] = [];
      for (let p = 0; ; p += 1) {
        const page = (await get(who, `${path}?p=${p}&${query}`)).body.data as LogJson[];
        rows.push(...page);
        if (page.length < 10) return rows;
      }
    }

    beforeAll(async () => {
      users.common = await insertUser(db(), { username: 'carol', password: 'carol-pass', accessToken: tokens.common });
      users.admin = await insertUser(db(), { username: 'dave', password: 'dave-pass1', role: 10, accessToken: tokens.admin });
      const owners = [
        { id: users.common, name: 'carol' },
        { id: users.admin, name: 'dave' },
      ];
      const contents = ['倍率：1.00 × 1.00', 'comma, "quoted" and\r\nnewline', '', '=SUM(A1)', 'plain'];
      for (let i = 0; i < 25; i += 1) {
        const owner = owners[i % 2]!;
        await db()
          .insertInto('logs')
          .values({
            user_id: owner.id, created_at: base + i * 100, type: (i % 4) + 1, content: contents[i % contents.length]!,
            username: owner.name, token_name: i % 3 === 0 ? 'tk-a' : 'tk-b', model_name: i % 2 === 0 ? 'gpt-4o' : '模型-中文',
            quota: i * 11, prompt_tokens: i, completion_tokens: i * 3, channel_id: (i % 3) + 1, request_id: `r${i}`,
            elapsed_time: i * 9, is_stream: i % 2 === 1,
          })
          .execute();
      }
    });

    it('admin file: headers, BOM, header row, rows id desc equal to the whole list, totals last', async () => {
      const reply = await get('admin', '/api/log/export');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(reply.headers.get('content-disposition')).toBe('attachment; filename="logs-20261123-100405.csv"');
      expect(reply.headers.get('cache-control')).toBe('no-store');
      expect(reply.text.startsWith('\uFEFFid,created_at,time,type,')).toBe(true);
      expect(reply.text.endsWith('\r\n')).toBe(true);
      const records = parseCsv(reply.text.slice(1));
      expect(records[0]).toEqual(adminHeader);
      const list = await wholeList('admin', '/api/log/', '');
      expect(list).toHaveLength(25);
      expect(records.slice(1, -1)).toEqual(list.map((r) => expectedCells(r, false)));
      expect(records.at(-1)).toEqual(expectedTotals(list, false));
      const ids = records.slice(1, -1).map((r) => Number(r[0]));
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(records[1]![2]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    it('self file: the caller’s rows only, without id and channel; username and channel ignored', async () => {
      for (const query of ['', 'username=dave&channel=2']) {
        const reply = await get('common', `/api/log/self/export?${query}`);
        expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        const records = parseCsv(reply.text.slice(1));
        expect(records[0]).toEqual(selfHeader);
        const list = await wholeList('common', '/api/log/self/', query);
        expect(list.length).toBeGreaterThan(0);
        expect(records.slice(1, -1), query).toEqual(list.map((r) => expectedCells(r, true)));
        expect(records.at(-1)).toEqual(expectedTotals(list, true));
        expect(records.slice(1, -1).every((r) => r[3] === 'carol')).toBe(true);
      }
    });

    it('every filter gives the same rows as the list (admin and self)', async () => {
      const queries = [
        'type=2', 'type=0', 'username=carol', 'token_name=tk-a', 'model_name=%E6%A8%A1%E5%9E%8B-%E4%B8%AD%E6%96%87',
        `start_timestamp=${base + 700}`, `end_timestamp=${base + 700}`, 'channel=3',
        `type=1&username=dave&start_timestamp=${base}&end_timestamp=${base + 2000}&token_name=tk-b`,
        'username=nobody', 'type=&channel=&start_timestamp=', 'model_name=%00',
      ];
      for (const query of queries) {
        const admin = parseCsv((await get('admin', `/api/log/export?${query}`)).text.slice(1));
        const adminList = await wholeList('admin', '/api/log/', query);
        expect(admin.slice(1, -1), query).toEqual(adminList.map((r) => expectedCells(r, false)));
        expect(admin.at(-1), query).toEqual(expectedTotals(adminList, false));
        const self = parseCsv((await get('common', `/api/log/self/export?${query}`)).text.slice(1));
        const selfList = await wholeList('common', '/api/log/self/', query);
        expect(self.slice(1, -1), query).toEqual(selfList.map((r) => expectedCells(r, true)));
      }
    });

    it('an empty result is the header row and a zero totals row', async () => {
      const reply = await get('admin', '/api/log/export?username=nobody');
      expect(reply.text).toBe(`\uFEFF${adminHeader.join(',')}\r\ntotal,,,,,,,0,0,0,,,,\r\n`);
    });

    it('bad input answers the envelope (HTTP 200) before anything streams, and changes nothing', async () => {
      const before = await dumpDatabase(db());
      const bad = ['type=abc', 'start_timestamp=-x', 'end_timestamp=1.5', 'channel=two', 'type=1e3'];
      for (const query of bad) {
        for (const path of ['/api/log/export', '/api/log/self/export']) {
          const who = path.includes('self') ? 'common' : 'admin';
          const en = await get(who, `${path}?${query}`);
          expect(en.status, query).toBe(200);
          expect(en.headers.get('content-type')).toContain('application/json');
          expect(en.body, `${path}?${query}`).toEqual({ success: false, message: 'invalid parameter' });
          const zh = await get(who, `${path}?${query}`, { 'Accept-Language': 'zh-CN' });
          expect(zh.body).toEqual({ success: false, message: '无效的参数' });
        }
      }
      expect(await dumpDatabase(db())).toBe(before);
    });

    it('guards: anonymous → 401 envelope; a common user may not export everything', async () => {
      for (const path of ['/api/log/export', '/api/log/self/export']) {
        const anon = await get('anonymous', path);
        expect(anon.status).toBe(401);
        expect(anon.body).toEqual({ success: false, message: '无权进行此操作，未登录且未提供 access token' });
      }
      expect((await get('common', '/api/log/export')).body).toEqual({ success: false, message: '无权进行此操作，权限不足' });
      expect((await get('admin', '/api/log/self/export')).status).toBe(200);
    });
  });

  describe.skipIf(target.skipReason !== null)(`log export at size — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    const total = 20_000;
    let userId = 0;

    beforeAll(async () => {
      userId = await insertUser(db(), { username: 'bulk', password: 'bulk-pass1', role: 10, accessToken: tokens.admin });
      await insertMany(db(), total, userId, 'bulk', (i) => base + i);
    }, 120_000);

    it(`${total} rows arrive complete, newest first, with exact totals`, async () => {
      const res = await openStream(`${suite.api.url}/api/log/export`, tokens.admin);
      const records = parseCsv((await rest(res, Buffer.alloc(0))).slice(1));
      expect(records).toHaveLength(total + 2);
      const ids = records.slice(1, -1).map((r) => Number(r[0]));
      expect(new Set(ids).size).toBe(total);
      expect(ids.every((id, i) => i === 0 || id < ids[i - 1]!)).toBe(true);
      expect(records.at(-1)).toEqual(['total', '', '', '', '', '', '', String(total), String(2 * total), String(3 * total), '', '', '', '']);
      const self = await openStream(`${suite.api.url}/api/log/self/export?model_name=gpt-4o`, tokens.admin);
      expect(parseCsv((await rest(self, Buffer.alloc(0))).slice(1))).toHaveLength(total / 2 + 2);
    }, 60_000);

    it('streams: the first bytes come while the rest is still read, batch by batch as the body is taken', async () => {
      const res = await openStream(`${suite.api.url}/api/log/export`, tokens.admin);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['transfer-encoding']).toBe('chunked');
      const first = await firstChunk(res);
      expect(first.toString('utf8').startsWith('\uFEFFid,created_at')).toBe(true);
      const text = await rest(res, first);
      expect(text.split('\r\n')).toHaveLength(total + 3); // header, rows, totals, ''
      // In process: the body pulls one batch ahead of its reader, never the whole result.
      const filter = { type: 0, startTimestamp: 0, endTimestamp: 0, username: '', tokenName: '', modelName: '', channel: 0 };
      let batches = 0;
      const reader = exportLogsCsv(db(), filter, 'admin', { onBatch: () => (batches += 1) }).getReader();
      await reader.read();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(batches).toBeLessThanOrEqual(2);
      let chunks = 1;
      while (!(await reader.read()).done) chunks += 1;
      expect(batches).toBe(total / exportBatchSize + 1);
      expect(chunks).toBe(batches);
    }, 60_000);

    it('a client that goes away stops the reading; the server keeps serving', async () => {
      const res = await openStream(`${suite.api.url}/api/log/export`, tokens.admin);
      await firstChunk(res);
      res.on('error', () => undefined); // the reset this side causes
      res.abort();
      const reply = await download(`${suite.api.url}/api/log/export?username=nobody`, { Authorization: tokens.admin });
      expect(reply.text).toBe(`\uFEFF${adminHeader.join(',')}\r\ntotal,,,,,,,0,0,0,,,,\r\n`);
      // In process: cancelling the body after its first chunk ends the reading before the last batch.
      let batches = 0;
      const ended = new Promise<string>((resolve) => {
        const body = exportLogsCsv(db(), { type: 0, startTimestamp: 0, endTimestamp: 0, username: '', tokenName: '', modelName: '', channel: 0 }, 'admin', {
          onBatch: () => (batches += 1),
          onEnd: resolve,
        });
        const reader = body.getReader();
        void reader.read().then(() => reader.cancel());
      });
      expect(await ended).toBe('stopped');
      expect(batches).toBeLessThan(total / exportBatchSize);
    }, 60_000);
  });
}
