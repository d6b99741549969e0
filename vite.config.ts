import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The console talks to the gateway on the same origin. In development the dev server
// forwards /api (and the relay) to a gateway on :3000 when one runs.
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:3000';
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  plugins: [react()],
  define: {
    // The build version; the session compares it with the server's to offer a refresh.
    'import.meta.env.VITE_APP_VERSION': JSON.stringify(`v${version}`),
  },
  // Every runtime dependency, pre-bundled up front: a dependency first met in a lazily loaded
  // module would otherwise make Vite re-optimise mid-run and load React twice (stories, dev).
  optimizeDeps: {
    include: [
      'react',
      'react/jsx-runtime',
      'react/jsx-dev-runtime',
      'react-dom',
      'react-dom/client',
      'react-router-dom',
      '@chakra-ui/react',
      '@chakra-ui/react/theme',
      '@emotion/react',
      'xstate',
      '@xstate/react',
      'io-ts',
      'fp-ts/Array',
      'fp-ts/Either',
      'fp-ts/TaskEither',
      'fp-ts/function',
      'marked',
      'dompurify',
      'recharts',
      '@chakra-ui/charts',
    ],
  },
  server: {
    proxy: {
      // xfwd: the gateway (on loopback, a trusted proxy) learns the host the browser used from
      // X-Forwarded-Host, so its cross-site check accepts this origin in browsers that send
      // Origin but no Sec-Fetch-Site (plain HTTP to a LAN address).
      '/api': { target: gateway, changeOrigin: true, xfwd: true },
      '/v1': { target: gateway, changeOrigin: true },
    },
  },
  build: {
    target: 'es2022',
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
});
