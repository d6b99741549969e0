import { useT } from '../app/i18n';
import { StatusPageView } from '../app/StatusPageView';

/** The `*` route: '页面不存在' and a hint to check the address (spec §2, §8). */
export function NotFoundPage() {
  const t = useT();
  return <StatusPageView title={t('home.notFound.title')} text={t('home.notFound.text')} back={t('home.notFound.back')} />;
}
