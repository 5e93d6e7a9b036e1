import type { ComponentType, ReactNode } from 'react';
import { Sparkles } from 'lucide-react';
import { useTranslation } from '../i18n';
import styles from './coming-soon.module.css';

export interface ComingSoonProps {
  title: ReactNode;
  text?: ReactNode;
  icon?: ComponentType<{ 'aria-hidden'?: boolean }>;
  children?: ReactNode;
  /** Heading level so the panel fits the outline of the page around it. */
  headingLevel?: 1 | 2;
}

/** The designed stand-in for screens not built yet: always inside the real layout, never a broken page. */
export function ComingSoon({
  title,
  text,
  icon: Icon = Sparkles,
  children,
  headingLevel = 2,
}: ComingSoonProps) {
  const { t } = useTranslation();
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section className={styles.panel} data-testid="coming-soon">
      <span className={styles.icon}>
        <Icon aria-hidden />
      </span>
      <span className={styles.badge}>{t('common.comingSoon')}</span>
      <Heading className={styles.title}>{title}</Heading>
      {text ? <p className={styles.text}>{text}</p> : null}
      {children ? <div className={styles.actions}>{children}</div> : null}
    </section>
  );
}
