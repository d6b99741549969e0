import { ChatPageView } from './ChatPageView';

export interface ChatPageProps {
  /** Status `chat_link` from the session ('' when not configured). */
  readonly chatLink: string;
}

/** Route page for `/chat`: no workflow of its own, the link comes from the session status. */
export function ChatPage({ chatLink }: ChatPageProps) {
  return <ChatPageView chatLink={chatLink} />;
}
