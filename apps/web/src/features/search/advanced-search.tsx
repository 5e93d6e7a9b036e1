import type { KeyboardEvent } from 'react';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { emptySearchForm, SEARCH_FIELDS, toggleField, type SearchForm } from './search-model';
import styles from './search-line.module.css';
import { FormError } from '../../ui/form-parts';

export interface AdvancedSearchProps {
  id: string;
  form: SearchForm;
  setForm: (form: SearchForm) => void;
  /** Dates apply to one folder only (SPEC §2). */
  datesDisabled: boolean;
  badFrom: boolean;
  badTo: boolean;
  onKeyDown: (event: KeyboardEvent) => void;
}

/** The advanced search popover (SPEC §2, §5): scope, fields with one always kept, dd.MM.yyyy dates, reset. */
export default function AdvancedSearch({
  id,
  form,
  setForm,
  datesDisabled,
  badFrom,
  badTo,
  onKeyDown,
}: AdvancedSearchProps) {
  const { t } = useTranslation();
  return (
    <div
      id={id}
      role="group"
      aria-label={t('search.advanced')}
      className={styles.popover}
      onKeyDown={onKeyDown}
    >
      <fieldset className={styles.fieldset}>
        <legend>{t('search.scope')}</legend>
        <label>
          <input
            type="radio"
            name="search-scope"
            checked={!form.allFolders}
            onChange={() => setForm({ ...form, allFolders: false })}
          />
          {t('search.currentFolder')}
        </label>
        <label>
          <input
            type="radio"
            name="search-scope"
            checked={form.allFolders}
            onChange={() => setForm({ ...form, allFolders: true })}
          />
          {t('search.allFolders')}
        </label>
      </fieldset>
      <fieldset className={styles.fieldset}>
        <legend>{t('search.lookIn')}</legend>
        {SEARCH_FIELDS.map((field) => (
          <label key={field}>
            <input type="checkbox" checked={form[field]} onChange={() => setForm(toggleField(form, field))} />
            {t(`search.fields.${field}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className={styles.fieldset} disabled={datesDisabled}>
        <legend>{t('search.dates')}</legend>
        {(
          [
            ['from', t('search.dateFrom'), badFrom],
            ['to', t('search.dateTo'), badTo],
          ] as const
        ).map(([end, label, bad]) => (
          <label key={end} className={styles.date}>
            {label}
            <input
              type="text"
              inputMode="numeric"
              disabled={datesDisabled}
              placeholder={t('search.dateFormat')}
              value={datesDisabled ? '' : form[end]}
              aria-invalid={bad || undefined}
              onChange={(event) => setForm({ ...form, [end]: event.target.value })}
            />
          </label>
        ))}
        <FormError className={styles.error}>{badFrom || badTo ? t('search.badDate') : null}</FormError>
      </fieldset>
      <div className={styles.actions}>
        <Button variant="ghost" onClick={() => setForm({ ...emptySearchForm, allFolders: form.allFolders })}>
          {t('search.reset')}
        </Button>
        <Button variant="primary" type="submit">
          {t('search.submit')}
        </Button>
      </div>
    </div>
  );
}
