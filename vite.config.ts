import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The console talks to the gateway on the same origin. In development the dev server
// forwards /api (and the relay) to a gateway on :3000 when one runs.
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: gateway, changeOrigin: true },
      '/v1': { target: gateway, changeOrigin: true },
    },
  },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
});
