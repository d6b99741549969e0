/** Shared messages: the spec §8 error catalogue and generic words. zh holds the spec's strings verbatim. */
export const common = {
  'error.expired': '未登录或登录已过期，请重新登录！',
  'error.tooManyRequests': '错误：请求次数过多，请稍后再试！',
  'error.internal': '错误：服务器内部错误，请联系管理员！',
  'error.demoOnly': '本站仅作演示之用，无服务端！',
  'error.prefixed': '错误：{message}',
  'error.decode': '服务器返回的数据格式不正确（{call}）：{report}',
  'error.refused.redemptionUsed': '该兑换码已被使用，不能启用或禁用',
  'error.refused.lastModel': '不能移除渠道的最后一个模型（{model}）',
  'error.refused.unknownAction': '未知操作：{action}（未发送请求）',
  'error.refused.badValue': '{action}：无效的值「{value}」（未发送请求）',
  'error.refused.clipboard': '无法复制到剪贴板，请手动复制',
  'error.refused.download': '此处无法下载文件',
  'common.success': '操作成功完成！',
} as const;
