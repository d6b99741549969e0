import { useMemo } from 'react';
import { Box, Link, Text } from '@chakra-ui/react';
import { useT } from './i18n';
import { sanitizeHtml } from './sanitize';

/** Where the default footer's links point (contract §5.4: project and MIT licence). */
export const footerLinks = {
  project: 'https://github.com/songquanpeng/one-api',
  license: 'https://opensource.org/licenses/mit-license.php',
} as const;

export interface FooterViewProps {
  /** Status `system_name`. */
  readonly systemName: string;
  /** The version to name (the build's or the server's). */
  readonly version: string;
  /** The Footer option's HTML (raw; sanitised here); '' shows the default line. */
  readonly footerHtml: string;
}

/** The page footer: the configured HTML, or a line naming the system, its version and source. */
export function FooterView({ systemName, version, footerHtml }: FooterViewProps) {
  const t = useT();
  const name = [systemName, version].filter((s) => s.trim() !== '').join(' ');
  const configured = useMemo(() => (footerHtml.trim() === '' ? '' : sanitizeHtml(footerHtml)), [footerHtml]);
  return (
    <Box as="footer" py={6} px={4} borderTopWidth="1px" textAlign="center" fontSize="sm" color="fg.muted">
      {configured !== '' ? (
        <Box
          css={{ '& a': { color: 'fg', textDecoration: 'underline' } }}
          dangerouslySetInnerHTML={{ __html: configured }}
        />
      ) : (
        <Text>
          {name !== '' && <>{name} · </>}
          <Link href={footerLinks.project} target="_blank" rel="noopener noreferrer" color="fg" textDecoration="underline">
            {t('home.footer.source')}
          </Link>
          {' · '}
          <Link href={footerLinks.license} target="_blank" rel="noopener noreferrer" color="fg" textDecoration="underline">
            {t('home.footer.license')}
          </Link>
        </Text>
      )}
    </Box>
  );
}
