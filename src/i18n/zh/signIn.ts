/** Sign-in flows: the login page, OAuth buttons and callbacks, the WeChat code dialog. */
export const signIn = {

  'signIn.login.title': '用户登录',
  'signIn.login.expired': '未登录或登录已过期，请重新登录！',
  'signIn.login.username': '用户名或邮箱',
  'signIn.login.usernamePlaceholder': '用户名或邮箱地址',
  'signIn.login.password': '密码',
  'signIn.login.passwordPlaceholder': '密码',
  'signIn.login.submit': '登录',
  'signIn.login.forgot': '忘记密码？',
  'signIn.login.reset': '点击重置',
  'signIn.login.noAccount': '没有账户？',
  'signIn.login.register': '点击注册',
  'signIn.login.alternate': '其他登录方式',

  'signIn.oauth.github': 'GitHub',
  'signIn.oauth.githubLabel': '使用 GitHub 登录',
  'signIn.oauth.lark': '飞书',
  'signIn.oauth.larkLabel': '使用飞书登录',
  'signIn.oauth.title.github': 'GitHub 登录',
  'signIn.oauth.title.lark': '飞书登录',
  'signIn.oauth.processing': '处理中...',
  'signIn.oauth.retrying': '出现错误，{seconds} 秒后进行第 {attempt} 次重试……',
  'signIn.oauth.attempt': '已失败 {attempt} 次（最多尝试 {max} 次）',
  'signIn.oauth.bound': '绑定成功！',
  'signIn.oauth.giveUp': '操作失败，正在返回登录页面……',

  'signIn.wechat.button': '微信',
  'signIn.wechat.buttonLabel': '使用微信验证码登录',
  'signIn.wechat.title': '微信验证码登录',
  'signIn.wechat.hint': '用微信扫描二维码关注公众号，在公众号中获取登录验证码（3 分钟内有效）。',
  'signIn.wechat.qrAlt': '微信公众号二维码',
  'signIn.wechat.noQr': '管理员尚未设置公众号二维码。',
  'signIn.wechat.code': '验证码',
  'signIn.wechat.codePlaceholder': '请输入验证码',
  'signIn.wechat.submit': '登录',
  'signIn.wechat.cancel': '取消',
  'signIn.wechat.close': '关闭',

  // The login page's notices when the administrator turned password login off.
  'settingsExtras.login.passwordDisabled': '管理员已关闭密码登录，请使用下方的其他登录方式。',
  'settingsExtras.login.noMethod': '管理员已关闭密码登录，且未启用其他登录方式，请联系管理员。',
} as const;
