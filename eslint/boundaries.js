// The layer rules of conventions §1, as ESLint `no-restricted-imports` blocks.
// eslint.config.js uses them, and tests/unit/lint-boundaries.test.ts proves them on sample files.

const layer = (name) => ({
  regex: `(^|/)(src/)?${name}(/|$)`,
});

/** @type {import('eslint').Linter.Config[]} */
export const boundaries = [
  {
    name: 'boundaries/domain',
    files: ['src/domain/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!(io-ts|fp-ts|io-ts-types)(/|$)|\\.)',
              message: 'src/domain is pure: it imports only io-ts and fp-ts.',
            },
            { ...layer('(api|machines|views)'), message: 'src/domain imports no other layer.' },
            // The catalogue's key union types Message keys; its strings stay out (type-only imports).
            { ...layer('i18n'), allowTypeImports: true, message: 'src/domain imports only types from src/i18n (MessageKey).' },
          ],
        },
      ],
    },
  },
  {
    name: 'boundaries/machines',
    files: ['src/machines/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!xstate(/|$)|\\.)',
              message: 'src/machines imports only xstate and src/domain (no react, router, Chakra or fetch layers).',
            },
            { ...layer('(api|views)'), message: 'src/machines imports only xstate and src/domain.' },
            { ...layer('i18n'), allowTypeImports: true, message: 'src/machines imports only types from src/i18n (MessageKey).' },
          ],
        },
      ],
    },
  },
  {
    name: 'boundaries/views',
    files: ['src/views/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { ...layer('api'), message: 'Views never import src/api; they get actors from src/views/app contexts or props.' },
          ],
        },
      ],
    },
  },
  {
    name: 'boundaries/api',
    files: ['src/api/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(react|react-dom|@chakra-ui/.*|react-router-dom)$', message: 'src/api has no UI.' },
            { ...layer('(views|machines)'), message: 'src/api imports only src/domain (and xstate for actors).' },
          ],
        },
      ],
    },
  },
  {
    name: 'boundaries/server',
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // Only the console's layers under src/: the server has its own ./api module.
          patterns: [{ regex: '(^|/)src/(views|machines|api)(/|$)', message: 'server/ imports src/domain only.' }],
        },
      ],
    },
  },
  {
    // Views render state and send the person's intents; wiring one actor to another (an effect
    // that subscribes to or sends to an actor) belongs in a parent page machine (conventions §2).
    name: 'boundaries/views-wiring',
    files: ['src/views/**/*.{ts,tsx}'],
    // The two bridges between the actors and what lies outside them, and nothing else: the shell's
    // toaster and router take emitted notify/navigate (machineRegistry.tsx), and the address bar
    // follows a list's query both ways (useTable.ts).
    ignores: ['src/views/**/*.stories.tsx', 'src/views/app/machineRegistry.tsx', 'src/views/table/useTable.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='useMachine']", message: 'useMachine is deprecated: use useActorRef + useSelector.' },
        {
          selector: "CallExpression[callee.name=/^use(Layout)?Effect$/] CallExpression[callee.property.name=/^(send|on|subscribe)$/]",
          message: 'A view does not wire actors in an effect (subscribe, on, send): route the events in a parent page machine.',
        },
      ],
    },
  },
];
