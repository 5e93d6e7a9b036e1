import { useTranslation } from 'react-i18next';
import { LockKeyhole } from 'lucide-react';
import { PublicLayout } from '../../app/public-layout';
import { ComingSoon } from '../../ui/coming-soon';

export default function DecryptPage() {
  const { t } = useTranslation();
  return (
    <PublicLayout>
      <ComingSoon
        title={t('decrypt.title')}
        text={t('decrypt.soonText')}
        icon={LockKeyhole}
        headingLevel={1}
      />
    </PublicLayout>
  );
}
