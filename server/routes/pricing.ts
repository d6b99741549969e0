import { Hono } from 'hono';
import { currentUser, userAuth } from '../http/auth';
import { ok } from '../http/envelope';
import type { AppEnv } from '../http/env';
import { pricingForGroup } from '../services/pricing';

/** `GET /api/pricing` (signed-in user): the caller's models and prices for their group. Read-only. */
export function pricingRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/', userAuth, async (c) => ok(c, await pricingForGroup(c.get('deps').db, currentUser(c).group)));
  return app;
}
