import type { ReactNode } from 'react';
import { Button, Flex } from '@chakra-ui/react';
import type { OAuthProvider } from '../../machines/oauthLaunch';
import { useT } from '../app/i18n';

export interface OAuthButtonsViewProps {
  readonly github: boolean;
  readonly lark: boolean;
  /** The provider whose authorisation page is being prepared. */
  readonly launching: OAuthProvider | null;
  readonly onLaunch: (provider: OAuthProvider) => void;
  /** The WeChat dialog (its own trigger button), when offered. */
  readonly children?: ReactNode;
}

export function OAuthButtonsView({ github, lark, launching, onLaunch, children }: OAuthButtonsViewProps) {
  const t = useT();
  return (
    <Flex gap={3} wrap="wrap" justify="center">
      {github && (
        <Button
          variant="outline"
          aria-label={t('signIn.oauth.githubLabel')}
          loading={launching === 'github'}
          disabled={launching !== null}
          onClick={() => onLaunch('github')}
        >
          {t('signIn.oauth.github')}
        </Button>
      )}
      {lark && (
        <Button
          variant="outline"
          colorPalette="blue"
          aria-label={t('signIn.oauth.larkLabel')}
          loading={launching === 'lark'}
          disabled={launching !== null}
          onClick={() => onLaunch('lark')}
        >
          {t('signIn.oauth.lark')}
        </Button>
      )}
      {children}
    </Flex>
  );
}
