import { useTranslation } from '../../i18n';
import { Contact } from 'lucide-react';
import { MainHeader } from '../shell';
import { ComingSoon } from '../../ui/coming-soon';
import styles from './contacts.module.css';

export default function ContactsPage() {
  const { t } = useTranslation();
  return (
    <>
      <MainHeader>
        <h1 className={styles.heading}>{t('contacts.title')}</h1>
      </MainHeader>
      <div className={styles.scroll}>
        <ComingSoon title={t('contacts.title')} text={t('contacts.soonText')} icon={Contact} />
      </div>
    </>
  );
}
