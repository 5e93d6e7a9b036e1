import { builderFromSieve, type BuilderAction, type BuilderCondition } from '@mailroom/sieve';
import type { Translate } from '../../i18n';

type T = Translate;

function conditionText(condition: BuilderCondition, t: T): string {
  const field =
    condition.field === 'header' ? (condition.header ?? '') : t(`filters.fields.${condition.field}`);
  if (condition.field === 'attachment')
    return `${field} ${t(condition.negate ? 'filters.ops.hasNot' : 'filters.ops.has')}`;
  const op = t(`filters.ops.${condition.negate ? 'not' : 'is'}.${condition.op}`);
  return `${field} ${op} “${condition.value}”`;
}

function actionText(action: BuilderAction, t: T): string {
  const name = t(`filters.actions.${action.type}`);
  switch (action.type) {
    case 'move':
    case 'copy':
      return `${name} “${action.folder}”`;
    case 'label':
      return `${name} “${action.label}”`;
    case 'forward':
      return `${name} ${action.address}`;
    default:
      return name;
  }
}

/**
 * A filter in one line for the list: its conditions, then what it does ("From contains “bob” → Move to folder
 * “Work”"); a filter the builder cannot show (written as a script) says so.
 */
export function filterSummary(rules: string, t: T): string {
  const rule = builderFromSieve(rules);
  if (!rule) return t('filters.summary.script');
  const when = rule.conditions.length
    ? rule.conditions
        .map((condition) => conditionText(condition, t))
        .join(rule.match === 'all' ? t('filters.summary.and') : t('filters.summary.or'))
    : t('filters.summary.every');
  const then = rule.actions.map((action) => actionText(action, t)).join(', ');
  return `${when} → ${then || t('filters.summary.nothing')}`;
}
