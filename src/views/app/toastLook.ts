/**
 * The coloured toasts' background and text. Chakra's own success and warning toasts put white text
 * on green.600 and orange.600 (3.3:1 and 3.6:1, below AA's 4.5:1) and dim the description to 80 %
 * opacity; the console uses the 700 shades and a full-strength description. tests/unit/theme.test.ts
 * checks each pair in light and dark.
 */
export const toastLook = {
  success: { bg: 'green.700', color: 'white' },
  warning: { bg: 'orange.700', color: 'white' },
  error: { bg: 'red.solid', color: 'red.contrast' },
} as const;
