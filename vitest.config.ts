import { defineConfig, mergeConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import viteConfig from './vite.config.ts';

const dirname = path.dirname(fileURLToPath(import.meta.url));

// Debian's Chromium; the flags keep it from reaching out to the network.
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Tests whose bounds are wall-clock times. Beside the other projects' workers on a 2-core machine
 * the gateway under attack is descheduled for hundreds of ms whatever it runs, so they run alone.
 */
const timingFiles = ['tests/server/hostile-clients.test.ts'];

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // Vitest's default is one worker less than the CPUs: one on a 2-CPU machine, where the
      // files that wait on a browser, timers or fsync then leave a CPU idle much of the time.
      // Two workers there: 556 s against 700 s for the whole run, same machine, same hour.
      maxWorkers: Math.max(2, availableParallelism() - 1),
      reporters: ['default', 'json'],
      outputFile: { json: 'test-results/vitest.json' },
      projects: [
        {
          extends: true,
          test: {
            name: 'unit',
            environment: 'node',
            include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/machines/**/*.test.ts'],
            setupFiles: ['./tests/setup.ts'],
            // Graph traversals are CPU-bound; the machine is shared and noisy.
            testTimeout: 30_000,
          },
        },
        {
          extends: true,
          test: {
            name: 'server',
            environment: 'node',
            include: ['tests/server/**/*.test.ts'],
            exclude: timingFiles,
            testTimeout: 60_000,
            hookTimeout: 60_000,
          },
        },
        {
          extends: true,
          test: {
            // Wall-clock bounds (a probe's worst latency, the gateway's event-loop hold): `npm test`
            // runs this project on its own after the others, on a quiet machine.
            name: 'timing',
            environment: 'node',
            include: timingFiles,
            testTimeout: 120_000,
            hookTimeout: 60_000,
          },
        },
        {
          extends: true,
          test: {
            name: 'e2e',
            environment: 'node',
            include: ['tests/e2e/**/*.test.ts'],
            // Builds the console once per run; every e2e file serves that build.
            globalSetup: ['./tests/e2e/support/globalSetup.ts'],
            testTimeout: 120_000,
            hookTimeout: 180_000,
          },
        },
        {
          extends: true,
          plugins: [storybookTest({ configDir: path.join(dirname, '.storybook') })],
          test: {
            name: 'storybook',
            // Interaction stories take up to 4 s here; the machine that runs CI may be slower.
            testTimeout: 30_000,
            browser: {
              enabled: true,
              headless: true,
              // A desktop window; the narrow (<= 600 px) layout is checked by the e2e tests.
              viewport: { width: 1280, height: 800 },
              provider: playwright({
                launchOptions: {
                  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
                  args: chromiumArgs,
                },
              }),
              instances: [{ browser: 'chromium' }],
            },
          },
        },
      ],
    },
  }),
);
