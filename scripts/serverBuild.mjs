// @ts-check
// How the server is bundled for `npm start` (scripts/start.mjs), shared with bench/relay, which
// measures the gateway as `npm start` runs it: esbuild bundles server/main.ts and the worker
// threads it starts by path (server/relay/*Worker.mjs, loaded as `new URL('./xWorker.mjs',
// import.meta.url)`, so they sit beside the bundle); packages stay imports of node_modules.
import { existsSync, rmSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * Leaves a package import to Node when Node resolves it to a file; bundles the few that Node's ESM
 * resolver refuses (fp-ts's `fp-ts/Either`: a folder with a package.json, no `exports` map).
 * @type {import('esbuild').Plugin}
 */
const nodeResolvablePackagesExternal = {
  name: 'node-resolvable-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      let resolved;
      try {
        resolved = new URL(import.meta.resolve(args.path));
      } catch {
        return undefined;
      }
      if (resolved.protocol === 'node:') return { path: args.path, external: true };
      return existsSync(resolved) && statSync(resolved).isFile() ? { path: args.path, external: true } : undefined;
    });
  },
};

/**
 * esbuild's options for the server bundle of the checkout at `root` (the working directory when
 * omitted) written to `outdir`: `main.mjs` and the workers beside it.
 * @param {{ readonly outdir: string; readonly root?: string }} o
 * @returns {import('esbuild').BuildOptions & { metafile: true }}
 */
export const serverBuildOptions = (o) => ({
  entryPoints: ['server/main.ts', 'server/relay/settlementWorker.mjs', 'server/relay/tokenCountWorker.mjs'],
  ...(o.root === undefined ? {} : { absWorkingDir: o.root }),
  outdir: o.outdir,
  entryNames: '[name]',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [nodeResolvablePackagesExternal],
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
});

// `node scripts/serverBuild.mjs <outdir> [<root>]` builds the bundle (bench/relay runs it so, with
// plain Node: under a TypeScript loader `import.meta.resolve` would resolve what Node refuses).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [outdir, root] = process.argv.slice(2);
  if (outdir === undefined) throw new Error('usage: node scripts/serverBuild.mjs <outdir> [<root>]');
  const { build, stop } = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  await build(serverBuildOptions({ outdir, root }));
  await stop();
}
