/** Area 'pricing': the models-and-prices page (/pricing). */
export const pricing = {
  'pricing.group': '当前分组：{group}（倍率 {ratio}）',
  'pricing.unit.currency': '价格单位：美元 / 每 100 万 tokens',
  'pricing.unit.quota': '价格单位：额度 / 每 100 万 tokens',
  'pricing.search.label': '搜索模型',
  'pricing.search.placeholder': '输入模型名称',
  'pricing.column.model': '模型',
  'pricing.column.input': '输入价格',
  'pricing.column.output': '输出价格',
  'pricing.column.available': '状态',
  'pricing.available': '可用',
  'pricing.unavailable': '不可用',
  'pricing.empty': '当前分组暂无可用模型',
  'pricing.noMatch': '没有匹配的模型',
  'pricing.count': '共 {shown} / {total} 个模型',
  'pricing.loadFailed': '模型价格加载失败',
  'pricing.retry': '重试',
} as const;
