import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

describe('loadConfig', () => {
  it('uses one-api defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'sqlite', path: './data/one-api.db', busyTimeoutMs: 3000, settlementThread: true });
    expect(config.initialRootToken).toBeNull();
    expect(config.initialRootAccessToken).toBeNull();
    expect(config.theme).toBe('default');
    expect(config.debug).toBe(false);
    expect(config.globalApiRateLimit).toBe(480);
    expect(config.globalWebRateLimit).toBe(240);
    expect(config.version).toBe('v0.0.0');
  });

  it('generates a random session secret and warns when SESSION_SECRET is unset', () => {
    const a = loadConfig({});
    const b = loadConfig({});
    expect(a.sessionSecretGenerated).toBe(true);
    expect(a.sessionSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(a.sessionSecret).not.toBe(b.sessionSecret);
    expect(a.warnings.join('\n')).toMatch(/SESSION_SECRET/);
  });

  it('reads every variable it knows', () => {
    const config = loadConfig({
      PORT: '8080',
      SQLITE_PATH: '/var/lib/one-api.db',
      SQLITE_BUSY_TIMEOUT: '5000',
      SQLITE_SETTLEMENT_THREAD: 'false',
      SESSION_SECRET: 'secret',
      INITIAL_ROOT_TOKEN: 'root-token',
      INITIAL_ROOT_ACCESS_TOKEN: '0123456789abcdef0123456789abcdef',
      THEME: 'air',
      DEBUG: 'TRUE',
      GLOBAL_API_RATE_LIMIT: '0',
      GLOBAL_WEB_RATE_LIMIT: '10',
      VERSION: 'v1.2.3',
    });
    expect(config).toMatchObject({
      port: 8080,
      database: { kind: 'sqlite', path: '/var/lib/one-api.db', busyTimeoutMs: 5000, settlementThread: false },
      sessionSecret: 'secret',
      sessionSecretGenerated: false,
      initialRootToken: 'root-token',
      initialRootAccessToken: '0123456789abcdef0123456789abcdef',
      theme: 'air',
      debug: true,
      globalApiRateLimit: 0,
      globalWebRateLimit: 10,
      version: 'v1.2.3',
      warnings: [],
    });
  });

  it('selects PostgreSQL for postgres:// and postgresql:// DSNs', () => {
    expect(loadConfig({ SQL_DSN: 'postgres://u@h:5432/db' }).database).toEqual({ kind: 'postgres', dsn: 'postgres://u@h:5432/db' });
    expect(loadConfig({ SQL_DSN: 'postgresql://u@h/db' }).database.kind).toBe('postgres');
  });

  it('SQL_MAX_OPEN_CONNS sizes the PostgreSQL pool (1..1000)', () => {
    expect(loadConfig({ SQL_DSN: 'postgres://u@h/db', SQL_MAX_OPEN_CONNS: '40' }).database).toEqual({ kind: 'postgres', dsn: 'postgres://u@h/db', maxConnections: 40 });
    for (const bad of ['0', '1001', 'x']) expect(() => loadConfig({ SQL_DSN: 'postgres://u@h/db', SQL_MAX_OPEN_CONNS: bad })).toThrow(/SQL_MAX_OPEN_CONNS/);
  });

  it('treats blank variables as unset', () => {
    const config = loadConfig({ PORT: ' ', SQL_DSN: '', SESSION_SECRET: '  ', INITIAL_ROOT_TOKEN: '' });
    expect(config.port).toBe(3000);
    expect(config.database.kind).toBe('sqlite');
    expect(config.sessionSecretGenerated).toBe(true);
    expect(config.initialRootToken).toBeNull();
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ PORT: '-1' }, /PORT/],
    [{ SQL_DSN: 'root:pw@tcp(localhost:3306)/oneapi' }, /SQL_DSN/],
    [{ INITIAL_ROOT_ACCESS_TOKEN: 'x'.repeat(33) }, /INITIAL_ROOT_ACCESS_TOKEN/],
    [{ INITIAL_ROOT_TOKEN: 'x'.repeat(49) }, /INITIAL_ROOT_TOKEN/],
    [{ SQLITE_BUSY_TIMEOUT: '1.5' }, /SQLITE_BUSY_TIMEOUT/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('is pure: it does not read process.env when given an environment', () => {
    process.env.PORT_UNUSED_BY_TEST = '1';
    expect(loadConfig({ PORT: '1234' }).port).toBe(1234);
  });
});
