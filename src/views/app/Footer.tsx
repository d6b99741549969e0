import { useSelector } from '@xstate/react';
import { footerMachine, selectFooterHtml } from '../../machines/footer';
import { useMachineActor } from './machineRegistry';
import { FooterView } from './FooterView';

export interface FooterProps {
  /** Status `system_name` from the session. */
  readonly systemName: string;
  /** The version the default footer names (status `version`, or the build's). */
  readonly version: string;
}

/** The shell's footer: the stored Footer option, polled briefly after mount (footer machine). */
export function Footer({ systemName, version }: FooterProps) {
  const actorRef = useMachineActor(footerMachine);
  const footerHtml = useSelector(actorRef, selectFooterHtml);
  return <FooterView systemName={systemName} version={version} footerHtml={footerHtml} />;
}
