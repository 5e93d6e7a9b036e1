import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Code2, ListChecks } from 'lucide-react';
import {
  builderFromSieve,
  sieveFromBuilder,
  validateBuilderRule,
  type BuilderProblem,
  type BuilderRule,
} from '@mailroom/sieve';
import type { Filter } from '@mailroom/protocol';
import { loadErrorTexts, translateErrorCode, useTranslation } from '../../i18n';
import { Link, useNavigate, useSearchParams } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { Preloader } from '../../ui/preloader';
import { raiseSuccess } from '../../ui/notices-store';
import { filtersPath } from './paths';
import { prefilledFilter, withFilter } from './filter-list-model';
import { SettingsPage } from '../../ui/settings-editor-header';
import { useFilters, useSaveFilters } from './queries';
import { ForwardingOwnerNote } from './owner-note';
import { RuleBuilder } from './rule-builder';
import { SieveEditor } from './sieve-editor';
import { useSieveProblems } from './use-sieve-problems';
import { useFilterTargets } from './folder-choices';
import { TestPanel } from './test-panel';
import { Field } from '../../ui/field';
import styles from './filters.module.css';

/** settings/filters/create and edit/{id}: the builder, or the raw editor for a rule the builder did not write. */
export function FilterEditorPage({ index }: { index: number | null }) {
  const { t } = useTranslation();
  const filters = useFilters();
  if (!filters.data) return <Preloader />;
  const filter = index === null ? null : filters.data.filters[index];
  if (index !== null && !filter)
    return (
      <section className={styles.page}>
        <p className={styles.hint}>{t('filters.notFound')}</p>
        <Link to={filtersPath} className={buttonClass()}>
          {t('filters.backToList')}
        </Link>
      </section>
    );
  return (
    <FilterEditor
      key={`${index}-${filters.data.version}`}
      index={index}
      filter={filter ?? null}
      all={filters.data.filters}
      version={filters.data.version}
    />
  );
}

interface EditorState {
  name: string;
  enabled: boolean;
  /** The builder's rule, or null in the raw editor. */
  rule: BuilderRule | null;
  raw: string;
  /** Opened raw because the builder did not write it (said once above the editor). */
  handWritten: boolean;
}

function initialState(filter: Filter | null, search: URLSearchParams): EditorState {
  if (!filter) {
    const { name, rule } = prefilledFilter(search);
    return { name, enabled: true, rule, raw: '', handWritten: false };
  }
  const rule = builderFromSieve(filter.rules);
  return { name: filter.name, enabled: filter.enabled, rule, raw: filter.rules, handWritten: rule === null };
}

function FilterEditor({
  index,
  filter,
  all,
  version,
}: {
  index: number | null;
  filter: Filter | null;
  all: readonly Filter[];
  version: number;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const search = useSearchParams();
  const save = useSaveFilters();
  const targets = useFilterTargets();
  const [state, setState] = useState<EditorState>(() => initialState(filter, search));
  const [tried, setTried] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const problems = useMemo<BuilderProblem[]>(
    () => (state.rule ? validateBuilderRule(state.rule) : []),
    [state.rule],
  );
  const rawProblems = useSieveProblems(state.raw, state.rule === null);

  useEffect(() => {
    void loadErrorTexts();
  }, []);

  const toRaw = () => {
    if (!state.rule) return;
    if (problems.length > 0) {
      setTried(true);
      return;
    }
    setState({ ...state, raw: sieveFromBuilder(state.rule), rule: null, handWritten: false });
  };
  const backToBuilder = builderFromSieve(state.raw);
  /** The rules as they stand, or null (with the problems shown) when the builder cannot write them yet. */
  const currentRules = (): string | null => {
    if (!state.rule) return state.raw;
    if (problems.length > 0) {
      setTried(true);
      return null;
    }
    return sieveFromBuilder(state.rule);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    const name = state.name.trim();
    if (!name) {
      setNameError(translateErrorCode('filter_name_is_empty') ?? t('filters.nameRequired'));
      return;
    }
    if (state.rule && problems.length > 0) return;
    const rules = state.rule ? sieveFromBuilder(state.rule) : state.raw;
    save.mutate(
      { filters: withFilter(all, index, { name, rules, enabled: state.enabled }), version },
      {
        onSuccess: () => {
          raiseSuccess(t('filters.saved'));
          navigate(filtersPath);
        },
      },
    );
  }

  const title = filter ? t('filters.editTitle', { name: filter.name }) : t('filters.createTitle');
  return (
    <SettingsPage title={title} back={{ to: filtersPath, label: t('filters.backToList') }}>
      <ForwardingOwnerNote />
      <form className={styles.form} onSubmit={submit} noValidate aria-busy={save.isPending}>
        <Field label={t('filters.name')} error={nameError}>
          <input
            value={state.name}
            maxLength={200}
            onChange={(event) => {
              setState({ ...state, name: event.target.value });
              setNameError(null);
            }}
          />
        </Field>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={state.enabled}
            onChange={(event) => setState({ ...state, enabled: event.target.checked })}
          />
          {t('filters.enabled')}
        </label>

        {state.rule ? (
          <RuleBuilder
            rule={state.rule}
            onChange={(rule) => setState({ ...state, rule })}
            problems={tried ? problems : []}
            folders={targets.folders}
            labels={targets.labels}
          />
        ) : (
          <div className={styles.group}>
            {state.handWritten ? <p className={styles.hint}>{t('filters.handWritten')}</p> : null}
            <SieveEditor
              value={state.raw}
              onChange={(raw) => setState((current) => ({ ...current, raw }))}
              problems={rawProblems ?? []}
              label={t('filters.script.ruleLabel')}
              minLines={8}
            />
          </div>
        )}

        <TestPanel rules={currentRules} />

        <div className={styles.formActions}>
          {state.rule ? (
            <Button onClick={toRaw}>
              <Code2 aria-hidden />
              {t('filters.editAsSieve')}
            </Button>
          ) : (
            <Button
              disabled={!backToBuilder}
              title={backToBuilder ? undefined : t('filters.notBuilderForm')}
              onClick={() => backToBuilder && setState({ ...state, rule: backToBuilder, handWritten: false })}
            >
              <ListChecks aria-hidden />
              {t('filters.editInBuilder')}
            </Button>
          )}
          <span className={styles.grow} />
          <Link to={filtersPath} className={buttonClass()}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {t('filters.save')}
          </Button>
        </div>
      </form>
    </SettingsPage>
  );
}
