/** Shared messages: the spec §8 error catalogue and generic words. zh holds the spec's strings verbatim. */
export const common = {
  'error.expired': '未登录或登录已过期，请重新登录！',
  'error.tooManyRequests': '错误：请求次数过多，请稍后再试！',
  'error.internal': '错误：服务器内部错误，请联系管理员！',
  'error.demoOnly': '本站仅作演示之用，无服务端！',
  'error.prefixed': '错误：{message}',
  'error.decode': '服务器返回的数据格式不正确（{call}）：{report}',
  'common.success': '操作成功完成！',
} as const;
