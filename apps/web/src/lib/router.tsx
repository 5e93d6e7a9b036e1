/**
 * The app's router: the only module that imports wouter (ESLint keeps it so). It replaced React Router, ~12 KB of
 * the mail shell's 110 KB (DESIGN §5), for ~3 KB; the rest of the app uses only what is exported here.
 *
 * Addresses stay as the browser holds them (percent-encoded): mail routes carry search text and e-mail addresses
 * in path segments (SPEC §2), and wouter would otherwise run decodeURI over the path before matching, which leaves
 * '%2F', '%40', '%2B'… encoded and turns '%25' into a bare '%', so a text could not come back as it was typed.
 * Each route parameter is decoded exactly once, here, by useParams and useMatch.
 */
import {
  useEffect,
  useMemo,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
  type Ref,
} from 'react';
import {
  Route,
  Router,
  Switch,
  matchRoute,
  useParams as useRawParams,
  useRouter,
  type BaseLocationHook,
} from 'wouter';
import {
  navigate as historyNavigate,
  useHistoryState,
  useLocationProperty,
} from 'wouter/use-browser-location';

export { Route, Switch };

export type Params = Readonly<Record<string, string | undefined>>;

export interface NavigateOptions {
  replace?: boolean;
  /** Kept in history.state for this entry: read it back with useLocationState. */
  state?: unknown;
}

const rawPathname = () => window.location.pathname;
const rawSearch = () => window.location.search;

function navigate(to: string, options: NavigateOptions = {}): void {
  historyNavigate(to, { replace: options.replace ?? false, state: options.state ?? null });
}

/**
 * wouter decodes the path with decodeURI before matching; with every '%' written as '%25' that decoding gives back
 * exactly the address the browser holds, so patterns match the encoded path and parameters arrive undecoded.
 */
const escapedPathname = () => window.location.pathname.replace(/%/g, '%25');
const useEncodedLocation: BaseLocationHook = () => [useLocationProperty(escapedPathname), navigate];

/** The router over the browser's address bar and history. */
export function AppRouter({ children }: { children: ReactNode }) {
  return <Router hook={useEncodedLocation}>{children}</Router>;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // A malformed escape stays as it is in the address.
    return value;
  }
}

function decodeParams(raw: Readonly<Record<string | number, string | undefined>>): Params {
  const params: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(raw))
    params[key] = value === undefined ? undefined : decode(value);
  return params;
}

/** The parameters of the route being rendered, each decoded once. */
export function useParams(): Params {
  const raw = useRawParams();
  return useMemo(() => decodeParams(raw), [raw]);
}

/**
 * The parameters of `pattern` (e.g. '/mail/folder/:a_id/:f_id/*?') when the current address matches it, else null;
 * for parts of the page outside the route that matched, such as the sidebar.
 */
export function useMatch(pattern: string): Params | null {
  const router = useRouter();
  const pathname = useLocationProperty(rawPathname);
  const [matches, raw] = matchRoute(router.parser, pattern, pathname);
  const key = matches ? JSON.stringify(raw) : null;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the parameters are all in key
  return useMemo(() => (matches ? decodeParams(raw) : null), [key]);
}

/** The address: pathname and search exactly as the browser holds them (encoded), as links and redirects need. */
export function useLocation(): { pathname: string; search: string } {
  const pathname = useLocationProperty(rawPathname);
  const search = useLocationProperty(rawSearch);
  return useMemo(() => ({ pathname, search }), [pathname, search]);
}

/** The query string's parameters (decoded by URLSearchParams). */
export function useSearchParams(): URLSearchParams {
  const search = useLocationProperty(rawSearch);
  return useMemo(() => new URLSearchParams(search), [search]);
}

/** The state the navigation to this history entry carried (NavigateOptions.state), or null. */
export function useLocationState<T>(): Partial<T> | null {
  return (useHistoryState<Partial<T> | null>() ?? null) as Partial<T> | null;
}

/** A stable navigate(to, { replace, state }) for event handlers and effects. */
export function useNavigate(): (to: string, options?: NavigateOptions) => void {
  return navigate;
}

/** Navigates as it renders (in an effect), and again if its target changes. */
export function Navigate({ to, replace = false, state }: { to: string; replace?: boolean; state?: unknown }) {
  const stateKey = state === undefined ? undefined : JSON.stringify(state);
  useEffect(() => {
    navigate(to, { replace, state: stateKey === undefined ? undefined : JSON.parse(stateKey) });
  }, [to, replace, stateKey]);
  return null;
}

function isPlainLeftClick(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    event.button === 0 &&
    (!target || target === '_self') &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  /** Default: replace when the link leads to the page already shown, so clicking it adds no history entry. */
  replace?: boolean;
  state?: unknown;
  ref?: Ref<HTMLAnchorElement>;
};

/** An <a href> that navigates in the app on a plain left click (new tab, download… as the browser does). */
export function Link({ to, replace, state, onClick, target, ...props }: LinkProps) {
  return (
    <a
      {...props}
      href={to}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || !isPlainLeftClick(event, target)) return;
        event.preventDefault();
        const here = window.location.pathname + window.location.search + window.location.hash;
        navigate(to, { replace: replace ?? here === to, state });
      }}
    />
  );
}

/** Whether `pathname` is `to` or below it (case-insensitive, as routes match); `end` asks for `to` itself. */
function isActivePath(pathname: string, to: string, end: boolean): boolean {
  const path = pathname.toLowerCase();
  const target = to.toLowerCase();
  const slashAt = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  return path === target || (!end && path.startsWith(target) && path.charAt(slashAt) === '/');
}

/** A Link that knows when it leads to the current page or one below it: activeClassName and aria-current then. */
export function NavLink({
  className,
  activeClassName,
  end = false,
  ...props
}: LinkProps & { activeClassName?: string; end?: boolean }) {
  const pathname = useLocationProperty(rawPathname);
  const active = isActivePath(pathname, props.to, end);
  return (
    <Link
      aria-current={active ? 'page' : undefined}
      {...props}
      className={[className, active ? activeClassName : undefined].filter(Boolean).join(' ') || undefined}
    />
  );
}
