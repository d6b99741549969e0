import { useT } from './i18n';
import { StatusPageView } from './StatusPageView';

/** The 403 page: a signed-in viewer below admin on an admin route ('无权访问此页面', a link home). */
export function ForbiddenView() {
  const t = useT();
  return <StatusPageView title={t('shell.forbidden.title')} text={t('shell.forbidden.text')} back={t('shell.forbidden.back')} />;
}
