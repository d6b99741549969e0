// `npm start`: builds what is missing or older than its sources, then runs the gateway in this
// process with plain Node, serving the console and the API on PORT.
//
// - The console: `vite build` into dist/ when dist/index.html is missing or older than its sources.
// - The server: esbuild bundles server/main.ts and the worker threads it starts by path
//   (server/relay/*Worker.mjs, loaded as `new URL('./xWorker.mjs', import.meta.url)`, so they sit
//   beside the bundle; the options are in scripts/serverBuild.mjs) into dist-server/, when the
//   bundle is missing or older than one of the files it was built from (esbuild's metafile lists them) or than package.json / package-lock.json.
//   Packages stay imports of node_modules: at run time only `dependencies` are loaded, never a
//   TypeScript loader or a bundler.
//
// The server then runs here, not in a child: SIGTERM and SIGINT reach its own handlers (graceful
// shutdown, see server/main.ts), and its exit code is this process's.
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { serverBuildOptions } from './serverBuild.mjs';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);

/** The newest modification time under `path` (a file or a folder); 0 when it does not exist. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);

// The console.
const consoleSources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'];
const consoleBuilt = join('dist', 'index.html');
if (mtime(consoleBuilt) < Math.max(1, ...consoleSources.map(newest))) {
  console.log('Building the console (dist/ is missing or older than its sources)...');
  const vite = join('node_modules', 'vite', 'bin', 'vite.js');
  // Production React whatever NODE_ENV the shell (or a test runner) set.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The server.
const serverOut = 'dist-server';
const serverMain = join(serverOut, 'main.mjs');
const serverMeta = join(serverOut, 'meta.json');

/** Whether the server bundle is missing or older than something it was built from. */
function serverStale() {
  const built = mtime(serverMain);
  if (built === 0 || !existsSync(serverMeta)) return true;
  let inputs;
  try {
    inputs = Object.keys(JSON.parse(readFileSync(serverMeta, 'utf8')).inputs);
  } catch {
    return true;
  }
  // An input gone (moved, deleted) also means the bundle no longer matches the tree.
  return [...inputs, 'package.json', 'package-lock.json', 'scripts/start.mjs', 'scripts/serverBuild.mjs'].some((file) => !existsSync(file) || mtime(file) > built);
}

if (serverStale()) {
  console.log('Building the server (dist-server/ is missing or older than its sources)...');
  const { build, stop } = await import('esbuild');
  rmSync(serverOut, { recursive: true, force: true });
  const result = await build(serverBuildOptions({ outdir: serverOut }));
  // The metafile goes last: a bundle interrupted halfway is then rebuilt at the next start.
  writeFileSync(serverMeta, JSON.stringify(result.metafile));
  // esbuild's service process would otherwise live as long as the server.
  await stop();
}

// Stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(join(root, serverMain)).href);
