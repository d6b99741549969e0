/** Area 'topUp': the /topup page (spec "Top-up page", §5 Top-up, §8). */
export const topUp = {
  'topUp.remaining': '剩余额度',
  'topUp.remainingUnknown': '—',
  'topUp.loading': '正在加载额度……',
  'topUp.code': '兑换码',
  'topUp.codePlaceholder': '请输入兑换码',
  'topUp.redeem': '兑换',
  'topUp.topUp': '充值',
  'topUp.topUpHint': '在新标签页中打开充值页面购买兑换码',
  'topUp.redeemed': '充值成功！本次增加额度：{quota}',
  'topUp.requestFailed': '请求失败',
} as const;
