import * as t from 'io-ts';

/** One option row; key and value are always strings (contract §2.1.6). */
export const OptionEntry = t.type({ key: t.string, value: t.string });
export type OptionEntry = t.TypeOf<typeof OptionEntry>;

/** The latest public release, as the update check reads it. */
export const Release = t.type({ tag_name: t.string, body: t.string });
export type Release = t.TypeOf<typeof Release>;
