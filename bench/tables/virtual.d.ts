/** The list pages the benchmark build found buildable (bench/tables/run.ts), by export name. */
declare module 'virtual:bench-pages' {
  export const pages: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** The part of pngjs (no types of its own) that bench/tables/screens.ts uses. */
declare module 'pngjs' {
  export class PNG {
    readonly width: number;
    readonly height: number;
    readonly data: Buffer;
    static readonly sync: { read(buffer: Buffer): PNG; write(png: PNG): Buffer };
  }
}
