/**
 * Area 'rules': field rules shared by the console's checks and the server's refusals
 * (src/domain/accountRules.ts, server/http/ruleText.ts). Each names the field and the rule.
 */
export const rules = {
  'rules.username.required': '用户名不能为空',
  'rules.username.tooLong': '用户名长度不能超过 {max} 个字符',
  'rules.username.taken': '用户名已被占用，请换一个',
  'rules.password.required': '密码不能为空',
  'rules.password.length': '密码长度必须在 {min} 到 {max} 个字符之间',
  'rules.displayName.tooLong': '显示名称长度不能超过 {max} 个字符',
  'rules.email.required': '邮箱地址不能为空',
  'rules.verificationCode.required': '验证码不能为空',
  'rules.email.tooLong': '邮箱地址长度不能超过 {max} 个字符',
  'rules.group.tooLong': '分组名称长度不能超过 {max} 个字符',
  'rules.role.invalid': '角色取值无效，只能是普通用户、管理员或超级管理员',
  'rules.status.invalid': '状态取值无效，只能是启用、禁用或已删除',
  'rules.nul': '{field}不能包含空字符（NUL）',
  'rules.field.username': '用户名',
  'rules.field.password': '密码',
  'rules.field.displayName': '显示名称',
  'rules.field.email': '邮箱地址',
  'rules.field.group': '分组',
  'rules.field.affCode': '邀请码',
  'rules.field.verificationCode': '验证码',
  'rules.oauth.state': '登录状态校验失败（state 为空或不一致），请返回登录页重新发起登录',
  'rules.mail.failed': '邮件发送失败，请稍后重试或联系管理员（请求 ID：{requestId}）',
  'rules.turnstile.unavailable': '暂时无法完成 Turnstile 人机验证，请稍后重试（请求 ID：{requestId}）',
  'rules.internal': '服务器内部错误，请稍后重试（请求 ID：{requestId}）',
} as const;
