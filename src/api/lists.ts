import * as t from 'io-ts';
import * as E from 'fp-ts/Either';

/**
 * A list payload: `t.array(item)`, except that `null` reads as `[]`. A Go server serialises an
 * empty nil slice as `null`, and "no rows" must not become a decode error. Not a new entity
 * codec: it only wraps the domain's item codecs.
 */
export const listOf = <C extends t.Mixed>(item: C): t.Type<t.TypeOf<C>[], t.OutputOf<C>[], unknown> => {
  const array = t.array(item);
  return new t.Type<t.TypeOf<C>[], t.OutputOf<C>[], unknown>(
    array.name,
    (u): u is t.TypeOf<C>[] => array.is(u),
    (u, c) => (u === null ? E.right([]) : array.validate(u, c)),
    (a) => array.encode(a),
  );
};
