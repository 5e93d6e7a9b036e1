import { formatFullDate } from '@mailroom/protocol';
import { useState } from 'react';
import { AlertTriangle, ArrowDown, ArrowUp, Code2, GripVertical, Play, Plus, Trash2 } from 'lucide-react';
import clsx from 'clsx';
import type { Filter } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Link } from '../../lib/router';
import { buttonClass } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import { ConfirmItem } from '../../ui/confirm-dialog';
import { Preloader } from '../../ui/preloader';
import { editFilterPath, filtersScriptPath, newFilterPath } from './paths';
import { SettingsPage } from '../../ui/settings-editor-header';
import { filterInputs, moveFilter, placeFilter, withoutFilter } from './filter-list-model';
import { useFilters, useSaveFilters, type FiltersData } from './queries';
import { ApplyDialog } from './apply-dialog';
import { ForwardingOwnerNote } from './owner-note';
import { filterSummary } from './filter-summary';
import { Switch } from '../../ui/switch';
import styles from './filters.module.css';

/** settings/filters: the filters in the order they run, each with its switch, and the latest delivery errors. */
export function FilterListPage() {
  const { t, i18n } = useTranslation();
  const filters = useFilters();
  const save = useSaveFilters();
  const [removing, setRemoving] = useState<number | null>(null);
  const [applying, setApplying] = useState<Filter | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  if (!filters.data) return <Preloader />;
  const data: FiltersData = filters.data;
  const store = (list: ReturnType<typeof filterInputs>) =>
    save.mutate({ filters: list, version: data.version });

  return (
    <SettingsPage
      title={t('filters.title')}
      actions={
        <>
          <Link to={filtersScriptPath} className={buttonClass()}>
            <Code2 aria-hidden />
            {t('filters.editScript')}
          </Link>
          <Link to={newFilterPath()} className={buttonClass('primary')}>
            <Plus aria-hidden />
            {t('filters.create')}
          </Link>
        </>
      }
    >
      <p className={styles.hint}>{t('filters.intro')}</p>
      <ForwardingOwnerNote />

      {data.errors.length > 0 ? (
        <div className={styles.errors} role="status">
          <h3>
            <AlertTriangle aria-hidden />
            {t('filters.deliveryErrors')}
          </h3>
          <ul>
            {data.errors.slice(0, 5).map((error, index) => (
              <li key={index}>
                <time dateTime={error.at}>{formatFullDate(error.at, new Date(), i18n.language)}</time>
                {error.filter ? <strong>{error.filter}</strong> : null}
                <span>{error.message}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {data.filters.length === 0 ? (
        <div className={styles.empty}>
          <p>{t('filters.empty')}</p>
        </div>
      ) : (
        <ol className={styles.list} aria-label={t('filters.listLabel')} aria-busy={save.isPending}>
          {data.filters.map((filter, index) => (
            <li
              key={`${filter.id}-${filter.name}`}
              className={clsx(
                styles.item,
                dragged === index && styles.dragging,
                !filter.enabled && styles.off,
              )}
              aria-label={filter.name}
              draggable
              onDragStart={(event) => {
                setDragged(index);
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', String(index));
              }}
              onDragEnd={() => setDragged(null)}
              onDragOver={(event) => {
                if (dragged !== null) event.preventDefault();
              }}
              onDrop={(event) => {
                event.preventDefault();
                if (dragged !== null && dragged !== index) store(placeFilter(data.filters, dragged, index));
                setDragged(null);
              }}
            >
              <GripVertical className={styles.grip} aria-hidden />
              <span className={styles.order}>{index + 1}</span>
              <span className={styles.nameAndSummary}>
                <Link to={editFilterPath(filter.id)} className={styles.name}>
                  {filter.name}
                </Link>
                <span className={styles.summary}>{filterSummary(filter.rules, t)}</span>
              </span>
              <Switch
                checked={filter.enabled}
                aria-label={t('filters.enabledFor', { name: filter.name })}
                onChange={(enabled) =>
                  store(filterInputs(data.filters).map((f, at) => (at === index ? { ...f, enabled } : f)))
                }
              >
                <span className={styles.switchText}>
                  {filter.enabled ? t('filters.on') : t('filters.off')}
                </span>
              </Switch>
              <span className={styles.itemActions}>
                <IconButton
                  label={t('filters.moveUp', { name: filter.name })}
                  disabled={index === 0}
                  onClick={() => store(moveFilter(data.filters, index, -1))}
                >
                  <ArrowUp aria-hidden />
                </IconButton>
                <IconButton
                  label={t('filters.moveDown', { name: filter.name })}
                  disabled={index === data.filters.length - 1}
                  onClick={() => store(moveFilter(data.filters, index, 1))}
                >
                  <ArrowDown aria-hidden />
                </IconButton>
                <IconButton
                  label={t('filters.applyTo', { name: filter.name })}
                  onClick={() => setApplying(filter)}
                >
                  <Play aria-hidden />
                </IconButton>
                <IconButton
                  label={t('filters.remove', { name: filter.name })}
                  onClick={() => setRemoving(index)}
                >
                  <Trash2 aria-hidden />
                </IconButton>
              </span>
            </li>
          ))}
        </ol>
      )}

      <ConfirmItem
        item={removing}
        onClose={() => setRemoving(null)}
        title={t('filters.removeTitle')}
        text={t('filters.removeText', { name: data.filters[removing ?? 0]?.name ?? '' })}
        confirmLabel={t('filters.removeConfirm')}
        danger
        onConfirm={async (index) => {
          await save.mutateAsync({ filters: withoutFilter(data.filters, index), version: data.version });
        }}
        onError={() => {}}
      />
      {applying ? <ApplyDialog filter={applying} onClose={() => setApplying(null)} /> : null}
    </SettingsPage>
  );
}
