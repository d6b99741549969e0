/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Build-time server address (spec §1); unset means the console's own origin. */
  readonly VITE_SERVER_ADDRESS?: string;
  /** `v` + package.json version, defined by vite.config.ts. */
  readonly VITE_APP_VERSION: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
