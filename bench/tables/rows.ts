import type { Channel } from '../../src/domain/channel';
import type { User } from '../../src/domain/user';

/** A small deterministic generator: every run lists the same rows. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

const words = ['openai', 'azure', 'claude', 'gemini', 'moonshot', 'zhipu', 'qwen', 'baidu', 'spark', 'mistral', 'groq', 'deepseek'];
const groups = ['default', 'vip', 'svip', 'default,vip', 'free'];
const models = ['gpt-4o,gpt-4o-mini', 'claude-3-5-sonnet', 'gemini-1.5-pro,gemini-1.5-flash', 'deepseek-chat', 'qwen-max,qwen-plus'];

/** `count` channels as GET /api/channel/ lists them (id descending, like one-api). */
export function channelRows(count: number): Channel[] {
  const r = random(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const rows: Channel[] = [];
  for (let i = count; i >= 1; i--) {
    rows.push({
      id: i,
      type: pick([1, 3, 14, 24, 15, 17, 25, 33]),
      name: `${pick(words)}-${pick(words)}-${i}`,
      status: r() < 0.8 ? 1 : pick([2, 3]),
      models: pick(models),
      group: pick(groups),
      key: '',
      weight: Math.floor(r() * 10),
      created_time: 1_700_000_000 + i * 60,
      test_time: r() < 0.5 ? 0 : 1_730_000_000 + Math.floor(r() * 1_000_000),
      response_time: Math.floor(r() * 5000),
      base_url: '',
      other: '',
      balance: Math.round(r() * 10_000) / 100,
      balance_updated_time: 1_730_000_000,
      used_quota: Math.floor(r() * 1e9),
      model_mapping: '',
      priority: Math.floor(r() * 20),
      config: '{}',
      system_prompt: '',
    });
  }
  return rows;
}

/** `count` users as GET /api/user/ lists them. */
export function userRows(count: number): User[] {
  const r = random(11);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const rows: User[] = [];
  for (let i = count; i >= 1; i--) {
    const name = `${pick(words)}${i}`;
    rows.push({
      id: i,
      username: name,
      display_name: `${name[0]!.toUpperCase()}${name.slice(1)}`,
      role: i === 1 ? 100 : r() < 0.05 ? 10 : 1,
      status: r() < 0.9 ? 1 : 2,
      email: r() < 0.6 ? `${name}@example.com` : '',
      github_id: '',
      wechat_id: '',
      quota: Math.floor(r() * 5e7),
      used_quota: Math.floor(r() * 5e7),
      request_count: Math.floor(r() * 100_000),
      group: pick(['default', 'vip', 'svip']),
      aff_code: '',
      inviter_id: 0,
    });
  }
  return rows;
}
