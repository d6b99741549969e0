/** The list pages the benchmark build found buildable (bench/tables/run.ts), by export name. */
declare module 'virtual:bench-pages' {
  export const pages: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}
