import { createToaster, Portal, Stack } from '@chakra-ui/react';
import { Toast, Toaster as ChakraToaster } from './laterComponents';
import type { NoticeLevel, NotifyEvent } from '../../domain/message';
import { useT } from './i18n';
import { toastLook } from './toastLook';

/** Spec §9 toast durations (ms); notices stay until closed. */
export const toastDurations: Readonly<Record<NoticeLevel, number>> = {
  success: 1500,
  info: 3000,
  error: 5000,
  warning: 10000,
  notice: Infinity,
};

/**
 * The console's one toaster (conventions §7): top right, top centre at 600 px and below, always
 * under the header, so its menus (account, language, colour mode) stay reachable while toasts show.
 */
export const toaster = createToaster({
  placement: 'top-end',
  pauseOnPageIdle: true,
  max: 6,
  overlap: false,
  offsets: { top: '4.5rem', right: '1rem', bottom: '1rem', left: '1rem' },
});

const toastType = (level: NoticeLevel): 'success' | 'info' | 'error' | 'warning' =>
  level === 'notice' ? 'info' : level;

/** Shows a machine's `notify` event, already rendered to text. */
export function showToast(event: Pick<NotifyEvent, 'level'>, text: string): void {
  toaster.create({
    type: toastType(event.level),
    description: text,
    duration: toastDurations[event.level],
    closable: true,
  });
}

/** Mounted once by the app shell (and by stories that show toasts). */
/** Success, warning and error toasts in colours whose text meets AA (./toastLook). */
const coloured = {
  '&[data-type=success]': toastLook.success,
  '&[data-type=warning]': toastLook.warning,
  '&[data-type=error]': toastLook.error,
} as const;

export function Toaster() {
  const t = useT();
  return (
    <Portal>
      <ChakraToaster
        toaster={toaster}
        insetInline={{ mdDown: '4' }}
        css={{
          '@media (max-width: 600px)': {
            left: '50% !important',
            right: 'auto !important',
            translate: '-50% 0',
            width: 'calc(100% - 2rem)',
          },
        }}
      >
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} role={toast.type === 'error' ? 'alert' : 'status'} css={coloured}>
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title !== undefined && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description !== undefined && <Toast.Description opacity="1">{toast.description}</Toast.Description>}
            </Stack>
            {toast.closable === true && <Toast.CloseTrigger aria-label={t('shell.toast.close')} />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
