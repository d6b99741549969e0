// Shared set-up for the node-side unit and machine tests.
// jsdom-based tests opt in per file with `// @vitest-environment jsdom`.
export {};
