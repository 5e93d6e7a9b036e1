import { useId } from 'react';
import { Plus, X } from 'lucide-react';
import {
  builderActionTypes,
  VACATION_MAX_DAYS,
  VACATION_MIN_DAYS,
  type BuilderAction,
  type BuilderActionType,
  type BuilderCondition,
  type BuilderField,
  type BuilderOp,
  type BuilderProblem,
  type BuilderRule,
} from '@mailroom/sieve';
import { useTranslation, type TextKey } from '../../i18n';
import { Button } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import styles from './filters.module.css';
import { NativeSelect } from '../../ui/select';

export interface FolderChoice {
  /** What `fileinto` names: the folder's full name. */
  value: string;
  label: string;
}

export interface RuleBuilderProps {
  rule: BuilderRule;
  onChange(rule: BuilderRule): void;
  /** Problems to show, after a save was tried. */
  problems: readonly BuilderProblem[];
  folders: readonly FolderChoice[];
  labels: readonly string[];
}

const fields: readonly BuilderField[] = ['from', 'to_cc', 'subject', 'header', 'body', 'size', 'attachment'];
const textOps = ['contains', 'is', 'starts', 'ends', 'matches', 'regex'] as const;

/** The comparison and its negation in one choice: "contains", "does not contain"… */
type Comparison = `${'' | '!'}${BuilderOp}`;

function comparisonsFor(field: BuilderField): Comparison[] {
  if (field === 'size') return ['over', 'under'];
  if (field === 'attachment') return ['contains', '!contains'];
  return textOps.flatMap((op) => [op, `!${op}` as const]);
}

function newCondition(field: BuilderField, from?: BuilderCondition): BuilderCondition {
  if (field === 'size') return { field, op: 'over', value: '1M', negate: false };
  if (field === 'attachment') return { field, op: 'contains', value: '', negate: from?.negate ?? false };
  const keep = from && from.field !== 'size' && from.field !== 'attachment';
  return {
    field,
    ...(field === 'header' ? { header: from?.header ?? 'X-' } : {}),
    op: keep ? from.op : 'contains',
    value: keep ? from.value : '',
    negate: keep ? from.negate : false,
  };
}

function newAction(
  type: BuilderActionType,
  folders: readonly FolderChoice[],
  labels: readonly string[],
): BuilderAction {
  switch (type) {
    case 'move':
    case 'copy':
      return { type, folder: folders[0]?.value ?? '' };
    case 'label':
      return { type, label: labels[0] ?? '' };
    case 'forward':
      return { type, address: '', keepCopy: true };
    case 'reply':
      return { type, subject: '', text: '', days: 7 };
    case 'reject':
      return { type, reason: '' };
    default:
      return { type } as BuilderAction;
  }
}

const problemText: Record<BuilderProblem['kind'], TextKey> = {
  value_empty: 'filters.problems.valueEmpty',
  value_line_break: 'filters.problems.valueLineBreak',
  size_invalid: 'filters.problems.sizeInvalid',
  header_invalid: 'filters.problems.headerInvalid',
  folder_empty: 'filters.problems.folderEmpty',
  label_empty: 'filters.problems.labelEmpty',
  label_spaces: 'filters.problems.labelSpaces',
  address_invalid: 'filters.problems.addressInvalid',
  days_invalid: 'filters.problems.daysInvalid',
  text_empty: 'filters.problems.textEmpty',
  reason_empty: 'filters.problems.reasonEmpty',
  no_actions: 'filters.problems.noActions',
};

/** The builder (issue 14): match all or any of the conditions, then the actions, in the order they run. */
export function RuleBuilder({ rule, onChange, problems, folders, labels }: RuleBuilderProps) {
  const { t } = useTranslation();
  const id = useId();
  const problemOf = (part: BuilderProblem['part'], index: number) => {
    const problem = problems.find((p) => p.part === part && p.index === index);
    return problem ? t(problemText[problem.kind]) : null;
  };
  const setCondition = (index: number, condition: BuilderCondition) =>
    onChange({ ...rule, conditions: rule.conditions.map((c, at) => (at === index ? condition : c)) });
  const setAction = (index: number, action: BuilderAction) =>
    onChange({ ...rule, actions: rule.actions.map((a, at) => (at === index ? action : a)) });

  return (
    <>
      <fieldset className={styles.group}>
        <legend className={styles.groupTitle}>{t('filters.builder.when')}</legend>
        <label className={styles.inline}>
          <span>{t('filters.builder.matchLabel')}</span>
          <NativeSelect
            value={rule.match}
            options={[
              { value: 'all', label: t('filters.builder.matchAll') },
              { value: 'any', label: t('filters.builder.matchAny') },
            ]}
            onChange={(value) => onChange({ ...rule, match: value as BuilderRule['match'] })}
          />
        </label>
        {rule.conditions.length === 0 ? (
          <p className={styles.hint}>{t('filters.builder.everyMessage')}</p>
        ) : null}
        <ol className={styles.rows}>
          {rule.conditions.map((condition, index) => {
            const problem = problemOf('condition', index);
            const comparison: Comparison =
              condition.field === 'size' ? condition.op : `${condition.negate ? '!' : ''}${condition.op}`;
            const rowLabel = t('filters.builder.condition', { n: index + 1 });
            return (
              <li key={index} className={styles.row} aria-label={rowLabel}>
                <NativeSelect
                  aria-label={t('filters.builder.field')}
                  value={condition.field}
                  options={fields.map((field) => ({ value: field, label: t(`filters.fields.${field}`) }))}
                  onChange={(value) => setCondition(index, newCondition(value as BuilderField, condition))}
                />
                {condition.field === 'header' ? (
                  <input
                    className={styles.headerName}
                    aria-label={t('filters.builder.headerName')}
                    value={condition.header ?? ''}
                    onChange={(event) => setCondition(index, { ...condition, header: event.target.value })}
                  />
                ) : null}
                <NativeSelect
                  aria-label={t('filters.builder.comparison')}
                  value={comparison}
                  options={comparisonsFor(condition.field).map((option) => ({
                    value: option,
                    label: t(
                      condition.field === 'attachment'
                        ? option.startsWith('!')
                          ? 'filters.ops.hasNot'
                          : 'filters.ops.has'
                        : `filters.ops.${option.startsWith('!') ? 'not' : 'is'}.${option.replace('!', '') as BuilderOp}`,
                    ),
                  }))}
                  onChange={(value) => {
                    const negate = value.startsWith('!');
                    setCondition(index, { ...condition, op: value.replace('!', '') as BuilderOp, negate });
                  }}
                />
                {condition.field === 'attachment' ? (
                  <span className={styles.grow} />
                ) : (
                  <input
                    className={styles.grow}
                    aria-label={t('filters.builder.value')}
                    aria-invalid={problem !== null}
                    placeholder={condition.field === 'size' ? '100K, 5M' : undefined}
                    value={condition.value}
                    onChange={(event) => setCondition(index, { ...condition, value: event.target.value })}
                  />
                )}
                <IconButton
                  label={t('filters.builder.removeCondition', { n: index + 1 })}
                  className={styles.remove}
                  onClick={() =>
                    onChange({ ...rule, conditions: rule.conditions.filter((_, at) => at !== index) })
                  }
                >
                  <X aria-hidden />
                </IconButton>
                {problem ? <span className={styles.rowError}>{problem}</span> : null}
              </li>
            );
          })}
        </ol>
        <Button
          variant="ghost"
          className={styles.add}
          onClick={() => onChange({ ...rule, conditions: [...rule.conditions, newCondition('from')] })}
        >
          <Plus aria-hidden />
          {t('filters.builder.addCondition')}
        </Button>
      </fieldset>

      <fieldset className={styles.group}>
        <legend className={styles.groupTitle}>{t('filters.builder.then')}</legend>
        <ol className={styles.rows}>
          {rule.actions.map((action, index) => {
            const problem = problemOf('action', index);
            const field = `${id}-action-${index}`;
            return (
              <li
                key={index}
                className={styles.row}
                aria-label={t('filters.builder.action', { n: index + 1 })}
              >
                <NativeSelect
                  aria-label={t('filters.builder.actionType')}
                  value={action.type}
                  options={builderActionTypes.map((type) => ({
                    value: type,
                    label: t(`filters.actions.${type}`),
                  }))}
                  onChange={(value) =>
                    setAction(index, newAction(value as BuilderActionType, folders, labels))
                  }
                />
                <ActionFields
                  action={action}
                  onChange={(next) => setAction(index, next)}
                  folders={folders}
                  labels={labels}
                  invalid={problem !== null}
                  id={field}
                />
                <IconButton
                  label={t('filters.builder.removeAction', { n: index + 1 })}
                  className={styles.remove}
                  onClick={() => onChange({ ...rule, actions: rule.actions.filter((_, at) => at !== index) })}
                >
                  <X aria-hidden />
                </IconButton>
                {problem ? <span className={styles.rowError}>{problem}</span> : null}
              </li>
            );
          })}
        </ol>
        {problemOf('rule', 0) ? <p className={styles.error}>{problemOf('rule', 0)}</p> : null}
        <Button
          variant="ghost"
          className={styles.add}
          onClick={() =>
            onChange({ ...rule, actions: [...rule.actions, newAction('move', folders, labels)] })
          }
        >
          <Plus aria-hidden />
          {t('filters.builder.addAction')}
        </Button>
      </fieldset>
    </>
  );
}

/** An action's own fields: its folder, label, address, reply or reason. */
function ActionFields({
  action,
  onChange,
  folders,
  labels,
  invalid,
  id,
}: {
  action: BuilderAction;
  onChange(action: BuilderAction): void;
  folders: readonly FolderChoice[];
  labels: readonly string[];
  invalid: boolean;
  id: string;
}) {
  const { t } = useTranslation();
  switch (action.type) {
    case 'move':
    case 'copy': {
      // A folder named by hand elsewhere that is not (or no longer) there is still shown.
      const choices =
        folders.some((f) => f.value === action.folder) || action.folder === ''
          ? folders
          : [...folders, { value: action.folder, label: action.folder }];
      return (
        <NativeSelect
          className={styles.grow}
          aria-label={t('filters.builder.folder')}
          aria-invalid={invalid}
          value={action.folder}
          empty={t('filters.builder.chooseFolder')}
          emptyDisabled
          options={choices}
          onChange={(folder) => onChange({ ...action, folder })}
        />
      );
    }
    case 'label': {
      const choices =
        labels.includes(action.label) || action.label === '' ? labels : [...labels, action.label];
      return (
        <NativeSelect
          className={styles.grow}
          aria-label={t('filters.builder.label')}
          aria-invalid={invalid}
          value={action.label}
          empty={t('filters.builder.chooseLabel')}
          emptyDisabled
          options={choices.map((label) => ({ value: label, label }))}
          onChange={(label) => onChange({ ...action, label })}
        />
      );
    }
    case 'forward':
      return (
        <span className={styles.fields}>
          <input
            type="email"
            className={styles.grow}
            aria-label={t('filters.builder.address')}
            aria-invalid={invalid}
            placeholder="name@example.com"
            value={action.address}
            onChange={(event) => onChange({ ...action, address: event.target.value })}
          />
          <label className={styles.check}>
            <input
              type="checkbox"
              checked={action.keepCopy}
              onChange={(event) => onChange({ ...action, keepCopy: event.target.checked })}
            />
            {t('filters.builder.keepCopy')}
          </label>
        </span>
      );
    case 'reply':
      return (
        <span className={styles.fields}>
          <input
            className={styles.grow}
            aria-label={t('filters.builder.replySubject')}
            placeholder={t('filters.builder.replySubject')}
            value={action.subject}
            onChange={(event) => onChange({ ...action, subject: event.target.value })}
          />
          <label className={styles.check} htmlFor={`${id}-days`}>
            {t('filters.builder.days')}
            <input
              id={`${id}-days`}
              type="number"
              className={styles.days}
              min={VACATION_MIN_DAYS}
              max={VACATION_MAX_DAYS}
              value={Number.isFinite(action.days) ? action.days : ''}
              onChange={(event) => onChange({ ...action, days: Number.parseInt(event.target.value, 10) })}
            />
          </label>
          <textarea
            className={styles.replyText}
            aria-label={t('filters.builder.replyText')}
            aria-invalid={invalid}
            placeholder={t('filters.builder.replyText')}
            rows={3}
            value={action.text}
            onChange={(event) => onChange({ ...action, text: event.target.value })}
          />
        </span>
      );
    case 'reject':
      return (
        <input
          className={styles.grow}
          aria-label={t('filters.builder.reason')}
          aria-invalid={invalid}
          placeholder={t('filters.builder.reason')}
          value={action.reason}
          onChange={(event) => onChange({ ...action, reason: event.target.value })}
        />
      );
    default:
      return <span className={styles.grow} />;
  }
}
