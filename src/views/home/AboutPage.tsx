import { useSelector } from '@xstate/react';
import {
  pageContentMachine,
  selectContent,
  selectContentKind,
  selectError,
  selectIsBusy,
  selectIsCachedCopy,
} from '../../machines/pageContent';
import { useMachineActor } from '../app/machineRegistry';
import { AboutPageView } from './AboutPageView';

/** Route page for `/about`: the About option (pageContent machine, kind 'about'). */
export function AboutPage() {
  const actorRef = useMachineActor(pageContentMachine, { kind: 'about' });
  const contentKind = useSelector(actorRef, selectContentKind);
  const content = useSelector(actorRef, selectContent);
  const loading = useSelector(actorRef, selectIsBusy);
  const cachedCopy = useSelector(actorRef, selectIsCachedCopy);
  const error = useSelector(actorRef, selectError);
  return (
    <AboutPageView
      contentKind={contentKind}
      content={content}
      loading={loading}
      cachedCopy={cachedCopy}
      error={error}
      onRetry={() => actorRef.send({ type: 'content.retry' })}
    />
  );
}
