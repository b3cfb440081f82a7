import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '@web/app/session';
import { toast } from '@web/lib/toast';
import { Button, buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { Loading } from '@web/ui/primitives/loading';
import { oidcLoginHref, useAuthMode, type AuthMode } from '../auth-mode';
import { AuthCard } from '../components/auth-card';
import { FlowView } from '../components/flow-view';
import { initialValues, isInputNode, submitBody } from '../kratos/nodes';
import type { Flow } from '../kratos/schema';
import { useFlow } from '../kratos/use-flow';
import { useSetup } from '../setup';

export const LOGIN_TITLES = {
  signIn: 'Sign In to your account',
  secondFactor: 'Two-Factor Authentication',
  refresh: 'Confirm Action',
} as const;

/** Spec §2: the title follows what the flow asks for (before it loads, what the URL asks for). */
export function loginTitle(flow: Flow | undefined, params: URLSearchParams): string {
  const aal2 = flow ? flow.requested_aal === 'aal2' : params.get('aal') === 'aal2';
  const refresh = flow ? flow.refresh === true : params.get('refresh') === 'true';
  if (aal2) return LOGIN_TITLES.secondFactor;
  if (refresh) return LOGIN_TITLES.refresh;
  return LOGIN_TITLES.signIn;
}

function hasPasswordForm(flow: Flow): boolean {
  return flow.ui.nodes.some((node) => isInputNode(node) && node.group === 'password' && node.attributes.name === 'password');
}

const linkClass = 'font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

/**
 * /login (spec §2). Through an OpenID Connect provider (`--auth oidc`) signing in and confirming a
 * privileged change are the provider's button; a second factor of a linked account still uses the
 * built-in form. If the mode cannot be read, the built-in form shows (its own errors then say why).
 */
export default function LoginPage() {
  const [params] = useSearchParams();
  const mode = useAuthMode();
  const title = loginTitle(undefined, params);
  // A second factor is always the built-in form.
  if (title === LOGIN_TITLES.secondFactor) return <BuiltinLoginPage />;
  if (mode.isPending) {
    return (
      <AuthCard title={title}>
        <Loading className="py-8" />
      </AuthCard>
    );
  }
  if (mode.data?.mode === 'oidc') return <ProviderSignIn mode={mode.data} returnTo={params.get('return_to')} refresh={title === LOGIN_TITLES.refresh} />;
  return <BuiltinLoginPage />;
}

/**
 * "Sign in with <issuer host>" (or, to confirm a privileged change, "Confirm with …"): a full navigation to
 * the server's login route, which redirects to the provider.
 */
function ProviderSignIn({ mode, returnTo, refresh }: { mode: Extract<AuthMode, { mode: 'oidc' }>; returnTo: string | null; refresh: boolean }) {
  return (
    <AuthCard title={refresh ? LOGIN_TITLES.refresh : LOGIN_TITLES.signIn}>
      <a href={oidcLoginHref(mode, returnTo, refresh)} className={cn(buttonBase, 'h-10 w-full bg-blue-600 text-sm text-white hover:bg-blue-700')}>
        {refresh ? 'Confirm' : 'Sign in'} with {mode.issuer_host}
      </a>
    </AuthCard>
  );
}

/**
 * The built-in sign-in. Query: flow, return_to, refresh, aal, username, password. With both username and
 * password in the URL the form fills in and submits itself once.
 */
function BuiltinLoginPage() {
  const [params] = useSearchParams();
  // Read once: the URL is replaced by ?flow=… as soon as the flow exists.
  const [fromUrl] = useState(() => ({ username: params.get('username') ?? undefined, password: params.get('password') ?? undefined }));
  const controller = useFlow('login', ['return_to', 'refresh', 'aal']);
  const { flow } = controller;
  const setup = useSetup();
  const session = useSession();
  const title = loginTitle(flow, params);
  const firstFactor = title === LOGIN_TITLES.signIn;
  const returnTo = params.get('return_to');
  const withReturnTo = (path: string) => (returnTo ? `${path}?return_to=${encodeURIComponent(returnTo)}` : path);

  const autoSubmitted = useRef(false);
  useEffect(() => {
    if (!flow || autoSubmitted.current || !fromUrl.username || !fromUrl.password || !hasPasswordForm(flow)) return;
    autoSubmitted.current = true;
    const values = { ...initialValues(flow.ui.nodes), identifier: fromUrl.username, password: fromUrl.password };
    void controller.submit(submitBody(flow.ui.nodes, 'password', values, { method: 'password' }));
  }, [controller, flow, fromUrl]);

  const initial = fromUrl.username ? { identifier: fromUrl.username, ...(fromUrl.password ? { password: fromUrl.password } : {}) } : undefined;
  const signOut = session.status === 'second-factor' || session.status === 'ready' ? session.signOut : undefined;
  const firstRun = setup.data?.first_run === true;

  return (
    <AuthCard
      title={title}
      footer={
        <>
          {firstFactor ? (
            <Link to={withReturnTo('/recovery')} className={linkClass}>
              Reset password
            </Link>
          ) : null}
          {firstFactor && setup.data?.registration && !firstRun ? (
            <p>
              No account yet?{' '}
              <Link to={withReturnTo('/registration')} className={linkClass}>
                Create account
              </Link>
            </p>
          ) : null}
          {title === LOGIN_TITLES.secondFactor && signOut ? (
            <Button variant="ghost" size="sm" onClick={() => {
                signOut(returnTo ?? '/').catch((error: unknown) => toast.error(error));
              }}>
              Sign out and use another account
            </Button>
          ) : null}
        </>
      }
    >
      {firstFactor && firstRun ? (
        // Spec: on a fresh install the way in is creating the first (administrator) account.
        <Link to={withReturnTo('/registration')} className={cn(buttonBase, 'mb-5 h-10 w-full bg-blue-600 text-sm text-white hover:bg-blue-700')}>
          Create the first account
        </Link>
      ) : null}
      <FlowView controller={controller} {...(initial ? { initial } : {})} />
    </AuthCard>
  );
}
