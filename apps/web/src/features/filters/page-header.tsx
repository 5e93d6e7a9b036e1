import { ArrowLeft } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Link } from '../../lib/router';
import { buttonClass } from '../../ui/button';
import { filtersPath } from './paths';
import styles from './filters.module.css';

/** The title of a page under settings/filters, with the way back to the list. */
export function FilterPageHeader({ titleId, title }: { titleId: string; title: string }) {
  const { t } = useTranslation();
  return (
    <header className={styles.pageHeader}>
      <Link to={filtersPath} className={buttonClass('ghost')} aria-label={t('filters.backToList')}>
        <ArrowLeft aria-hidden />
      </Link>
      <h2 id={titleId} className={styles.title}>
        {title}
      </h2>
    </header>
  );
}
