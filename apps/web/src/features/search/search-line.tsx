import {
  lazy,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';
import { useLocation, useMatch, useNavigate, useParams } from 'react-router';
import { useTranslation } from '../../i18n';
import { Search, SlidersHorizontal, X } from 'lucide-react';
import { folderPath, labelPath } from '../../app/paths';
import { findInbox } from '../mail/folder-order';
import { useFolders } from '../mail/queries';
import {
  canRunSearch,
  emptySearchForm,
  isBadDate,
  parseSearchParams,
  searchPath,
  type SearchForm,
} from './search-model';
import styles from './search-line.module.css';

// The advanced form loads when it is first opened, not with the mail shell (DESIGN §5 budget).
const AdvancedSearch = lazy(() => import('./advanced-search'));

/** The search line of the top panel (SPEC §2) with its advanced form; it keeps no state a route change loses. */
export function SearchLine() {
  const location = useLocation();
  const searching = useMatch('/mail/search/*') !== null;
  // A new search route (or leaving search) starts the line afresh from the route.
  const key = searching ? location.pathname.split('/').slice(0, 14).join('/') : 'idle';
  return <SearchLineForm key={key} searching={searching} />;
}

function SearchLineForm({ searching }: { searching: boolean }) {
  const { t } = useTranslation();
  const params = useParams();
  const navigate = useNavigate();
  const folders = useFolders();
  const fromRoute = searching ? parseSearchParams(params) : null;
  const [form, setForm] = useState<SearchForm>(() => fromRoute?.form ?? emptySearchForm);
  const [open, setOpen] = useState(false);
  const popoverId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  const aliasId = params.a_id ?? 'all';
  const folderId = fromRoute ? fromRoute.folderId : idOrNull(params.f_id);
  const labelId = fromRoute ? fromRoute.labelId : idOrNull(params.l_id);

  const run = () => {
    if (!canRunSearch(form)) return;
    setOpen(false);
    navigate(searchPath(aliasId, folderId, labelId, 1, form));
  };

  /** Search mode off: back to the folder (or label) searched from (SPEC §4). */
  const close = () => {
    setOpen(false);
    setForm(emptySearchForm);
    if (!searching) return;
    if (folderId !== null) navigate(folderPath(aliasId, folderId));
    else if (labelId !== null) navigate(labelPath(aliasId, labelId));
    else {
      const inbox = folders.data ? (findInbox(folders.data) ?? folders.data[0]) : undefined;
      navigate(inbox ? folderPath(aliasId, inbox.id) : '/mail');
    }
  };
  const closeRef = useRef(close);
  closeRef.current = close;

  // Escape closes search wherever focus is (SPEC §2), unless a dialog or menu takes it first.
  useEffect(() => {
    if (!searching) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (target?.closest('[role="dialog"], [role="alertdialog"], [role="menu"]')) return;
      closeRef.current();
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [searching]);

  // The advanced form closes on a click outside the search line, like any popover.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (event.target instanceof Node && formRef.current?.contains(event.target)) return;
      setOpen(false);
    }
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const onEscape = (event: ReactKeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    if (open) {
      setOpen(false);
      toggleRef.current?.focus();
    } else close();
  };

  const datesDisabled = form.allFolders;
  const badFrom = !datesDisabled && isBadDate(form.from);
  const badTo = !datesDisabled && isBadDate(form.to);

  return (
    <form
      ref={formRef}
      role="search"
      aria-label={t('search.region')}
      className={styles.line}
      onSubmit={(event) => {
        event.preventDefault();
        run();
      }}
    >
      <div className={styles.box}>
        <Search aria-hidden />
        <input
          ref={inputRef}
          type="search"
          aria-label={t('mail.search')}
          placeholder={t('search.placeholder')}
          value={form.text}
          onChange={(event) => setForm({ ...form, text: event.target.value })}
          onKeyDown={onEscape}
        />
        {form.text !== '' || searching ? (
          <button
            type="button"
            className={styles.iconButton}
            aria-label={t('search.clear')}
            title={t('search.clear')}
            onClick={() => {
              if (searching) close();
              else {
                setForm({ ...form, text: '' });
                inputRef.current?.focus();
              }
            }}
          >
            <X aria-hidden />
          </button>
        ) : null}
        <button
          ref={toggleRef}
          type="button"
          className={styles.iconButton}
          aria-label={t('search.advanced')}
          title={t('search.advanced')}
          aria-expanded={open}
          aria-controls={open ? popoverId : undefined}
          onClick={() => setOpen(!open)}
        >
          <SlidersHorizontal aria-hidden />
        </button>
      </div>
      {open ? (
        <Suspense fallback={null}>
          <AdvancedSearch
            id={popoverId}
            form={form}
            setForm={setForm}
            datesDisabled={datesDisabled}
            badFrom={badFrom}
            badTo={badTo}
            onKeyDown={onEscape}
          />
        </Suspense>
      ) : null}
    </form>
  );
}

function idOrNull(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}
