import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { boundaries } from '../../eslint/boundaries.js';

// Runs the project's own layer rules (the ones eslint.config.js uses) on sample files.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } }, ...boundaries],
});

async function errorsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => m.message);
}

describe('layer import rules (conventions §1)', () => {
  it('rejects src/api in a view', async () => {
    const errors = await errorsFor('src/views/auth/Probe.tsx', "import { createApi } from '../../api/client';\n");
    expect(errors.join('\n')).toMatch(/Views never import src\/api/);
  });
  it('rejects react in a machine', async () => {
    expect((await errorsFor('src/machines/probe/probe.machine.ts', "import { useState } from 'react';\n")).length).toBe(1);
    expect((await errorsFor('src/machines/probe/probe.machine.ts', "import { useSelector } from '@xstate/react';\n")).length).toBe(1);
  });
  it('rejects src/api in a machine and lets domain and xstate in', async () => {
    expect((await errorsFor('src/machines/probe/probe.machine.ts', "import { api } from '../../api/client';\n")).length).toBe(1);
    const ok = "import { setup } from 'xstate';\nimport { User } from '../../domain/user';\n";
    expect(await errorsFor('src/machines/probe/probe.machine.ts', ok)).toEqual([]);
  });
  it('keeps src/domain pure', async () => {
    expect((await errorsFor('src/domain/probe.ts', "import { setup } from 'xstate';\n")).length).toBe(1);
    expect((await errorsFor('src/domain/probe.ts', "import { x } from '../machines/session';\n")).length).toBeGreaterThan(0);
    expect(await errorsFor('src/domain/probe.ts', "import * as t from 'io-ts';\nimport { pipe } from 'fp-ts/function';\n")).toEqual([]);
  });
  it('lets domain and machines import only types from src/i18n (the MessageKey union)', async () => {
    const typeOnly = "import type { MessageKey } from '../i18n';\n";
    expect(await errorsFor('src/domain/probe.ts', typeOnly)).toEqual([]);
    expect((await errorsFor('src/domain/probe.ts', "import { catalogues } from '../i18n';\n")).length).toBe(1);
    expect(await errorsFor('src/machines/probe/probe.machine.ts', "import type { MessageKey } from '../../i18n';\n")).toEqual([]);
    expect((await errorsFor('src/machines/probe/probe.machine.ts', "import { translate } from '../../i18n';\n")).length).toBe(1);
  });
  it('keeps the server off the console layers', async () => {
    expect((await errorsFor('server/routes/probe.ts', "import { x } from '../../src/views/app/Shell';\n")).length).toBe(1);
    expect(await errorsFor('server/routes/probe.ts', "import { User } from '../../src/domain/user';\n")).toEqual([]);
    expect((await errorsFor('server/routes/probe.ts', "import { createApi } from '../../src/api';\n")).length).toBe(1);
    // the server's own ./api module is not the console's src/api
    expect(await errorsFor('server/http/probe.ts', "import { createApi } from './api';\n")).toEqual([]);
  });
});

describe('views do not wire actors (conventions §2)', () => {
  it('rejects an effect that subscribes to one actor and sends to another', async () => {
    const code = [
      "import { useEffect } from 'react';",
      'export function useWire(a: { on(t: string, f: () => void): { unsubscribe(): void } }, b: { send(e: object): void }) {',
      "  useEffect(() => { const s = a.on('done', () => b.send({ type: 'reload' })); return () => s.unsubscribe(); }, [a, b]);",
      '}',
      '',
    ].join('\n');
    const errors = await errorsFor('src/views/probe/useWire.ts', code);
    expect(errors.join('\n')).toMatch(/parent page machine/);
  });
  it('lets a view send the person\'s intents from handlers', async () => {
    const code = "export const onClick = (b: { send(e: object): void }) => () => b.send({ type: 'page.next' });\n";
    expect(await errorsFor('src/views/probe/Handlers.ts', code)).toEqual([]);
  });
});
