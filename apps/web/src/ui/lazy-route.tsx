import {
  Component,
  lazy,
  Suspense,
  type ComponentProps,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from '@mailroom/protocol';
import { TriangleAlert } from 'lucide-react';
import i18n, { useTranslation } from '../i18n';
import { Preloader } from './preloader';
import { Button } from './button';
import { useNotices } from './notices-store';
import styles from './startup-failed.module.css';

/** A part of the application whose code could not be fetched (server or network out of reach, or 120 s passed). */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
  constructor(cause?: unknown) {
    super('Loading chunk failed', { cause });
  }
}

// The parts whose last load failed, each with the way to start it afresh: React.lazy keeps a failure for good, so
// trying again means a new lazy component. Only an explicit retry (a click, or opening the part again) starts one.
const failedParts = new Set<() => void>();

/** Lets every part that failed to load try again the next time it renders. */
export function retryFailedParts(): void {
  for (const reset of failedParts) reset();
  failedParts.clear();
}

function withTimeout<T>(load: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = window.setTimeout(() => reject(new ChunkLoadError()), CHUNK_LOAD_TIMEOUT_MS);
    load().then(
      (module) => {
        window.clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        window.clearTimeout(timer);
        reject(error instanceof ChunkLoadError ? error : new ChunkLoadError(error));
      },
    );
  });
}

/**
 * React.lazy with the 120-s chunk timeout of SPEC §8 (a stalled download ends in a message, not a spinner), whose
 * failure is not final: after retryFailedParts() the next render loads it again. Render it inside <Lazy> or
 * <LazyPart>, whose boundary shows the failure.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React.lazy itself accepts
export function lazyChunk<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): ComponentType<ComponentProps<T>> {
  const make = () =>
    lazy(() =>
      withTimeout(load).catch((error: unknown) => {
        failedParts.add(() => (current = make()));
        throw error;
      }),
    );
  let current = make();
  function LazyLoaded(props: ComponentProps<T>) {
    const Current = current as ComponentType<ComponentProps<T>>;
    return <Current {...props} />;
  }
  return LazyLoaded;
}

function isChunkFailure(error: unknown): boolean {
  return error instanceof ChunkLoadError;
}

function FailedPanel({ chunk, onRetry }: { chunk: boolean; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <div className={styles.panel} role="alert">
      <TriangleAlert className={styles.icon} aria-hidden />
      <h1 className={styles.title}>{chunk ? t('app.chunkFailed') : t('notice.somethingWrong')}</h1>
      <p className={styles.text}>{t('app.chunkFailedText')}</p>
      <Button variant="primary" onClick={onRetry}>
        {t('app.retry')}
      </Button>
    </div>
  );
}

function FailedLine({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <div className={styles.line} role="alert">
      <TriangleAlert className={styles.lineIcon} aria-hidden />
      <span>{t('app.chunkFailed')}</span>
      <button type="button" className={styles.lineAction} onClick={onRetry}>
        {t('app.retry')}
      </button>
    </div>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /**
   * How a failure shows: a panel in place of a page, a line in place of a piece of a screen, or — for what opens
   * over the screen (menus, dialogs) — the error box, after which `onFailed` closes it and the next opening tries
   * again.
   */
  variant: 'panel' | 'line' | 'notice';
  onFailed?(): void;
  fallback?: ReactNode;
}

/**
 * Keeps a failure inside the area it happened in: the rest of the page goes on working, and the area offers to try
 * again once the server is back.
 */
export class AreaBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (!isChunkFailure(error)) console.error(error, info.componentStack);
    if (this.props.variant !== 'notice') return;
    useNotices.getState().push('error', i18n.t('app.chunkFailed'));
    retryFailedParts();
    this.props.onFailed?.();
  }
  retry = () => {
    retryFailedParts();
    this.setState({ error: null });
  };
  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (this.props.variant === 'panel')
      return <FailedPanel chunk={isChunkFailure(error)} onRetry={this.retry} />;
    if (this.props.variant === 'line') return <FailedLine onRetry={this.retry} />;
    return this.props.fallback ?? null;
  }
}

/** A page loaded on demand: a preloader while it loads, the failure panel if it cannot. */
export function Lazy({ children }: { children: ReactNode }) {
  return (
    <AreaBoundary variant="panel">
      <Suspense fallback={<Preloader />}>{children}</Suspense>
    </AreaBoundary>
  );
}

/** A piece of a screen loaded on demand (see AreaBoundary for `variant`). */
export function LazyPart({
  children,
  fallback = null,
  variant = 'line',
  onFailed,
}: {
  children: ReactNode;
  fallback?: ReactNode;
  variant?: 'line' | 'notice';
  onFailed?(): void;
}) {
  return (
    <AreaBoundary variant={variant} onFailed={onFailed} fallback={fallback}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </AreaBoundary>
  );
}
