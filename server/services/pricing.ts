import type { Kysely } from 'kysely';
import type { Pricing, PricingModel } from '../../src/domain/pricing';
import type { Database } from '../db/schema';
import { pricingOf } from '../relay/pricing';
import { relaySettings } from '../relay/relaySettings';

/**
 * The caller's models and prices (`GET /api/pricing`): every model the abilities table lists for
 * the caller's group, priced exactly as the relay bills it (`pricingOf`: model ratio by
 * channel type, group multiplier, completion ratio), in quota per 1M tokens. A model is available
 * when an enabled channel of the group serves it; models of other groups are not listed. No
 * channel name, key or id leaves this function. Read-only.
 */

type Db = Kysely<Database>;

const perMillion = 1_000_000;

export async function pricingForGroup(db: Db, group: string): Promise<Pricing> {
  const settings = await relaySettings(db);
  const rows = await db
    .selectFrom('abilities')
    .innerJoin('channels', 'channels.id', 'abilities.channel_id')
    .select(['abilities.model as model', 'abilities.enabled as enabled', 'channels.type as type'])
    .where('abilities.group', '=', group)
    .execute();
  const byModel = new Map<string, PricingModel>();
  for (const row of rows) {
    const enabled = Boolean(row.enabled);
    const pricing = pricingOf(settings, row.model, Number(row.type ?? 0), group);
    const candidate: PricingModel = {
      model: row.model,
      input_per_million: pricing.ratio * perMillion,
      output_per_million: pricing.ratio * pricing.completionRatio * perMillion,
      available: enabled,
    };
    const known = byModel.get(row.model);
    // An enabled channel wins over a disabled one; among equals, the cheaper input price.
    if (
      known === undefined ||
      (enabled && !known.available) ||
      (enabled === known.available && candidate.input_per_million < known.input_per_million)
    ) {
      byModel.set(row.model, candidate);
    }
  }
  const models = [...byModel.values()].sort((a, b) => a.model.localeCompare(b.model));
  const groupRatio = Object.hasOwn(settings.groupRatio, group) ? settings.groupRatio[group]! : 1;
  return { group, group_ratio: groupRatio, models };
}
