import type { common as zh } from '../zh/common';

export const common: Record<keyof typeof zh, string> = {
  'error.expired': 'Not logged in or the login has expired, please log in again!',
  'error.tooManyRequests': 'Error: too many requests, please try again later!',
  'error.internal': 'Error: internal server error, please contact the administrator!',
  'error.demoOnly': 'This site is for demonstration only, no server side!',
  'error.prefixed': 'Error: {message}',
  'error.clipboard': 'Cannot copy to the clipboard; please copy it by hand',
  'error.download': 'Files cannot be downloaded here',
  'error.turnstileApi': 'The bot check script loaded but is not usable',
  'error.turnstileLoad': 'The bot check script failed to load',
  'error.turnstileTimeout': 'The bot check script took too long to load',
  'error.decode': 'The server sent data in an unexpected shape ({call}): {report}',
  'error.refused.redemptionUsed': 'This code has been used; it cannot be enabled or disabled',
  'error.refused.lastModel': 'The last model ({model}) of a channel cannot be removed',
  'error.refused.unknownAction': 'Unknown action: {action} (nothing was sent)',
  'error.refused.badValue': '{action}: invalid value "{value}" (nothing was sent)',
  'error.refused.clipboard': 'Cannot copy to the clipboard; please copy by hand',
  'error.refused.download': 'Cannot download a file here',
  'common.success': 'Operation completed successfully!',
};
