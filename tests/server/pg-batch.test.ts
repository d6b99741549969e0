import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/schema';
import { TurnReads } from '../../server/db/turnReads';
import { StatementGroups } from '../../server/relay/pgBatch';

/**
 * Statement groups (server/relay/pgBatch.ts), the way PostgreSQL's reservations and settlements
 * of one event-loop turn become one statement: the calls of one turn go together, sorted; each
 * gets its own result; a group the database refuses (rolled back) is run again item by item, so
 * only the item at fault fails; a group whose outcome is unknown (connection lost) fails whole,
 * never run twice. And shared reads (server/db/turnReads.ts): the requests of one turn asking for
 * the same thing get one read, sent after all of them asked.
 */

type Db = Kysely<Database>;
const fakeDb = (): Db => ({}) as Db;

/** A PostgreSQL error as the driver reports it (the server's SQLSTATE). */
const serverError = (code: string): Error => Object.assign(new Error(`server said ${code}`), { code });

describe('statement groups', () => {
  it('the calls of one turn go in one statement, sorted; each caller gets its own result', async () => {
    const groups: number[][] = [];
    const singles: number[] = [];
    const batches = new StatementGroups<number, string>(
      (_db, items) => {
        groups.push([...items]);
        return Promise.resolve(items.map((i) => `many ${i}`));
      },
      (_db, item) => {
        singles.push(item);
        return Promise.resolve(`single ${item}`);
      },
      (a, b) => a - b,
    );
    const db = fakeDb();
    const results = await Promise.all([3, 1, 2].map((i) => batches.run(db, i)));
    expect(results).toEqual(['many 3', 'many 1', 'many 2']);
    expect(groups).toEqual([[1, 2, 3]]);
    // Alone in its turn: the single statement.
    expect(await batches.run(db, 7)).toBe('single 7');
    expect(singles).toEqual([7]);
  });

  it('a group the database refuses runs again item by item: only the item at fault fails', async () => {
    const batches = new StatementGroups<number, number>(
      () => Promise.reject(serverError('22003')),
      (_db, item) => (item === 2 ? Promise.reject(serverError('22003')) : Promise.resolve(item * 10)),
      (a, b) => a - b,
    );
    const db = fakeDb();
    const outcomes = await Promise.allSettled([1, 2, 3].map((i) => batches.run(db, i)));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'failed'))).toEqual([10, 'failed', 30]);
  });

  it('a group whose outcome is unknown (no answer from the server) fails whole and is not run again', async () => {
    let singles = 0;
    const batches = new StatementGroups<number, number>(
      () => Promise.reject(new Error('Connection terminated unexpectedly')),
      (_db, item) => {
        singles += 1;
        return Promise.resolve(item);
      },
      (a, b) => a - b,
    );
    const db = fakeDb();
    const outcomes = await Promise.allSettled([1, 2, 3].map((i) => batches.run(db, i)));
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(singles).toBe(0);
  });
});

describe('reads shared per turn', () => {
  it('the asks of one turn for one key share one read, sent after they asked; a later ask gets a read of its own', async () => {
    const sent: string[] = [];
    let version = 1;
    const reads = new TurnReads<string>((_db, key) => {
      sent.push(key);
      return Promise.resolve(`${key} v${version}`);
    });
    const db = fakeDb();
    const first = [reads.run(db, 'a'), reads.run(db, 'b'), reads.run(db, 'a')];
    // Nothing is sent in the turn of the asks: a write committed in it is seen by the read.
    expect(sent).toEqual([]);
    version = 2;
    expect(await Promise.all(first)).toEqual(['a v2', 'b v2', 'a v2']);
    expect(sent).toEqual(['a', 'b']);
    version = 3;
    expect(await reads.run(db, 'a')).toBe('a v3');
    expect(sent).toEqual(['a', 'b', 'a']);
  });

  it('a failed read fails every ask that shared it, and the next turn reads again', async () => {
    let fail = true;
    const reads = new TurnReads<number>(() => (fail ? Promise.reject(new Error('connection lost')) : Promise.resolve(7)));
    const db = fakeDb();
    const outcomes = await Promise.allSettled([reads.run(db, ''), reads.run(db, '')]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await reads.run(db, '')).toBe(7);
  });
});
