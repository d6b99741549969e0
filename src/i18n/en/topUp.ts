/** Area 'topUp': the /topup page (spec "Top-up page", §5 Top-up, §8). */
export const topUp = {
  'topUp.remaining': 'Remaining quota',
  'topUp.remainingUnknown': '—',
  'topUp.loading': 'Loading quota…',
  'topUp.code': 'Redemption code',
  'topUp.codePlaceholder': 'Enter a redemption code',
  'topUp.redeem': 'Redeem',
  'topUp.topUp': 'Top up',
  'topUp.topUpHint': 'Opens the top-up page in a new tab to buy a code',
  'topUp.redeemed': 'Top-up successful! Quota added: {quota}',
  'topUp.requestFailed': 'Request failed',
} as const;
