import * as E from 'fp-ts/Either';
import { describe, expect, it } from 'vitest';
import { describeApiError, describeError, failure, refusedError } from '../../../src/domain/apiError';
import type { Redemption } from '../../../src/domain/redemption';
import { renderMessage } from '../../../src/i18n';
import { redemptionRowAction } from '../../../src/api/actors/redemptionRows';
import type { RedemptionApi } from '../../../src/api/redemptionApi';

/** Refusals the console makes itself are catalogue messages: said in zh (the spec's words) or en. */

const used = { id: 3, status: 3 } as Redemption;
const unusedApi = {} as RedemptionApi;

describe('redemption row refusals', () => {
  it('a used code is refused without a call, in the person’s language', async () => {
    const result = await redemptionRowAction(unusedApi)({ action: 'enable', row: used, value: '' })();
    expect(result).toEqual(E.left(refusedError('redemption.setStatus', { key: 'error.refused.redemptionUsed' })));
    if (E.isLeft(result)) {
      const said = describeApiError(result.left);
      expect(said.level).toBe('error');
      expect(renderMessage('zh', said.message)).toBe('该兑换码已被使用，不能启用或禁用');
      expect(renderMessage('en', said.message)).toBe('This code has been used; it cannot be enabled or disabled');
      // what an actor rejects with reads the same way
      expect(describeError(result.left)).toEqual(said);
    }
  });
  it('an unknown action names itself, in either language', async () => {
    const result = await redemptionRowAction(unusedApi)({ action: 'explode', row: used, value: '' })();
    if (!E.isLeft(result)) throw new Error('expected a refusal');
    const said = describeApiError(result.left).message;
    expect(renderMessage('en', said)).toBe('Unknown action: explode (nothing was sent)');
    expect(renderMessage('zh', said)).toBe('未知操作：explode（未发送请求）');
  });
  it("the server's own refusal is shown as given", () => {
    expect(renderMessage('en', describeApiError(failure('redemption.setStatus', '兑换码不存在')).message)).toBe('兑换码不存在');
  });
});
