import { Hono, type Context } from 'hono';
import * as E from 'fp-ts/Either';
import { rootAuth } from '../http/auth';
import { fail, localize, ok } from '../http/envelope';
import type { AppEnv } from '../http/env';
import { decodeBody } from '../http/validate';
import { optionNumberRefusal } from '../services/numberRanges';
import { listOptions, OptionUpdateBody, optionPrecondition, saveOption } from '../services/optionWrite';

/**
 * Option endpoints (contract §2.11), root only, mounted at /api/option. GET lists every option
 * except the secrets (keys ending in `Token`, `Secret` or `SecretKey` are left out; one-api
 * leaks `TurnstileSecretKey`). PUT checks one-api's preconditions, validates the three ratio
 * JSONs before writing (an invalid one saves nothing), then stores the value; options are read
 * from the table per request, so the change applies at once.
 */

type Ctx = Context<AppEnv>;

/** `GET /api/option/`. */
async function getOptions(c: Ctx): Promise<Response> {
  const { db, config } = c.get('deps');
  return ok(c, await listOptions(db, config.theme));
}

/** `PUT /api/option/` `{key, value}`: a body that is not such an object → HTTP 400 `invalid_parameter`. */
async function updateOption(c: Ctx): Promise<Response> {
  const body = await decodeBody(c, OptionUpdateBody);
  if (E.isLeft(body)) return fail(c, localize(c, 'invalid_parameter'), 400);
  const { key, value } = body.right;
  const { db } = c.get('deps');
  const refusal = optionNumberRefusal(c, key, value) ?? (await optionPrecondition(db, key, value));
  if (refusal !== null) return fail(c, refusal);
  await saveOption(db, key, value);
  return ok(c);
}

/** Routes mounted at /api/option. */
export function optionRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/', rootAuth, getOptions);
  app.put('/', rootAuth, updateOption);
  return app;
}
