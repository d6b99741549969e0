import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { planChunks } from './scripts/chunkPlan';

// The console talks to the gateway on the same origin. In development the dev server
// forwards /api (and the relay) to a gateway on :3000 when one runs.
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:3000';
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Chakra's theme barrel builds its whole default config (every recipe, ~85 KB gzip) in a statement
 * the bundler cannot prove pure, so importing one recipe from it kept them all. Marking that call
 * pure lets the bundle keep only the recipes src/views/app/theme.ts registers.
 */
const pureChakraTheme: Plugin = {
  name: 'pure-chakra-theme',
  transform(code, id) {
    if (!id.replace(/\\/g, '/').endsWith('@chakra-ui/react/dist/esm/theme/index.js')) return null;
    const marked = code.replace('const defaultThemeConfig = defineConfig(', 'const defaultThemeConfig = /* @__PURE__ */ defineConfig(');
    if (marked === code) this.warn('the Chakra theme barrel changed: its default config may no longer be tree-shaken');
    return { code: marked, map: null };
  },
};

/**
 * Lighter builds of two libraries, for production bundles only (dev, tests and stories keep the
 * packages' own entries). React Router's package exports point every condition at its development
 * build (its dev-only warnings and checks); the production build it ships beside it is the same
 * API without them (0.5 KB gzip less). @xstate/react imports the use-sync-external-store shim,
 * which carries a fallback for React < 18; the package's plain entries use React's own hook (0.4 KB).
 * Emotion imports hoist-non-react-statics for its side effects, which it has none of (the package
 * does not say so): only Emotion's withTheme uses it, which nothing here calls (1.1 KB with react-is).
 */
const productionBuilds: Plugin = {
  name: 'production-builds',
  apply: 'build',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (source === 'hoist-non-react-statics') {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved === null ? null : { ...resolved, moduleSideEffects: false };
    }
    if (source === 'react-router') return fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url));
    const plain = { 'use-sync-external-store/shim': 'use-sync-external-store', 'use-sync-external-store/shim/with-selector': 'use-sync-external-store/with-selector' }[source];
    return plain === undefined ? null : this.resolve(plain, importer, { ...options, skipSelf: true });
  },
};

/**
 * Components and part lists that libraries make at the top of their modules with calls carrying
 * no pure annotation (React Router's `React.forwardRef` / `React.memo` / `React.createContext`,
 * Chakra's and Ark's `withContext` / `createRecipeContext` / `chakra(...)`, Zag's and Chakra's
 * `createAnatomy(...)` / `.extendWith(...)` / `.build()`), and then name with `X.displayName =`
 * statements. The bundler cannot tell those calls are free of side effects (React is a CommonJS
 * package), so every such component and anatomy stayed in the bundle whether used or not
 * (NavLink, Form, the framework-mode Link prefetching, the anatomies of every Chakra component).
 * They are pure factories: marking the top-level calls pure and dropping the names (they only
 * label components in React's developer tools) lets the bundle keep what the console uses.
 */
const pureFactories = ['forwardRef', 'memo', 'createContext', 'createAnatomy', 'extendWith', 'build', 'createRecipeContext', 'createSlotRecipeContext', 'withContext', 'withProvider', 'withRootProvider', 'chakra'];
const topLevelFactoryCall = new RegExp(`^((?:const|let|var) (?:[\\w$]+|\\{[^}]*\\}) = )(?=(?:[\\w$]+\\.)?(?:${pureFactories.join('|')})\\()`, 'gm');
const pureLibraryFile = /\/node_modules\/(?:react-router\/dist\/production|@chakra-ui\/react\/dist\/esm|@ark-ui\/react\/dist|@zag-js\/[^/]+\/dist)\/.*\.m?js$/;
const pureLibraryCalls: Plugin = {
  name: 'pure-library-calls',
  apply: 'build',
  transform(code, id) {
    if (!pureLibraryFile.test(id.replace(/\\/g, '/'))) return null;
    const marked = code.replace(/^[\w$]+\.displayName = "[^"\n]*";$/gm, '').replace(topLevelFactoryCall, '$1/* @__PURE__ */ ');
    return marked === code ? null : { code: marked, map: null };
  },
};

/**
 * The console renders its routes with the declarative `<BrowserRouter>` / `<Routes>` (no data
 * router: no `RouterProvider`, loaders, actions or route error boundaries). React Router's route
 * rendering still carries the data router's paths, reached only with a data router's state: the
 * route error boundary with its default error screen and the server-component error decoding,
 * the hydration fallbacks, and the data router's `useNavigate`. Its own `<Routes>` passes no data
 * router state (only `RouterProvider`'s routes do), so in the production build that state is
 * fixed to none and the bundler drops those paths. Each edit must match the shipped file: a
 * React Router update that changes them stops the build, to be looked at again.
 */
const declarativeRouterEdits: readonly (readonly [from: string, to: string])[] = [
  // useNavigate: a route rendered by <Routes> is never a data route
  ['  let { isDataRoute } = React2.useContext(RouteContext);\n  return isDataRoute ? useNavigateStable() : useNavigateUnstable();', '  return useNavigateUnstable();'],
  // <Routes> calls useRoutesImpl(routes, location) without data router options
  ['function useRoutesImpl(routes, locationArg, dataRouterOpts) {', 'function useRoutesImpl(routes, locationArg) {\n  const dataRouterOpts = void 0;'],
  ['function _renderMatches(matches, parentMatches = [], dataRouterOpts) {\n  let dataRouterState = dataRouterOpts?.state;', 'function _renderMatches(matches, parentMatches = []) {\n  const dataRouterOpts = void 0;\n  const dataRouterState = void 0;'],
  // the route error boundary (now unused) gets its context type in its class body instead of by
  // a statement after it, so the bundler can drop it
  ['var RenderErrorBoundary = class extends React2.Component {\n', 'var RenderErrorBoundary = class extends React2.Component {\n  static contextType = RSCRouterContext;\n'],
  ['RenderErrorBoundary.contextType = RSCRouterContext;\n', ''],
  // a rendered route records the deepest error boundary only for a static (server) data router
  [
    'function RenderedRoute({ routeContext, match, children }) {\n  let dataRouterContext = React2.useContext(DataRouterContext);\n  if (dataRouterContext && dataRouterContext.static && dataRouterContext.staticContext && (match.route.errorElement || match.route.ErrorBoundary)) {\n    dataRouterContext.staticContext._deepestRenderedBoundaryId = match.route.id;\n  }\n',
    'function RenderedRoute({ routeContext, match, children }) {\n',
  ],
];
const declarativeRouter: Plugin = {
  name: 'declarative-router',
  apply: 'build',
  transform(code, id) {
    if (!/\/node_modules\/react-router\/dist\/production\/chunk-[A-Z0-9]+\.mjs$/.test(id.replace(/\\/g, '/')) || !code.includes('function _renderMatches(')) return null;
    let edited = code;
    for (const [from, to] of declarativeRouterEdits) {
      if (!edited.includes(from)) this.error(`declarative-router: React Router changed, no longer found: ${from.split('\n')[0]}`);
      edited = edited.replace(from, to);
    }
    return { code: edited, map: null };
  },
};

/**
 * Chakra's `createSystem` builds the token CSS (the custom property of every token, ~600, in a
 * rule for the root and one per colour mode) at boot by passing each rule, with all its
 * properties, through its style function: every property is sorted, resolved and transformed on
 * its own, and the whole rule is hashed for the function's cache. A custom property comes out of
 * that unchanged, unless its value refers to other tokens (`{colors.gray.900/10}` in the shadows);
 * otherwise only the rule's selector path is computed. The edit passes one plain property of each
 * rule and the few referring ones through the style function, to get that path and those values,
 * and puts the rule's other properties under it as they are, in their order (a rule whose path is
 * not a single chain of keys still takes the full way). The same CSS, about
 * a third of `createSystem`'s time at boot; tests/unit/theme.test.ts runs Chakra's file with the
 * edit and compares its global styles with the unedited ones. A Chakra update that changes the
 * code stops the build, to be looked at again.
 */
export const chakraTokenCssEdits: readonly (readonly [from: string, to: string])[] = [
  [
    '      const cssObject = css(\n        serialize({\n          [selector]: isAtRule ? { [cssVarsRoot]: varsObj } : varsObj\n        })\n      );\n      mergeWith(result, cssObject);\n',
    [
      '      const plain = (value) => typeof value === "string" && !value.includes("{");',
      '      const names = Object.keys(varsObj);',
      '      const first = names.find((name) => plain(varsObj[name]));',
      '      const probe = {};',
      '      for (const name of names) if (name === first || !plain(varsObj[name])) probe[name] = varsObj[name];',
      '      const probed = first === void 0 ? void 0 : css(serialize({ [selector]: isAtRule ? { [cssVarsRoot]: probe } : probe }));',
      '      const path = [];',
      '      let rule = probed;',
      '      while (rule && typeof rule === "object" && !Object.hasOwn(rule, first) && Object.keys(rule).length === 1) {',
      '        path.push(Object.keys(rule)[0]);',
      '        rule = rule[path[path.length - 1]];',
      '      }',
      '      const chain = rule && typeof rule === "object" && rule[first] === varsObj[first] && Object.keys(rule).length === Object.keys(probe).length && Object.keys(probe).every((name) => Object.hasOwn(rule, name));',
      '      let cssObject;',
      '      if (chain) {',
      '        const vars = {};',
      '        for (const name of names) vars[name] = plain(varsObj[name]) ? varsObj[name] : rule[name];',
      '        cssObject = path.reduceRight((inner, key) => ({ [key]: inner }), vars);',
      '      } else {',
      '        cssObject = css(',
      '          serialize({',
      '            [selector]: isAtRule ? { [cssVarsRoot]: varsObj } : varsObj',
      '          })',
      '        );',
      '      }',
      '      mergeWith(result, cssObject);',
      '',
    ].join('\n'),
  ],
];
const chakraTokenCss: Plugin = {
  name: 'chakra-token-css',
  apply: 'build',
  transform(code, id) {
    if (!id.replace(/\\/g, '/').endsWith('/node_modules/@chakra-ui/react/dist/esm/styled-system/system.js')) return null;
    let edited = code;
    for (const [from, to] of chakraTokenCssEdits) {
      if (!edited.includes(from)) this.error(`chakra-token-css: Chakra changed, no longer found: ${from.split('\n')[0]}`);
      edited = edited.replace(from, to);
    }
    return { code: edited, map: null };
  },
};

/**
 * io-ts (its ES build, compiled by TypeScript to ES5) makes each codec class with a function call
 * (`/** @class *\/ (function (_super) { ... }(Type))`) and each ready-made codec with `new`, at the
 * top of its module, with no pure annotation; the bundler kept every class and codec of the
 * library (functions, never, bigint, tagged unions, strict types...), used or not. Both are free
 * of side effects: marked pure, only the codecs the console uses stay. `Int` and `Integer` are
 * made by calls too.
 */
const pureIoTs: Plugin = {
  name: 'pure-io-ts',
  apply: 'build',
  transform(code, id) {
    if (!id.replace(/\\/g, '/').endsWith('/node_modules/io-ts/es6/index.js')) return null;
    const marked = code
      .replace(/^(var \w+ = \/\*\* @class \*\/ )(\(function \()/gm, '$1/* @__PURE__ */ $2')
      .replace(/^(export var \w+ = )(new \w+\(\);|brand\(|refinement\()/gm, '$1/* @__PURE__ */ $2');
    if (marked === code) this.warn('io-ts changed: its classes and codecs may no longer be tree-shaken');
    return { code: marked, map: null };
  },
};

/**
 * The lazy chunks a first paint needs beyond the entry, by the page's path. Signed out, a guarded
 * route shows the login page; every page shows the footer.
 */
export const firstPaintRoutes: readonly (readonly [pattern: string, module: string, guarded: boolean])[] = [
  ['^/login/?$', 'src/views/auth/LoginPage.tsx', false],
  ['^/register/?$', 'src/views/auth/RegisterPage.tsx', false],
  ['^/reset/?$', 'src/views/auth/PasswordResetRequestPage.tsx', false],
  ['^/user/reset/?$', 'src/views/auth/PasswordResetConfirmPage.tsx', false],
  ['^/oauth/', 'src/views/auth/OAuthCallbackPage.tsx', false],
  ['^/about/?$', 'src/views/home/AboutPage.tsx', false],
  ['^/pricing/?$', 'src/views/pricing/PricingPage.tsx', true],
  ['^/$', 'src/views/home/HomePage.tsx', false],
  ['^/user/edit/?$', 'src/views/user/ProfileEditPage.tsx', true],
  ['^/user/(add|edit/)', 'src/views/user/UserFormPage.tsx', true],
  ['^/user/?$', 'src/views/user/UserListPage.tsx', true],
  ['^/channel/(add|edit/|clone/)', 'src/views/channel/ChannelFormPage.tsx', true],
  ['^/channel/?$', 'src/views/channel/ChannelListPage.tsx', true],
  ['^/redemption/(add|edit/)', 'src/views/redemption/RedemptionFormPage.tsx', true],
  ['^/redemption/?$', 'src/views/redemption/RedemptionListPage.tsx', true],
  ['^/token/(add|edit/)', 'src/views/token/TokenFormPage.tsx', true],
  ['^/token/?$', 'src/views/token/TokenListPage.tsx', true],
  ['^/log/?$', 'src/views/log/LogListPage.tsx', true],
  ['^/setting/?$', 'src/views/setting/SettingsPage.tsx', true],
  ['^/dashboard/?$', 'src/views/dashboard/DashboardPage.tsx', true],
  ['^/topup/?$', 'src/views/topup/TopUpPage.tsx', true],
];
/**
 * The GETs a first load of a list page sends before its scripts have loaded (index.html's script,
 * see `firstPaintPreload`), by the page's module: the table's first fetch for the address without a
 * query (the default view), for an admin and for anyone else (null: none). They must be the exact
 * URLs the list's `fetchPage` asks for then (tests/unit/firstPage.test.ts checks them against
 * src/api). Every first load also sends `/api/status` (the session's first call) and, for a stored
 * admin, `/api/user/2fa/status` (the enrolment check the admin pages wait for). src/api/primed.ts
 * hands their answers to the console's first calls of the same URLs.
 */
export const firstPageLists: Readonly<Record<string, readonly [admin: string | null, other: string | null]>> = {
  'src/views/channel/ChannelListPage.tsx': ['/api/channel/?p=0', null],
  'src/views/log/LogListPage.tsx': ['/api/log/?p=0', '/api/log/self/?p=0'],
  'src/views/token/TokenListPage.tsx': ['/api/token/?p=0&order=', '/api/token/?p=0&order='],
  'src/views/redemption/RedemptionListPage.tsx': ['/api/redemption/?p=0', null],
  'src/views/user/UserListPage.tsx': ['/api/user/?p=0&order=', null],
};

/**
 * The wiring areas each lazy page loads beside itself (`withWiring` in src/views/app/AppRoutes.tsx;
 * tests/unit/composition.test.ts keeps the two in step): preloaded with the page.
 */
const wiringAreas = JSON.parse(readFileSync(new URL('./src/wiring/pageAreas.json', import.meta.url), 'utf8')) as Record<string, readonly string[]>;
/**
 * The catalogue's areas (src/i18n/index.ts): each lazy module's area, which loads with it
 * (src/i18n/pageAreas.json, also read by bench/bundle/sizes.mjs), and each language's area modules.
 */
const pageAreas = JSON.parse(readFileSync(new URL('./src/i18n/pageAreas.json', import.meta.url), 'utf8')) as Record<string, string>;
const areaOf = (module: string): string => {
  const area = pageAreas[module];
  if (area === undefined) throw new Error(`first-paint preload: ${module} has no area in src/i18n/pageAreas.json`);
  return area;
};
const catalogueModules = (lang: 'zh' | 'en', area: string) => `src/i18n/${lang}/areas/${area}.ts`;

/** A built chunk, as far as the first-paint plugins read it. */
interface ChunkView {
  readonly fileName: string;
  readonly imports: readonly string[];
  readonly moduleIds: readonly string[];
  readonly facadeModuleId: string | null;
  readonly isEntry: boolean;
}
const isModule = (id: string, module: string) => id.replace(/\\/g, '/').endsWith(module);
const isMain = (id: string) => isModule(id, 'src/main.tsx');
/**
 * The console's chunks as the first paint loads them: the entry's static closure, and per lazily
 * loaded module (a page, a wiring area, a catalogue) the files it loads beyond it, a page's with
 * its wiring areas'. Undefined for a build of something else (Storybook builds its preview with
 * this config too). The entry chunk's facade is index.html; src/main.tsx is in the shell chunk it
 * imports.
 */
function consoleChunks<C extends ChunkView>(chunks: readonly C[]) {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const hasMain = (file: string) => byFile.get(file)?.moduleIds.some(isMain) === true;
  const entry = chunks.find((c) => c.isEntry && (hasMain(c.fileName) || c.imports.some(hasMain)));
  if (entry === undefined) return undefined;
  const closure = (file: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const imported of byFile.get(file)?.imports ?? []) closure(imported, seen);
    return seen;
  };
  const inEntry = closure(entry.fileName);
  const filesOf = (module: string): string[] => {
    const chunk = chunks.find((c) => c.facadeModuleId !== null && isModule(c.facadeModuleId, module));
    if (chunk === undefined) throw new Error(`first-paint preload: no chunk for ${module}`);
    return [...closure(chunk.fileName)].filter((f) => !inEntry.has(f));
  };
  const pageFilesOf = (module: string): string[] => [
    ...new Set([filesOf(module), ...(wiringAreas[module] ?? []).map((area) => filesOf(`src/wiring/${area}.ts`))].flat()),
  ];
  return { chunks, closure, inEntry, filesOf, pageFilesOf };
}

/**
 * Fewer, larger chunks for the pages a first load shows (scripts/chunkPlan.ts): when it builds the
 * console, this plugin first builds it once more in memory with the automatic split alone, plans
 * which of that build's shared chunks merge (never the entry's; the login page's only with each
 * other, so it loads the same code) and hands the plan to the last `codeSplitting` group below.
 * The plan is made from the same sources in the same build, so it is never stale; a build of
 * anything else (Storybook's preview) keeps the automatic split. An environment flag keeps the
 * inner build from planning in turn.
 */
const planPass = 'CONSOLE_CHUNK_PLAN_PASS';
const loginPage = 'src/views/auth/LoginPage.tsx';
let chunkPlan: ReadonlyMap<string, string> = new Map();
let resolvedConfig: { root: string; mode: string; configFile: string | undefined } | undefined;
const chunkPlanning: Plugin = {
  name: 'chunk-plan',
  apply: 'build',
  configResolved(config) {
    resolvedConfig = { root: config.root, mode: config.mode, configFile: config.configFile };
  },
  async buildStart(options) {
    chunkPlan = new Map();
    const inputs = typeof options.input === 'string' ? [options.input] : Array.isArray(options.input) ? options.input : Object.values(options.input ?? {});
    if (process.env[planPass] !== undefined || resolvedConfig === undefined || inputs.length !== 1 || !/(^|[\\/])index\.html$/.test(inputs[0]!)) return;
    process.env[planPass] = '1';
    let output;
    try {
      output = await build({
        root: resolvedConfig.root,
        mode: resolvedConfig.mode,
        configFile: resolvedConfig.configFile,
        logLevel: 'silent',
        build: { write: false, emptyOutDir: false, manifest: false },
      });
    } finally {
      delete process.env[planPass];
    }
    const built = (Array.isArray(output) ? output : [output]).flatMap((o) => ('output' in o ? o.output : [])).flatMap((c) => (c.type === 'chunk' ? [c] : []));
    const graph = consoleChunks(built);
    if (graph === undefined) return;
    const pages = [...new Set(firstPaintRoutes.map(([, module]) => module))];
    chunkPlan = planChunks({
      chunks: built.map((c) => ({ fileName: c.fileName, imports: c.imports, moduleIds: c.moduleIds, facadeModuleId: c.facadeModuleId, size: c.code.length })),
      entryFiles: graph.inEntry,
      routes: pages.map((module) => ({ name: module, files: new Set(graph.pageFilesOf(module)) })),
      others: built
        .filter((c) => c.isDynamicEntry && c.facadeModuleId !== null && !pages.some((page) => isModule(c.facadeModuleId!, page)))
        .map((c) => ({ name: c.facadeModuleId!, files: new Set([...graph.closure(c.fileName)].filter((f) => !graph.inEntry.has(f))) })),
      kept: new Set(built.filter((c) => c.name === laterRecipes).map((c) => c.fileName)),
      // a route may load 5 % more code than it uses (at least 2 KB: a small route's chunk or two);
      // the login page nothing (its bytes have their own budget): its chunks merge only with each other
      allowance: ({ name, bytes }) => (name === loginPage ? 0 : Math.max(2048, bytes * 0.05)),
    });
  },
};

/**
 * No request waterfall before the first paint: index.html gets a tiny inline script that adds a
 * `<link rel="modulepreload">` for the active language's shell area (main.tsx awaits it), the
 * current route's lazy chunk and its area in that language (the page renders when both are
 * there), and the footer, with their own static imports, so they download alongside the entry
 * instead of after it. (Vite preloads the entry's static imports itself.) It marks the root element
 * with the page's place in `firstPaintRoutes` (`data-first-page`, `login` for the login page shown
 * on a guarded path): src/main.tsx loads that page before the first render (`preloadFirstPage`).
 * It sends the early API requests (`firstPageLists`) before it adds the links: the browser has six
 * connections to the server, and requests sent after two dozen module preloads waited for them
 * (at 4x CPU the list's answer came at about 765 ms instead of 400 ms).
 */
/**
 * The early GETs of a first load (`firstPageLists`), as a function expression index.html's script
 * calls with the URLs, the page's path, a reader of the stored user's id and the language tag:
 * sends each (same origin, with the session cookie) and keeps its answer on
 * `window.__firstPageRequests` for src/api/primed.ts (`PrimedRequests`). An answer is taken
 * (`take`, removed) or looked at (`peek`) by its exact URL, and only while the page it was sent
 * for is shown to the user it was sent for: once either has changed, every answer is dropped.
 * `done` resolves with an unread copy of the Response (undefined when the request failed);
 * `status` and `text` are there once it is in.
 */
export const firstPageRequestsScript = `function(q,path,user,lang){var A={},H={Accept:'application/json','Accept-Language':lang};
function T(o,k){if(location.pathname!==path||user()!==P.user){A={};return}var e=A[o];if(!k)delete A[o];return e}
var P=window.__firstPageRequests={user:user(),take:function(o){return T(o)},peek:function(o){return T(o,1)}};
for(var n=0;n<q.length;n++)(function(o){var e=A[o]={};e.done=fetch(o,{credentials:'include',headers:H}).then(function(r){var c=r.clone();return r.text().then(function(t){e.status=r.status;e.text=t;return c})})['catch'](function(){})})(q[n])}`;

let serverAddress = '';
const firstPaintPreload: Plugin = {
  name: 'first-paint-preload',
  apply: 'build',
  configResolved(config) {
    serverAddress = String(config.env.VITE_SERVER_ADDRESS ?? '').trim();
  },
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      const bundle = ctx.bundle;
      if (bundle === undefined) return html;
      const graph = consoleChunks(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : [])));
      if (graph === undefined) return html;
      const { chunks, closure, filesOf: bareFilesOf, pageFilesOf: barePageFilesOf } = graph;
      // main.tsx (in the shell chunk) awaits a catalogue before the first render: a catalogue
      // chunk that imported the shell would wait for that await, which waits for it
      const mainFile = chunks.find((c) => c.moduleIds.some(isMain))?.fileName;
      for (const c of chunks)
        if (/src\/i18n\/(?:zh|en)\/areas\//.test(c.facadeModuleId?.replace(/\\/g, '/') ?? '') && mainFile !== undefined && closure(c.fileName).has(mainFile))
          throw new Error(`first-paint preload: the catalogue ${c.facadeModuleId} imports the shell chunk (src/main.tsx awaits it: a deadlock)`);
      const filesOf = (module: string): string[] => bareFilesOf(module).map((f) => `/${f}`);
      // each language's areas (the shell's first), and per page its chunk with the wiring of its
      // areas (loaded in parallel with it) and its messages' area's name
      const areasIn = (lang: 'zh' | 'en') =>
        Object.fromEntries([...new Set(['shell', ...Object.values(pageAreas)])].map((area) => [area, filesOf(catalogueModules(lang, area))]));
      const pageOf = (module: string) => [barePageFilesOf(module).map((f) => `/${f}`), areaOf(module)] as const;
      const map = {
        areas: { zh: areasIn('zh'), en: areasIn('en') },
        login: pageOf('src/views/auth/LoginPage.tsx'),
        routes: firstPaintRoutes.map(([pattern, module, guarded]) => [pattern, pageOf(module), guarded] as const),
        // the early GETs (same origin only: none when the console calls another server)
        api: serverAddress === '' ? firstPaintRoutes.map(([, module]) => firstPageLists[module] ?? 0) : 0,
      };
      const script = `(function(m){var s;try{s=localStorage}catch(e){}function g(k){try{return s?s.getItem(k):null}catch(e){return null}}
var A=m.areas[g('lang')==='en'?'en':'zh'],f=A.shell,p=location.pathname,u=g('user')!==null,w=[];
for(var i=0;i<m.routes.length;i++){var r=m.routes[i];if(new RegExp(r[0]).test(p)){var L=r[2]&&!u;w.push(L?m.login:r[1]);document.documentElement.setAttribute('data-first-page',L?'login':i);break}}
for(var j=0;j<w.length;j++)f=f.concat(w[j][0],A[w[j][1]]);
var U=null;try{U=JSON.parse(g('user'))}catch(e){}
if(m.api){var a=!!U&&U.role>=10,x=U&&!location.search&&m.api[i],q=['/api/status'];if(a)q.push('/api/user/2fa/status');if(x&&x[a?0:1])q.push(x[a?0:1]);
(${firstPageRequestsScript})(q,p,function(){try{var v=JSON.parse(g('user'));return v&&typeof v.id==='number'?v.id:null}catch(e){return null}},g('lang')==='en'?'en':'zh-CN')}
var d={};for(var k=0;k<f.length;k++){if(d[f[k]])continue;d[f[k]]=1;var l=document.createElement('link');l.rel='modulepreload';l.href=f[k];document.head.appendChild(l)}})(${JSON.stringify(map)});`;
      return { html, tags: [{ tag: 'script', children: script, injectTo: 'head-prepend' }] };
    },
  },
};

/**
 * The files a lazily imported chunk needs, which Vite lists (in the importing chunk) to preload
 * alongside it, less two kinds that preloading cannot speed up: the chunk itself (the import
 * fetches it at the same moment) and the files the entry loaded statically (loaded before any
 * lazy import runs). The lists are the bulk of the preload table the shell carries for every page,
 * catalogue and wiring area; shorter lists change nothing that is fetched, nor when.
 */
let entryFiles: ReadonlySet<string> = new Set();
const entryClosure: Plugin = {
  name: 'entry-closure',
  apply: 'build',
  generateBundle: {
    order: 'pre',
    handler(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const imported of chunks.find((c) => c.fileName === file)?.imports ?? []) visit(imported);
      };
      for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
      entryFiles = seen;
    },
  },
};
// index.html's own preload links (the entry's static imports) stay as they are.
const preloadMissing = (file: string, deps: readonly string[], { hostType }: { hostType: 'html' | 'js' }): string[] =>
  hostType === 'html' ? [...deps] : deps.filter((dep) => dep !== file && !entryFiles.has(dep));

/**
 * The console's own code the entry loads statically, the entry module (src/main.tsx) included: the
 * entry chunk is then only index.html's script importing the shell (no second file of the
 * console's code, nor the imports and exports between the two). main.tsx awaits the active
 * language's catalogue before the first render, so a catalogue chunk must never import the shell.
 */
const isShellModule = (id: string): boolean => {
  const path = id.replace(/\\/g, '/');
  if (path.includes('/node_modules/')) return false;
  return path.includes('/src/') || path.endsWith('vite/preload-helper.js');
};

/**
 * Chakra's recipes that no first paint draws (src/views/app/theme.ts registers the others; the
 * rest come with src/views/app/laterComponents.ts), in a chunk of their own. Without this group
 * they would join the vendor chunk: Chakra's index imports every recipe module (through its
 * default config), so they count as statically reachable from the entry even though only lazy
 * chunks use them. Only the recipe modules themselves: what they import stays where it is.
 */
const laterRecipes = 'recipes';
const firstPaintRecipeFiles = ['alert', 'button', 'card', 'container', 'empty-state', 'field', 'heading', 'icon', 'input', 'link', 'separator', 'spinner'];
const isLaterRecipe = (id: string): boolean => {
  const m = /@chakra-ui\/react\/dist\/esm\/theme\/recipes\/([a-z-]+)\.js$/.exec(id.replace(/\\/g, '/'));
  return m !== null && !firstPaintRecipeFiles.includes(m[1]!);
};

export default defineConfig({
  plugins: [react(), pureChakraTheme, pureLibraryCalls, productionBuilds, declarativeRouter, chakraTokenCss, pureIoTs, entryClosure, firstPaintPreload, chunkPlanning],
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
      '@tanstack/react-virtual',
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
    modulePreload: { resolveDependencies: preloadMissing },
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // Lazy and shared chunks are named by their content hash alone: their names are written
        // into every import of them and into the shell's preload table (about 1.1 KB gzip of the
        // /login first load). .vite/manifest.json maps each source module to its file.
        chunkFileNames: 'assets/[hash].js',
        // What every page loads before its first paint (the entry's static closure) in two files,
        // the libraries and the console's shell, instead of the dozens of small shared chunks the
        // automatic split makes of it (each costs its own gzip overhead and request). The entry
        // (index.html + src/main.tsx), the catalogues and the lazily loaded pages stay chunks of
        // their own: the first-paint preload above finds them by module id.
        codeSplitting: {
          groups: [
            { name: laterRecipes, test: isLaterRecipe, priority: 3, includeDependenciesRecursively: false },
            { name: 'vendor', tags: ['$initial'], test: /[\\/]node_modules[\\/]/, priority: 2 },
            { name: 'shell', tags: ['$initial'], test: isShellModule, priority: 1 },
            // the first build's shared chunks merged by the routes that load them (chunkPlanning above)
            { name: (id: string) => chunkPlan.get(id) ?? null, debugName: 'pages', priority: 0, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
