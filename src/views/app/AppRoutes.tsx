import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router-dom';
import { selectChatLink, selectIsAdmin, selectIsAccessPending, selectQuotaDisplay, selectRole, selectStatus } from '../../machines/session/session.selectors';
import type { QuotaDisplay } from '../../domain/format';
import { resolveServerAddress } from '../../domain/chatLinks';
import { routeAccessOf, routeAudienceOf, routeIdOf } from '../../domain/shellRules';
import { withMessages, type Area, type MessageKey } from '../../i18n';
import { PageShown } from './afterPage';
import { ForbiddenView } from './ForbiddenView';
import { withWiring } from './machineWiring';
import { PageErrorBoundary } from './PageErrorBoundary';
import { PageLoading } from './PageLoading';
import { SessionContext } from './sessionContext';

/** A route page loaded on demand (`page`), with what loads it ahead of its first render. */
type OnDemandPage<P extends object> = ComponentType<P> & { readonly preload: () => Promise<unknown> };

/**
 * A route page loaded on demand, with the '加载{page}中...' placeholder meanwhile; it renders once
 * its module and its area's messages (fetched in parallel) are both there. Loaded before it first
 * renders (`preload`, `preloadFirstPage`), it renders at once: a lazy component suspends on its
 * first render even when its module is there, and React reveals a boundary's content no sooner
 * than 300 ms after it showed its placeholder, so a page preloaded for the first paint appeared
 * about a quarter of a second after the placeholder. Each mount keeps the way it began (the
 * loaded page or the lazy one): switching would mount the page again.
 */
function page<P extends object>(load: () => Promise<ComponentType<P>>, subject: MessageKey, area: Area): OnDemandPage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= withMessages(area, load)().then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function OnDemand(props: P) {
    const [Page] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return (
      <PageErrorBoundary>
        <Suspense fallback={<PageLoading page={subject} />}>
          <Page {...props} />
          <PageShown />
        </Suspense>
      </PageErrorBoundary>
    );
  }
  return Object.assign(OnDemand, { preload });
}

const HomePage = page(withWiring('home', () => import('../home/HomePage').then((m) => m.HomePage)), 'shell.page.home', 'home');
const AboutPage = page(withWiring('home', () => import('../home/AboutPage').then((m) => m.AboutPage)), 'shell.page.about', 'home');
const ChatPage = page(() => import('../home/ChatPage').then((m) => m.ChatPage), 'shell.page.chat', 'home');
const NotFoundPage = page(() => import('../home/NotFoundPage').then((m) => m.NotFoundPage), 'shell.loading.default', 'home');
const LoginPage = page(() => import('../auth/LoginPage').then((m) => m.LoginPage), 'shell.page.login', 'login');
const RegisterPage = page(withWiring(['auth', 'turnstile'], () => import('../auth/RegisterPage').then((m) => m.RegisterPage)), 'shell.page.register', 'account');
const PasswordResetRequestPage = page(
  withWiring(['auth', 'turnstile'], () => import('../auth/PasswordResetRequestPage').then((m) => m.PasswordResetRequestPage)),
  'shell.page.reset',
  'account',
);
const PasswordResetConfirmPage = page(
  withWiring('auth', () => import('../auth/PasswordResetConfirmPage').then((m) => m.PasswordResetConfirmPage)),
  'shell.page.resetConfirm',
  'account',
);
const ProfileEditPage = page(withWiring('user', () => import('../user/ProfileEditPage').then((m) => m.ProfileEditPage)), 'shell.page.profile', 'account');
const OAuthCallbackPage = page(withWiring('auth', () => import('../auth/OAuthCallbackPage').then((m) => m.OAuthCallbackPage)), 'shell.page.oauth', 'login');
const ChannelListPage = page(withWiring('channel', () => import('../channel/ChannelListPage').then((m) => m.ChannelListPage)), 'channels.title', 'channel');
const ChannelFormPage = page(withWiring('channel', () => import('../channel/ChannelFormPage').then((m) => m.ChannelFormPage)), 'channelForm.page', 'channel');
const RedemptionListPage = page(withWiring('redemption', () => import('../redemption/RedemptionListPage').then((m) => m.RedemptionListPage)), 'redemptions.title', 'redemption');
const RedemptionFormPage = page(withWiring('redemption', () => import('../redemption/RedemptionFormPage').then((m) => m.RedemptionFormPage)), 'redemptions.title', 'redemption');
const UserListPage = page(withWiring('user', () => import('../user/UserListPage').then((m) => m.UserListPage)), 'users.title', 'user');
const UserFormPage = page(withWiring('user', () => import('../user/UserFormPage').then((m) => m.UserFormPage)), 'users.title', 'user');
const LogListPage = page(withWiring('log', () => import('../log/LogListPage').then((m) => m.LogListPage)), 'logs.title', 'log');
const SettingsPage = page(withWiring(['setting', 'turnstile'], () => import('../setting/SettingsPage').then((m) => m.SettingsPage)), 'settings.title', 'setting');
const DashboardPage = page(withWiring('dashboard', () => import('../dashboard/DashboardPage').then((m) => m.DashboardPage)), 'dashboard.title', 'dashboard');
const PricingPage = page(withWiring('pricing', () => import('../pricing/PricingPage').then((m) => m.PricingPage)), 'pricing.title', 'pricing');
const TopUpPage = page(withWiring('topup', () => import('../topup/TopUpPage').then((m) => m.TopUpPage)), 'topUp.title', 'topup');
const TokenListPage = page(withWiring('token', () => import('../token/TokenListPage').then((m) => m.TokenListPage)), 'tokens.title', 'token');
const TokenFormPage = page(withWiring('token', () => import('../token/TokenFormPage').then((m) => m.TokenFormPage)), 'tokenForm.page', 'token');

/**
 * The pages a first load can show, in the order of vite.config.ts's `firstPaintRoutes`: index.html's
 * inline script, which preloads the files of the one the address shows (signed out on a guarded
 * path, the login page's), names it on the root element (`data-first-page`: its place here, or
 * `login`). tests/unit/firstPage.test.ts keeps the two lists in step.
 */
export const firstPages = [
  LoginPage,
  RegisterPage,
  PasswordResetRequestPage,
  PasswordResetConfirmPage,
  OAuthCallbackPage,
  AboutPage,
  PricingPage,
  HomePage,
  ProfileEditPage,
  UserFormPage,
  UserListPage,
  ChannelFormPage,
  ChannelListPage,
  RedemptionFormPage,
  RedemptionListPage,
  TokenFormPage,
  TokenListPage,
  LogListPage,
  SettingsPage,
  DashboardPage,
  TopUpPage,
];

/**
 * Loads the page the first load shows (`data-first-page`, see `firstPages`), so that it renders
 * with the first render instead of after its placeholder. Never fails: a page that did not load
 * fails as before, when it renders. Nothing without the mark (dev server, Storybook).
 */
export function preloadFirstPage(mark: string | undefined): Promise<unknown> {
  const first = mark === 'login' ? LoginPage : mark === undefined ? undefined : firstPages[Number(mark)];
  return first === undefined ? Promise.resolve() : first.preload().catch(() => undefined);
}

/**
 * The route guard (spec §2): without a stored user, go to /login and remember where from
 * (`state.from`, read by the login page after signing in); a signed-in viewer below admin on an
 * admin route (src/domain/shellRules) sees the 403 page; while a login is in flight or a restored
 * admin's enrolment is checked, the loading state. The page stays mounted as long as the decision stays 'allow'.
 */
export function RequireUser({ children }: { readonly children: ReactNode }) {
  const role = SessionContext.useSelector(selectRole);
  const pending = SessionContext.useSelector(selectIsAccessPending);
  const location = useLocation();
  const access = routeAccessOf(routeAudienceOf(location.pathname), { role, pending });
  if (access === 'login') return <Navigate to="/login" replace state={{ from: location }} />;
  if (access === 'pending') return <PageLoading />;
  if (access === 'forbidden') return <ForbiddenView />;
  return children;
}

/** How quotas are shown, from the server status (currency or raw quota). */
const useQuotaDisplay = (): QuotaDisplay => SessionContext.useSelector(selectQuotaDisplay);

/** The `:id` of an edit route (src/domain/shellRules). */
const routeId = routeIdOf;

function HomeRoute() {
  const status = SessionContext.useSelector(selectStatus);
  return <HomePage status={status} />;
}

/** /user/edit: the saved account replaces the session's user (the page's machine tells the session). */
function ProfileRoute() {
  return (
    <RequireUser>
      <ProfileEditPage />
    </RequireUser>
  );
}

/** /channel (admin): balances of quota-type channels follow the status's currency display. */
function ChannelListRoute() {
  const quotaDisplay = useQuotaDisplay();
  return (
    <RequireUser>
      <ChannelListPage quotaDisplay={quotaDisplay} />
    </RequireUser>
  );
}

/**
 * /channel/add, /channel/edit/:id and /channel/clone/:id (admin): one form page per channel and
 * mode (keyed by both); a clone is a new channel prefilled from channel :id.
 */
function ChannelFormRoute({ clone = false }: { readonly clone?: boolean }) {
  const { id } = useParams();
  const parsed = routeId(id);
  return (
    <RequireUser>
      <ChannelFormPage key={`${clone ? 'clone' : 'edit'}-${id ?? 'add'}`} id={parsed} clone={clone} />
    </RequireUser>
  );
}

/** /redemption (admin): the list. */
function RedemptionListRoute() {
  const quotaDisplay = useQuotaDisplay();
  return (
    <RequireUser>
      <RedemptionListPage quotaDisplay={quotaDisplay} />
    </RequireUser>
  );
}

/** /redemption/add and /redemption/edit/:id (admin): one form page per code (keyed by id). */
function RedemptionFormRoute() {
  const quotaDisplay = useQuotaDisplay();
  const { id } = useParams();
  const parsed = routeId(id);
  return (
    <RequireUser>
      <RedemptionFormPage key={id ?? 'add'} id={parsed} quotaDisplay={quotaDisplay} />
    </RequireUser>
  );
}

/** /user (admin): the user list; quotas follow the status's currency display. */
function UserListRoute() {
  const quotaDisplay = useQuotaDisplay();
  return (
    <RequireUser>
      <UserListPage quotaDisplay={quotaDisplay} />
    </RequireUser>
  );
}

/** /user/add and /user/edit/:id (admin): one form page per user (keyed by id). */
function UserFormRoute() {
  const quotaDisplay = useQuotaDisplay();
  const { id } = useParams();
  const parsed = routeId(id);
  return (
    <RequireUser>
      <UserFormPage key={id ?? 'add'} id={parsed} quotaDisplay={quotaDisplay} />
    </RequireUser>
  );
}

/**
 * /token: the caller's tokens. Chat links reach the gateway at the status's server address, else
 * this page's origin (contract §5.5), with the configured ChatLink.
 */
function TokenListRoute() {
  const quotaDisplay = useQuotaDisplay();
  const status = SessionContext.useSelector(selectStatus);
  const chatLink = SessionContext.useSelector(selectChatLink);
  const serverAddress = resolveServerAddress(status?.server_address, window.location.origin);
  return (
    <RequireUser>
      <TokenListPage quotaDisplay={quotaDisplay} serverAddress={serverAddress} chatLink={chatLink} />
    </RequireUser>
  );
}

/** /token/add and /token/edit/:id: one form page per token (keyed by id). */
function TokenFormRoute() {
  const quotaDisplay = useQuotaDisplay();
  const { id } = useParams();
  const parsed = routeId(id);
  return (
    <RequireUser>
      <TokenFormPage key={id ?? 'add'} id={parsed} quotaDisplay={quotaDisplay} />
    </RequireUser>
  );
}

/** /topup: redeem a code or open the top-up link; the page follows the session and updates its user. */
function TopUpRoute() {
  return (
    <RequireUser>
      <TopUpPage />
    </RequireUser>
  );
}

/** The clock and the local offset (minutes east of UTC), read once when the dashboard route mounts. */
const readClock = () => ({ now: Math.floor(Date.now() / 1000), utcOffset: -new Date().getTimezoneOffset() });

/** /dashboard: the viewer's usage; admins may view all users or pick one. The clock is read once per visit. */
function DashboardRoute() {
  const quotaDisplay = useQuotaDisplay();
  const isAdmin = SessionContext.useSelector(selectIsAdmin);
  const [{ now, utcOffset }] = useState(readClock);
  return (
    <RequireUser>
      <DashboardPage key={String(isAdmin)} isAdmin={isAdmin} quotaDisplay={quotaDisplay} now={now} utcOffset={utcOffset} />
    </RequireUser>
  );
}

/** /log: admins (role >= 10) see every user's logs and the admin filters, others their own (the page follows the session). */
function LogRoute() {
  const quotaDisplay = useQuotaDisplay();
  return (
    <RequireUser>
      <LogListPage quotaDisplay={quotaDisplay} />
    </RequireUser>
  );
}

/** /pricing: the models the viewer may use and what they cost the viewer's group. */
function PricingRoute() {
  const quotaDisplay = useQuotaDisplay();
  return (
    <RequireUser>
      <PricingPage quotaDisplay={quotaDisplay} />
    </RequireUser>
  );
}

function ChatRoute() {
  const chatLink = SessionContext.useSelector(selectChatLink);
  return <ChatPage chatLink={chatLink} />;
}

/**
 * Every route of the console. Pages of later areas are added here, guarded pages inside
 * `<RequireUser>` (list pages, settings, top-up, log).
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<HomeRoute />} />
      <Route path="/dashboard" element={<DashboardRoute />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/reset" element={<PasswordResetRequestPage />} />
      <Route path="/user/reset" element={<PasswordResetConfirmPage />} />
      <Route path="/oauth/github" element={<OAuthCallbackPage provider="github" />} />
      <Route path="/oauth/lark" element={<OAuthCallbackPage provider="lark" />} />
      <Route path="/user/edit" element={<ProfileRoute />} />
      <Route path="/user" element={<UserListRoute />} />
      <Route path="/user/add" element={<UserFormRoute />} />
      <Route path="/user/edit/:id" element={<UserFormRoute />} />
      <Route path="/channel" element={<ChannelListRoute />} />
      <Route path="/channel/add" element={<ChannelFormRoute />} />
      <Route path="/channel/edit/:id" element={<ChannelFormRoute />} />
      <Route path="/channel/clone/:id" element={<ChannelFormRoute clone />} />
      <Route path="/redemption" element={<RedemptionListRoute />} />
      <Route path="/redemption/add" element={<RedemptionFormRoute />} />
      <Route path="/redemption/edit/:id" element={<RedemptionFormRoute />} />
      <Route path="/token" element={<TokenListRoute />} />
      <Route path="/token/add" element={<TokenFormRoute />} />
      <Route path="/token/edit/:id" element={<TokenFormRoute />} />
      <Route path="/topup" element={<TopUpRoute />} />
      <Route path="/pricing" element={<PricingRoute />} />
      <Route
        path="/setting"
        element={
          <RequireUser>
            <SettingsPage />
          </RequireUser>
        }
      />
      <Route path="/log" element={<LogRoute />} />
      <Route path="/about" element={<AboutPage />} />
      <Route path="/chat" element={<ChatRoute />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
