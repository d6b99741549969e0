import { useSelector } from '@xstate/react';
import type { Status } from '../../domain/status';
import {
  pageContentMachine,
  selectContent,
  selectContentKind,
  selectError,
  selectIsBusy,
  selectIsCachedCopy,
  selectNotice,
} from '../../machines/pageContent';
import { useMachineActor } from '../app/machineRegistry';
import { HomePageView } from './HomePageView';

export interface HomePageProps {
  /**
   * The server status (session `selectStatus`) for the built-in home shown when
   * HomePageContent is empty; omitted or null shows the welcome without the status card.
   */
  readonly status?: Status | null;
}

/** Route page for `/`: the notice and HomePageContent (pageContent machine, kind 'home'). */
export function HomePage({ status = null }: HomePageProps) {
  const actorRef = useMachineActor(pageContentMachine, { kind: 'home' });
  const contentKind = useSelector(actorRef, selectContentKind);
  const content = useSelector(actorRef, selectContent);
  const loading = useSelector(actorRef, selectIsBusy);
  const cachedCopy = useSelector(actorRef, selectIsCachedCopy);
  const error = useSelector(actorRef, selectError);
  const notice = useSelector(actorRef, selectNotice);
  return (
    <HomePageView
      contentKind={contentKind}
      content={content}
      loading={loading}
      cachedCopy={cachedCopy}
      error={error}
      notice={notice}
      status={status}
      onRetry={() => actorRef.send({ type: 'content.retry' })}
      onDismissNotice={() => actorRef.send({ type: 'notice.dismiss' })}
    />
  );
}
