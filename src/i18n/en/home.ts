import type { home as zh } from '../zh/home';

export const home: Record<keyof typeof zh, string> = {
  'home.loading': 'Loading content…',
  'home.cachedCopy': 'Fetching the latest content…',
  'home.failed': 'The content could not be loaded',
  'home.retry': 'Retry',
  'home.frameTitle': 'Home page content',

  'home.notice.title': 'Notice',
  'home.notice.dismiss': 'Dismiss notice',

  'home.welcome.title': 'Welcome to {systemName}',
  'home.welcome.text':
    'This is the {systemName} console: administrators configure channels, users, redemption codes and system settings; users manage their own tokens, top up their quota and read their usage logs.',
  'home.welcome.customise':
    'Administrators can set the home page content on the settings page, in Markdown, or as an https:// address to embed a page.',

  'home.status.title': 'System status',
  'home.status.info': 'System information',
  'home.status.name': 'Name',
  'home.status.version': 'Version',
  'home.status.source': 'Source',
  'home.status.sourceLink': 'One API repository',
  'home.status.startTime': 'Started at',
  'home.status.config': 'System configuration',
  'home.status.emailVerification': 'E-mail verification',
  'home.status.githubOAuth': 'GitHub sign-in',
  'home.status.wechatLogin': 'WeChat sign-in',
  'home.status.turnstile': 'Turnstile check',
  'home.status.enabled': 'Enabled',
  'home.status.disabled': 'Disabled',
  'home.status.unavailable': 'The system status is not available yet',

  'home.about.title': 'About',
  'home.about.frameTitle': 'About',
  'home.about.empty': 'The About content can be set on the settings page; HTML and Markdown are supported.',
  'home.about.repository': 'Project repository: ',

  'home.chat.frameTitle': 'Chat',
  'home.chat.unconfigured.title': 'No chat page is configured',
  'home.chat.unconfigured.text':
    'The administrator has not set a chat link (ChatLink) yet; set it on the settings page first.',

  'home.notFound.title': 'Page not found',
  'home.notFound.text': 'Please check that the address in your browser is correct',
  'home.notFound.back': 'Back to home',

  'home.footer.label': 'Footer',
};
