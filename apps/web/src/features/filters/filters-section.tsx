import { useSearchParams } from '../../lib/router';
import { FilterEditorPage } from './filter-editor';
import { FilterListPage } from './filter-list';
import { ScriptEditorPage } from './script-editor';

/**
 * The filters section of settings (SPEC §2: filters (create, edit/{id})): the list, the raw editor of the whole script
 * (?view=script), a new filter, or filter {id} (its place in the script, from 1).
 */
export default function FiltersSection({ action, id }: { action?: 'create' | 'edit'; id?: string }) {
  const search = useSearchParams();
  if (action === 'create') return <FilterEditorPage index={null} />;
  if (action === 'edit') {
    const place = Number(id);
    return <FilterEditorPage index={Number.isInteger(place) && place > 0 ? place - 1 : -1} />;
  }
  if (search.get('view') === 'script') return <ScriptEditorPage />;
  return <FilterListPage />;
}
