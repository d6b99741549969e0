/** Area 'reauth': the sign-in dialog over an expired session (a save waits for it). */
export const reauth = {
  'reauth.title': '登录已过期',
  'reauth.hint': '请重新输入密码。登录后，正在保存的内容会再提交一次。',
  'reauth.username': '用户名',
  'reauth.password': '密码',
  'reauth.submit': '登录',
  'reauth.cancel': '取消',
  'reauth.otherUser': '以其他用户登录',
  'reauth.passwordRequired': '请输入密码',
  'reauth.signingIn': '正在登录…',
} as const;
