import {
  Component,
  lazy,
  Suspense,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from '@mailroom/protocol';
import { useTranslation } from '../i18n';
import { TriangleAlert } from 'lucide-react';
import { Preloader } from './preloader';
import { Button } from './button';
import styles from './startup-failed.module.css';

/** React.lazy with the 120-s chunk timeout of SPEC §8, so a stalled download ends in a message, not a spinner. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React.lazy itself accepts
export function lazyRoute<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyExoticComponent<T> {
  return lazy(
    () =>
      new Promise<{ default: T }>((resolve, reject) => {
        const timer = window.setTimeout(
          () => reject(new Error('Loading chunk failed')),
          CHUNK_LOAD_TIMEOUT_MS,
        );
        load().then(
          (module) => {
            window.clearTimeout(timer);
            resolve(module);
          },
          (error: unknown) => {
            window.clearTimeout(timer);
            reject(error instanceof Error ? error : new Error('Loading chunk failed'));
          },
        );
      }),
  );
}

function ChunkFailed() {
  const { t } = useTranslation();
  return (
    <div className={styles.panel} role="alert">
      <TriangleAlert className={styles.icon} aria-hidden />
      <h1 className={styles.title}>{t('app.chunkFailed')}</h1>
      <p className={styles.text}>{t('app.chunkFailedText')}</p>
      <Button variant="primary" onClick={() => window.location.reload()}>
        {t('common.refresh')}
      </Button>
    </div>
  );
}

class ChunkBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <ChunkFailed /> : this.props.children;
  }
}

export function Lazy({ children }: { children: ReactNode }) {
  return (
    <ChunkBoundary>
      <Suspense fallback={<Preloader />}>{children}</Suspense>
    </ChunkBoundary>
  );
}
