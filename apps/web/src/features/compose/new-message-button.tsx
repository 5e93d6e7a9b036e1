import { useTranslation } from '../../i18n';
import { PenSquare } from 'lucide-react';
import { Button } from '../../ui/button';
import { loadComposeWindow, useCompose } from './compose-store';

/** The sidebar's 'New message': warms the compose chunk on hover, opens an empty compose window on click. */
export function NewMessageButton({ onOpened }: { onOpened?(): void }) {
  const { t } = useTranslation();
  return (
    <Button
      variant="primary"
      block
      onPointerEnter={() => void loadComposeWindow().catch(() => {})}
      onClick={() => {
        useCompose.getState().openCompose({ mode: 0 });
        onOpened?.();
      }}
    >
      <PenSquare aria-hidden />
      {t('sidebar.newMessage')}
    </Button>
  );
}
