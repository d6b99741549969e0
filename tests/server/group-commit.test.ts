import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect';
import { groupCommitStats, groupedTransaction } from '../../server/db/groupCommit';
import { migrate } from '../../server/db/migrate';
import { insertUser } from './support/db';
import { dbTargets, type TestDatabase } from './support/targets';

/**
 * Group commit (server/db/groupCommit.ts): pieces of work in flight together share one commit on
 * SQLite, each in its own savepoint; on PostgreSQL each is its own transaction. Either way every
 * piece keeps its own outcome: a failing one changes nothing and the others are all written.
 */
for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`grouped transactions — ${target.label}`, () => {
    let handle: DatabaseHandle;
    let created: TestDatabase;
    let userId: number;
    beforeAll(async () => {
      created = await target.create();
      handle = openDatabase({ ...loadConfig({ SESSION_SECRET: 'group-commit' }), database: created.database });
      await migrate(handle.db, handle.dialect);
      userId = await insertUser(handle.db, { username: 'grouped' });
    });
    afterAll(async () => {
      await handle.close();
      await created.dispose();
    });

    const quota = async (): Promise<number> =>
      Number((await handle.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota);

    it('300 pieces at once, every tenth failing after its write: the others all land, the failing ones change nothing', async () => {
      const before = await quota();
      const counted = { ...groupCommitStats };
      const outcomes = await Promise.allSettled(
        Array.from({ length: 300 }, (_, i) =>
          groupedTransaction(handle.db, handle.dialect, async (trx) => {
            await trx.updateTable('users').set((eb) => ({ quota: eb('quota', '+', 1) })).where('id', '=', userId).execute();
            if (i % 10 === 0) throw new Error(`piece ${i} fails`);
            return i;
          }),
        ),
      );
      outcomes.forEach((outcome, i) => {
        if (i % 10 === 0) expect(outcome).toEqual({ status: 'rejected', reason: new Error(`piece ${i} fails`) });
        else expect(outcome).toEqual({ status: 'fulfilled', value: i });
      });
      expect(await quota()).toBe(before + 270);
      const transactions = groupCommitStats.transactions - counted.transactions;
      if (target.kind === 'sqlite') {
        // Shared commits: far fewer transactions than pieces (the first runs alone, the rest wait and group).
        expect(groupCommitStats.pieces - counted.pieces).toBe(300);
        expect(transactions).toBeLessThan(30);
      } else {
        expect(transactions).toBe(0);
      }
    });

    it('a piece alone runs as a plain transaction: its failure rolls it back', async () => {
      const before = await quota();
      await expect(
        groupedTransaction(handle.db, handle.dialect, async (trx) => {
          await trx.updateTable('users').set((eb) => ({ quota: eb('quota', '+', 5) })).where('id', '=', userId).execute();
          throw new Error('alone');
        }),
      ).rejects.toThrow('alone');
      expect(await quota()).toBe(before);
      await groupedTransaction(handle.db, handle.dialect, (trx) =>
        trx.updateTable('users').set((eb) => ({ quota: eb('quota', '+', 5) })).where('id', '=', userId).execute(),
      );
      expect(await quota()).toBe(before + 5);
    });

    it('a result is reported only once it is committed: reads after it see it', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          groupedTransaction(handle.db, handle.dialect, async (trx) => {
            const row = await trx
              .updateTable('users')
              .set((eb) => ({ quota: eb('quota', '+', 1) }))
              .where('id', '=', userId)
              .returning('quota')
              .executeTakeFirstOrThrow();
            return Number(row.quota);
          }),
        ),
      );
      expect(new Set(results).size).toBe(50);
      expect(await quota()).toBe(Math.max(...results));
    });
  });
}
