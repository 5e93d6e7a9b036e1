import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { SPLITTER_DEFAULT, SPLITTER_MIN_WIDTHS } from '@mailroom/protocol';
import styles from './mail-views.module.css';

export const PANES_LAYOUT_ID = 'mailroom-panes';

/**
 * The draggable splitter of SPEC §2 (≥ 992 px): sizes remembered in localStorage, default 40/60, minimum widths
 * 370 and 400 px. A chunk of its own: the first paint draws the same split with CSS (panes-layout.ts) and this
 * takes over as soon as it has loaded, keeping ~16 KB gzipped out of the shell's initial JavaScript.
 */
export default function ResizablePanes({ list, reader }: { list: ReactNode; reader: ReactNode }) {
  const { t } = useTranslation();
  const layout = useDefaultLayout({ id: PANES_LAYOUT_ID, storage: localStorage });
  return (
    <Group
      className={styles.group}
      defaultLayout={layout.defaultLayout}
      onLayoutChanged={layout.onLayoutChanged}
    >
      <Panel id="list" defaultSize={String(SPLITTER_DEFAULT[0])} minSize={SPLITTER_MIN_WIDTHS[0]}>
        {list}
      </Panel>
      <Separator className={styles.splitter} aria-label={t('mail.splitter')} />
      <Panel id="reader" defaultSize={String(SPLITTER_DEFAULT[1])} minSize={SPLITTER_MIN_WIDTHS[1]}>
        {reader}
      </Panel>
    </Group>
  );
}
