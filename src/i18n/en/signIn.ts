import type { signIn as zh } from '../zh/signIn';

export const signIn: Record<keyof typeof zh, string> = {

  'signIn.login.title': 'Sign in',
  'signIn.login.expired': 'Not logged in or the login has expired, please log in again!',
  'signIn.login.username': 'Username or e-mail',
  'signIn.login.usernamePlaceholder': 'Username or e-mail address',
  'signIn.login.password': 'Password',
  'signIn.login.passwordPlaceholder': 'Password',
  'signIn.login.submit': 'Log in',
  'signIn.login.forgot': 'Forgot your password?',
  'signIn.login.reset': 'Reset it',
  'signIn.login.noAccount': 'No account yet?',
  'signIn.login.register': 'Register',
  'signIn.login.alternate': 'Other ways to sign in',

  'signIn.oauth.github': 'GitHub',
  'signIn.oauth.githubLabel': 'Sign in with GitHub',
  'signIn.oauth.lark': 'Lark',
  'signIn.oauth.larkLabel': 'Sign in with Lark',
  'signIn.oauth.title.github': 'GitHub sign-in',
  'signIn.oauth.title.lark': 'Lark sign-in',
  'signIn.oauth.processing': 'Processing...',
  'signIn.oauth.retrying': 'Something went wrong; retry {attempt} in {seconds} s...',
  'signIn.oauth.attempt': 'Failed {attempt} of at most {max} attempts',
  'signIn.oauth.bound': 'Bound successfully!',
  'signIn.oauth.giveUp': 'Operation failed, redirecting to login...',

  'signIn.wechat.button': 'WeChat',
  'signIn.wechat.buttonLabel': 'Sign in with a WeChat code',
  'signIn.wechat.title': 'Sign in with a WeChat code',
  'signIn.wechat.hint': 'Scan the QR code with WeChat, follow the official account and get a login code there (valid for 3 minutes).',
  'signIn.wechat.qrAlt': 'WeChat official account QR code',
  'signIn.wechat.noQr': 'The administrator has not set the official account QR code yet.',
  'signIn.wechat.code': 'Verification code',
  'signIn.wechat.codePlaceholder': 'Enter the code',
  'signIn.wechat.submit': 'Log in',
  'signIn.wechat.cancel': 'Cancel',
  'signIn.wechat.close': 'Close',

  // The login page's notices when the administrator turned password login off.
  'settingsExtras.login.passwordDisabled': 'The administrator has turned password login off; use another sign-in method below.',
  'settingsExtras.login.noMethod': 'The administrator has turned password login off and no other sign-in method is enabled; please contact the administrator.',
};
