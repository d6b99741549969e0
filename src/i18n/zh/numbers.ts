/** Area 'numbers': the range messages of src/domain/numberRules.ts (console and server) and the field labels they name. */
export const numbers = {
  'number.integer': '{field} 必须是整数',
  'number.number': '{field} 必须是数字',
  'number.range': '{field} 必须在 {min} 到 {max} 之间',
  'number.positiveRange': '{field} 必须大于 {min} 且不大于 {max}',
  'number.expiry': '{field} 必须是 -1（永不过期）或 0 到 {max} 之间的 Unix 时间',
  'number.ratioTable': '{field} 必须是 JSON 对象，值为非负数',
  'number.ratioEntry': '{field} 必须是 JSON 对象，值为非负数（{entry} 不是）',
  'number.field.quota': '额度',
  'number.field.remainQuota': '额度',
  'number.field.redemptionQuota': '额度',
  'number.field.count': '生成数量',
  'number.field.expiredTime': '过期时间',
  'number.field.topUpQuota': '充值额度',
} as const;
