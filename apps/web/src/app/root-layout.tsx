import { useEffect, useRef, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ACCESS_RECHECK_MS } from '@mailroom/protocol';
import { isUnauthorized } from '../api/client';
import { sessionQueries } from '../features/account';
import { NoticeBox } from '../ui/notice-box';
import { RefreshToast } from '../ui/refresh-toast';
import { AreaBoundary } from '../ui/lazy-route';
import { isFramed, notifyHostLoaded } from '../lib/frame';
import { useLocation, useNavigate } from '../lib/router';
import { handleUnauthorized, hasIsLoggedCookie, startupStatus, useSession } from './startup';

function onRoute(pathname: string, route: string): boolean {
  return pathname === route || pathname.startsWith(`${route}/`);
}

/** Runs the start-up machine of SPEC §4 around every route. */
export function RootLayout({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const onDecrypt = onRoute(location.pathname, '/decrypt');
  const onAbout = onRoute(location.pathname, '/about');

  // Decrypt is for recipients who may have no account here, so nothing is loaded for it up front.
  const enabled = !onDecrypt;
  const access = useQuery({
    ...sessionQueries.access(),
    enabled,
    refetchInterval: onAbout ? false : ACCESS_RECHECK_MS,
    refetchIntervalInBackground: true,
  });
  const account = useQuery({ ...sessionQueries.account(), enabled });
  const rids = useQuery({ ...sessionQueries.rids(), enabled });

  const framed = isFramed();
  const status = startupStatus({ parts: [access, account, rids], framed, isLogged: hasIsLoggedCookie() });
  const startupUnauthorized =
    isUnauthorized(access.error) || isUnauthorized(account.error) || isUnauthorized(rids.error);
  const setStatus = useSession((state) => state.setStatus);
  useEffect(() => setStatus(status, startupUnauthorized), [status, startupUnauthorized, setStatus]);

  // Another member signed in in another tab: start over on /mail with their mailbox (SPEC §7).
  const firstEmail = useRef<string | null>(null);
  useEffect(() => {
    const email = access.data?.email;
    if (!email) return;
    if (firstEmail.current === null) firstEmail.current = email;
    else if (email !== firstEmail.current) window.location.assign('/mail');
  }, [access.data?.email]);

  const laterUnauthorized = useSession((state) => state.unauthorized);
  const setUnauthorized = useSession((state) => state.setUnauthorized);
  const unauthorized =
    laterUnauthorized ||
    isUnauthorized(access.error) ||
    isUnauthorized(account.error) ||
    isUnauthorized(rids.error);
  const path = location.pathname + location.search;
  useEffect(() => {
    if (!unauthorized) return;
    const target = handleUnauthorized(path, hasIsLoggedCookie());
    setUnauthorized(false);
    if (target) navigate(target, { replace: true });
  }, [unauthorized, path, navigate, setUnauthorized]);

  const notified = useRef(false);
  useEffect(() => {
    if (status !== 'success' || !framed || notified.current) return;
    notified.current = true;
    notifyHostLoaded();
  }, [status, framed]);

  return (
    <>
      {/* The last line: whatever an area's own boundary does not catch still leaves the notices working. */}
      <AreaBoundary variant="panel">{children}</AreaBoundary>
      <NoticeBox />
      <RefreshToast />
    </>
  );
}
