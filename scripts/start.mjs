// `npm start`: builds the console when dist/ is missing or older than its sources, then runs
// the gateway server (server/main.ts through tsx), which serves the console and the API on PORT.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'];

/** The newest modification time under `path` (a file or a folder). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

const built = join('dist', 'index.html');
const stale = !existsSync(built) || statSync(built).mtimeMs < Math.max(...sources.map(newest));
if (stale) {
  console.log('Building the console (dist/ is missing or older than its sources)...');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const server = spawnSync('npx', ['tsx', 'server/main.ts'], { stdio: 'inherit' });
process.exit(server.status ?? 1);
