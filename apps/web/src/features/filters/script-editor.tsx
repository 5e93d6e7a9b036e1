import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { Link, useNavigate } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { Preloader } from '../../ui/preloader';
import { raiseSuccess } from '../../ui/notices-store';
import { filtersPath } from './paths';
import { SettingsPage } from '../../ui/settings-editor-header';
import { useFilters, useSaveFilters } from './queries';
import { ForwardingOwnerNote } from './owner-note';
import { SieveEditor } from './sieve-editor';
import { useSieveProblems } from './use-sieve-problems';
import styles from './filters.module.css';

/** The raw editor of the whole script (settings/filters?view=script): every rule, as Sieve. */
export function ScriptEditorPage() {
  const filters = useFilters();
  if (!filters.data) return <Preloader />;
  return (
    <ScriptEditor key={filters.data.version} script={filters.data.script} version={filters.data.version} />
  );
}

function ScriptEditor({ script, version }: { script: string; version: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveFilters();
  const [text, setText] = useState(script);
  const problems = useSieveProblems(text);

  return (
    <SettingsPage
      title={t('filters.script.title')}
      back={{ to: filtersPath, label: t('filters.backToList') }}
    >
      <p className={styles.hint}>{t('filters.script.intro')}</p>
      <ForwardingOwnerNote />
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(
            { script: text, version },
            {
              onSuccess: () => {
                raiseSuccess(t('filters.saved'));
                navigate(filtersPath);
              },
            },
          );
        }}
      >
        <SieveEditor
          value={text}
          onChange={setText}
          problems={problems ?? []}
          label={t('filters.script.label')}
        />
        <div className={styles.formActions}>
          <span className={styles.grow} />
          <Link to={filtersPath} className={buttonClass()}>
            {t('common.cancel')}
          </Link>
          <Button
            type="submit"
            variant="primary"
            disabled={save.isPending || text === script || (problems?.length ?? 0) > 0}
          >
            {t('filters.save')}
          </Button>
        </div>
      </form>
    </SettingsPage>
  );
}
