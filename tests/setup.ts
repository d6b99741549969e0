// Shared set-up for the node-side unit and machine tests.
// jsdom-based tests opt in per file with `// @vitest-environment jsdom`.
// Both languages' catalogues, loaded up front: tests render either one synchronously.
import '../src/i18n/all';
