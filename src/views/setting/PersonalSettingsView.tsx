import type { FormEvent, ReactNode } from 'react';
import {
  Alert,
  Button,
  Card,
  CloseButton,
  Field,
  Flex,
  Heading,
  Image,
  Input,
  Portal,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { DataList, Dialog, Textarea } from '../app/laterComponents';
import type { User } from '../../domain/user';
import type { EmailBindField, ShownSecret } from '../../machines/personalSettings';
import type { OAuthProvider } from '../../machines/oauthLaunch';
import { useT } from '../app/i18n';

export interface SelfDeleteProps {
  readonly open: boolean;
  readonly deleting: boolean;
  /** The username to type. */
  readonly username: string;
  readonly confirmation: string;
  readonly onOpen: () => void;
  readonly onCancel: () => void;
  readonly onConfirmationChange: (value: string) => void;
  readonly onConfirm: () => void;
}

export interface WeChatBindProps {
  readonly open: boolean;
  readonly binding: boolean;
  /** status.wechat_qrcode ('' when not set). */
  readonly qrCodeUrl: string;
  readonly onOpen: () => void;
  readonly onCancel: () => void;
  readonly onSubmit: (code: string) => void;
}

export interface EmailBindProps {
  readonly open: boolean;
  readonly binding: boolean;
  readonly email: string;
  readonly code: string;
  readonly sendingCode: boolean;
  readonly canSendCode: boolean;
  readonly codeSecondsLeft: number;
  /** The bot-check widget when enabled. */
  readonly turnstile?: ReactNode;
  readonly onOpen: () => void;
  readonly onCancel: () => void;
  readonly onChange: (field: EmailBindField, value: string) => void;
  readonly onSendCode: () => void;
  readonly onSubmit: () => void;
}

export interface PersonalSettingsViewProps {
  /** The account with its bindings; null while loading or when it could not be read. */
  readonly account: User | null;
  readonly loadingAccount: boolean;
  readonly generatingToken: boolean;
  readonly copyingInvite: boolean;
  /** A token or invite call runs: both buttons are disabled. */
  readonly busy: boolean;
  /** A value the clipboard refused, to copy by hand. */
  readonly shown: ShownSecret | null;
  /** Which bindings the server offers (WeChat and GitHub need their switch, Lark a client id). */
  readonly providers: { readonly wechat: boolean; readonly github: boolean; readonly lark: boolean };
  /** An OAuth binding is being launched. */
  readonly launching: boolean;
  readonly onGenerateToken: () => void;
  readonly onCopyInvite: () => void;
  readonly onDismissShown: () => void;
  readonly onOAuthBind: (provider: OAuthProvider) => void;
  readonly selfDelete: SelfDeleteProps;
  readonly wechat: WeChatBindProps;
  readonly email: EmailBindProps;
}

/** The personal settings tab: access token, invite link, account deletion, account bindings. */
export function PersonalSettingsView(props: PersonalSettingsViewProps) {
  const { account, loadingAccount, generatingToken, copyingInvite, busy, shown, providers, launching } = props;
  const t = useT();
  const none = t('personal.binding.none');
  const bound = (value: string | undefined) => (value !== undefined && value !== '' ? value : none);
  return (
    <Stack gap={6} w="full" maxW="3xl">
      <Card.Root>
        <Card.Header px={{ base: 4, sm: 6 }}>
          <Heading as="h2" size="lg">
            {t('personal.general')}
          </Heading>
        </Card.Header>
        <Card.Body px={{ base: 4, sm: 6 }}>
          <Stack gap={4}>
            <Flex gap={3} wrap="wrap">
              <Button colorPalette="blue" onClick={props.onGenerateToken} loading={generatingToken} loadingText={t('personal.token.generate')} disabled={busy}>
                {t('personal.token.generate')}
              </Button>
              <Button variant="outline" onClick={props.onCopyInvite} loading={copyingInvite} loadingText={t('personal.invite.copy')} disabled={busy}>
                {t('personal.invite.copy')}
              </Button>
              <SelfDeleteDialog {...props.selfDelete} />
            </Flex>
            {shown !== null && <ShownSecretBox shown={shown} onDismiss={props.onDismissShown} />}
          </Stack>
        </Card.Body>
      </Card.Root>

      <Card.Root>
        <Card.Header px={{ base: 4, sm: 6 }}>
          <Heading as="h2" size="lg">
            {t('personal.bindings')}
          </Heading>
        </Card.Header>
        <Card.Body px={{ base: 4, sm: 6 }}>
          <Stack gap={4}>
            {loadingAccount ? (
              <Flex align="center" gap={3} role="status" aria-live="polite">
                <Spinner size="sm" />
                <Text>{t('personal.binding.loading')}</Text>
              </Flex>
            ) : (
              <DataList.Root orientation="horizontal" aria-label={t('personal.bindings')}>
                <DataList.Item>
                  <DataList.ItemLabel>{t('personal.binding.email')}</DataList.ItemLabel>
                  <DataList.ItemValue wordBreak="break-all">{bound(account?.email)}</DataList.ItemValue>
                </DataList.Item>
                <DataList.Item>
                  <DataList.ItemLabel>{t('personal.binding.github')}</DataList.ItemLabel>
                  <DataList.ItemValue wordBreak="break-all">{bound(account?.github_id)}</DataList.ItemValue>
                </DataList.Item>
                <DataList.Item>
                  <DataList.ItemLabel>{t('personal.binding.wechat')}</DataList.ItemLabel>
                  <DataList.ItemValue wordBreak="break-all">{bound(account?.wechat_id)}</DataList.ItemValue>
                </DataList.Item>
                <DataList.Item>
                  <DataList.ItemLabel>{t('personal.binding.lark')}</DataList.ItemLabel>
                  <DataList.ItemValue wordBreak="break-all">{bound(account?.lark_id)}</DataList.ItemValue>
                </DataList.Item>
              </DataList.Root>
            )}
            <Flex gap={3} wrap="wrap">
              {providers.wechat && <WeChatBindDialog {...props.wechat} />}
              {providers.github && (
                <Button variant="outline" loading={launching} loadingText={t('personal.github.bind')} onClick={() => props.onOAuthBind('github')}>
                  {t('personal.github.bind')}
                </Button>
              )}
              {providers.lark && (
                <Button variant="outline" loading={launching} loadingText={t('personal.lark.bind')} onClick={() => props.onOAuthBind('lark')}>
                  {t('personal.lark.bind')}
                </Button>
              )}
              <EmailBindDialog {...props.email} />
            </Flex>
          </Stack>
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}

function ShownSecretBox({ shown, onDismiss }: { readonly shown: ShownSecret; readonly onDismiss: () => void }) {
  const t = useT();
  const label = t(shown.kind === 'token' ? 'personal.shown.token' : 'personal.shown.invite');
  return (
    <Alert.Root status="warning" alignItems="flex-start">
      <Alert.Indicator />
      <Alert.Content w="full" gap={2}>
        <Alert.Title>{t('personal.shown.hint')}</Alert.Title>
        <Field.Root>
          <Field.Label>{label}</Field.Label>
          <Textarea
            readOnly
            value={shown.text}
            rows={2}
            fontFamily="mono"
            onFocus={(e) => e.currentTarget.select()}
            data-testid="shown-secret"
          />
        </Field.Root>
      </Alert.Content>
      <CloseButton size="sm" aria-label={t('personal.shown.dismiss')} onClick={onDismiss} />
    </Alert.Root>
  );
}

function SelfDeleteDialog({ open, deleting, username, confirmation, onOpen, onCancel, onConfirmationChange, onConfirm }: SelfDeleteProps) {
  const t = useT();
  const formId = 'self-delete-form';
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onConfirm();
  };
  return (
    <Dialog.Root open={open} onOpenChange={(d) => (d.open ? onOpen() : onCancel())} placement="center" role="alertdialog">
      <Dialog.Trigger asChild>
        <Button variant="outline" colorPalette="red">
          {t('personal.delete.open')}
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('personal.delete.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap={4}>
                <Dialog.Description>{t('personal.delete.warning')}</Dialog.Description>
                <form id={formId} onSubmit={handleSubmit} noValidate>
                  <Field.Root>
                    <Field.Label>{t('personal.delete.confirmation', { username })}</Field.Label>
                    <Input
                      name="self_account_deletion_confirmation"
                      autoComplete="off"
                      value={confirmation}
                      disabled={deleting}
                      placeholder={t('personal.delete.confirmationPlaceholder')}
                      onChange={(e) => onConfirmationChange(e.currentTarget.value)}
                    />
                  </Field.Root>
                </form>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel} disabled={deleting}>
                {t('personal.delete.cancel')}
              </Button>
              <Button type="submit" form={formId} colorPalette="red" loading={deleting} loadingText={t('personal.delete.confirm')}>
                {t('personal.delete.confirm')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('personal.close')} disabled={deleting} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function WeChatBindDialog({ open, binding, qrCodeUrl, onOpen, onCancel, onSubmit }: WeChatBindProps) {
  const t = useT();
  const formId = 'wechat-bind-form';
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = new FormData(e.currentTarget).get('wechat_verification_code');
    onSubmit(typeof code === 'string' ? code : '');
  };
  return (
    <Dialog.Root open={open} onOpenChange={(d) => (d.open ? onOpen() : onCancel())} placement="center" size={{ base: 'full', sm: 'sm' }}>
      <Dialog.Trigger asChild>
        <Button variant="outline" colorPalette="green">
          {t('personal.wechat.bind')}
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('personal.wechat.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap={4}>
                <Dialog.Description>{t('personal.wechat.hint')}</Dialog.Description>
                {qrCodeUrl !== '' ? (
                  <Image src={qrCodeUrl} alt={t('personal.wechat.qrAlt')} maxW="200px" mx="auto" />
                ) : (
                  <Text color="fg.muted">{t('personal.wechat.noQr')}</Text>
                )}
                <form id={formId} onSubmit={handleSubmit} noValidate>
                  <Field.Root>
                    <Field.Label>{t('personal.wechat.code')}</Field.Label>
                    <Input
                      name="wechat_verification_code"
                      autoComplete="one-time-code"
                      disabled={binding}
                      placeholder={t('personal.wechat.codePlaceholder')}
                    />
                  </Field.Root>
                </form>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel} disabled={binding}>
                {t('personal.wechat.cancel')}
              </Button>
              <Button type="submit" form={formId} colorPalette="blue" loading={binding} loadingText={t('personal.wechat.submit')}>
                {t('personal.wechat.submit')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('personal.close')} disabled={binding} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function EmailBindDialog(props: EmailBindProps) {
  const { open, binding, email, code, sendingCode, canSendCode, codeSecondsLeft, turnstile } = props;
  const t = useT();
  const formId = 'email-bind-form';
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    props.onSubmit();
  };
  return (
    <Dialog.Root open={open} onOpenChange={(d) => (d.open ? props.onOpen() : props.onCancel())} placement="center" size={{ base: 'full', sm: 'md' }}>
      <Dialog.Trigger asChild>
        <Button variant="outline">{t('personal.email.bind')}</Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('personal.email.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <form id={formId} onSubmit={handleSubmit} noValidate>
                <Stack gap={4}>
                  <Field.Root>
                    <Field.Label>{t('personal.email.email')}</Field.Label>
                    <Flex gap={2} w="full" direction={{ base: 'column', sm: 'row' }}>
                      <Input
                        name="email"
                        type="email"
                        autoComplete="email"
                        value={email}
                        disabled={binding}
                        placeholder={t('personal.email.emailPlaceholder')}
                        onChange={(e) => props.onChange('email', e.currentTarget.value)}
                      />
                      <Button
                        variant="outline"
                        flexShrink={0}
                        onClick={props.onSendCode}
                        loading={sendingCode}
                        loadingText={t('personal.email.sendCode')}
                        disabled={!canSendCode || binding}
                      >
                        {codeSecondsLeft > 0 ? t('personal.email.resendIn', { seconds: codeSecondsLeft }) : t('personal.email.sendCode')}
                      </Button>
                    </Flex>
                  </Field.Root>
                  <Field.Root>
                    <Field.Label>{t('personal.email.code')}</Field.Label>
                    <Input
                      name="email_verification_code"
                      autoComplete="one-time-code"
                      value={code}
                      disabled={binding}
                      placeholder={t('personal.email.codePlaceholder')}
                      onChange={(e) => props.onChange('code', e.currentTarget.value)}
                    />
                  </Field.Root>
                  {turnstile}
                </Stack>
              </form>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={props.onCancel} disabled={binding}>
                {t('personal.email.cancel')}
              </Button>
              <Button type="submit" form={formId} colorPalette="blue" loading={binding} loadingText={t('personal.email.submit')}>
                {t('personal.email.submit')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('personal.close')} disabled={binding} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
