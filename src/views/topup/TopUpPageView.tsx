import type { FormEvent } from 'react';
import { Button, Card, Field, Flex, Heading, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { useT } from '../app/i18n';

export interface TopUpPageViewProps {
  /** The remaining quota as shown (currency or number), null while unknown. */
  readonly remainingQuota: string | null;
  /** The account is being loaded. */
  readonly loading: boolean;
  /** The redemption code as typed. */
  readonly code: string;
  /** A redemption (or the reload after it) runs: the redeem button spins. */
  readonly redeeming: boolean;
  /** The top-up link is being opened. */
  readonly openingLink: boolean;
  /** Any call runs: the code field and buttons are disabled. */
  readonly busy: boolean;
  readonly onCodeChange: (code: string) => void;
  readonly onRedeem: () => void;
  readonly onTopUp: () => void;
}

/** The /topup page: redemption code, "top up" (external link), "redeem", remaining quota. */
export function TopUpPageView({
  remainingQuota,
  loading,
  code,
  redeeming,
  openingLink,
  busy,
  onCodeChange,
  onRedeem,
  onTopUp,
}: TopUpPageViewProps) {
  const t = useT();
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onRedeem();
  };
  return (
    <Flex justify="center" px={3} py={{ base: 6, md: 12 }}>
      <Card.Root w="full" maxW="lg">
        <Card.Header px={{ base: 4, sm: 6 }}>
          <Heading as="h1" size="xl">
            {t('topUp.title')}
          </Heading>
        </Card.Header>
        <Card.Body px={{ base: 4, sm: 6 }}>
          <Stack gap={6}>
            <Stack gap={1} role="status" aria-live="polite" aria-label={t('topUp.remaining')}>
              <Text color="fg.muted" fontSize="sm">
                {t('topUp.remaining')}
              </Text>
              {loading ? (
                <Flex align="center" gap={2}>
                  <Spinner size="sm" />
                  <Text>{t('topUp.loading')}</Text>
                </Flex>
              ) : (
                <Text fontSize="2xl" fontWeight="semibold" data-testid="remaining-quota">
                  {remainingQuota ?? t('topUp.remainingUnknown')}
                </Text>
              )}
            </Stack>
            <form onSubmit={handleSubmit} noValidate aria-label={t('topUp.title')}>
              <Stack gap={4}>
                <Field.Root>
                  <Field.Label>{t('topUp.code')}</Field.Label>
                  <Input
                    name="key"
                    value={code}
                    disabled={busy}
                    autoComplete="off"
                    placeholder={t('topUp.codePlaceholder')}
                    onChange={(e) => onCodeChange(e.currentTarget.value)}
                  />
                </Field.Root>
                <Flex gap={3} wrap="wrap">
                  <Button type="submit" colorPalette="blue" loading={redeeming} loadingText={t('topUp.redeem')} disabled={busy}>
                    {t('topUp.redeem')}
                  </Button>
                  <Button
                    type="button"
                    variant="outline"
                    colorPalette="green"
                    loading={openingLink}
                    loadingText={t('topUp.topUp')}
                    disabled={busy}
                    title={t('topUp.topUpHint')}
                    onClick={onTopUp}
                  >
                    {t('topUp.topUp')}
                  </Button>
                </Flex>
              </Stack>
            </form>
          </Stack>
        </Card.Body>
      </Card.Root>
    </Flex>
  );
}
