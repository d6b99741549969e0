/** Area 'validation': the client-side rule messages of spec §5 (src/domain/validation.ts). */
export const validation = {
  'validation.register.passwordTooShort': '密码长度不得小于 8 位！',
  'validation.register.passwordMismatch': '两次输入的密码不一致',
  'validation.turnstile.wait': '请稍后几秒重试，Turnstile 正在检查用户环境！',
  // The reset request shows the English sentence in every language (spec §5).
  'validation.turnstile.waitEnglish': 'please retry in a few seconds, Turnstile is checking the user environment!',
  'validation.selfDelete.mismatch': '请输入你的账户名以确认删除！',
  'validation.ratio.model': '模型倍率不是合法的 JSON 字符串',
  'validation.ratio.group': '分组倍率不是合法的 JSON 字符串',
  'validation.ratio.completion': '补全倍率不是合法的 JSON 字符串',
  'validation.channel.nameAndKeyRequired': '请填写渠道名称和渠道密钥！',
  'validation.channel.modelsRequired': '请至少选择一个模型！',
  'validation.channel.modelMappingInvalid': '模型映射必须是合法的 JSON 格式！',
  'validation.channel.baseUrlInvalid': 'Base URL 必须是以 http:// 或 https:// 开头的网址！',
  'validation.channel.weightInvalid': '权重必须是大于或等于 0 的整数！',
  'validation.token.nameRequired': '请填写令牌名称！',
  'validation.token.expiryInvalid': '过期时间格式错误！',
  'validation.redemption.nameRequired': '请填写兑换码名称！',
  'validation.topUp.codeRequired': '请输入兑换码！',
  'validation.topUp.noLink': '超级管理员未设置充值链接！',
} as const;
