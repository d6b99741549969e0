/** Area 'home': the home, about, chat and not-found pages and the footer. */
export const home = {
  'home.loading': '正在加载内容……',
  'home.cachedCopy': '正在获取最新内容……',
  'home.failed': '内容加载失败',
  'home.retry': '重试',
  'home.frameTitle': '首页内容',

  'home.notice.title': '公告',
  'home.notice.dismiss': '关闭公告',

  'home.welcome.title': '欢迎使用 {systemName}',
  'home.welcome.text': '这里是 {systemName} 的管理控制台：管理员可配置渠道、用户、兑换码与系统设置，用户可管理自己的令牌、充值额度并查看使用日志。',
  'home.welcome.customise': '管理员可在设置页面设置首页内容，支持 Markdown，或填写以 https:// 开头的网址以嵌入页面。',

  'home.status.title': '系统状况',
  'home.status.info': '系统信息',
  'home.status.name': '名称',
  'home.status.version': '版本',
  'home.status.source': '源码',
  'home.status.sourceLink': 'One API 项目仓库',
  'home.status.startTime': '启动时间',
  'home.status.config': '系统配置',
  'home.status.emailVerification': '邮箱验证',
  'home.status.githubOAuth': 'GitHub 身份验证',
  'home.status.wechatLogin': '微信身份验证',
  'home.status.turnstile': 'Turnstile 用户校验',
  'home.status.enabled': '已启用',
  'home.status.disabled': '未启用',
  'home.status.unavailable': '尚未获取到系统状况',

  'home.about.title': '关于',
  'home.about.frameTitle': '关于',
  'home.about.empty': '可在设置页面设置关于内容，支持 HTML & Markdown',
  'home.about.repository': '项目仓库地址：',

  'home.chat.frameTitle': '聊天',
  'home.chat.unconfigured.title': '未配置聊天页面',
  'home.chat.unconfigured.text': '管理员尚未设置聊天链接（ChatLink），请在设置页面中配置后再使用。',

  'home.notFound.title': '页面不存在',
  'home.notFound.text': '请检查你的浏览器地址是否正确',
  'home.notFound.back': '返回首页',

  'home.footer.label': '页脚',
} as const;
