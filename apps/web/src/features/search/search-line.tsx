import { useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useTranslation, withFeatureTexts } from '../../i18n';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import clsx from 'clsx';
import { ArrowLeft, Search, SlidersHorizontal, X } from 'lucide-react';
import { MOBILE_MAX } from '@mailroom/protocol';
import { findInbox, folderPath, labelPath, useFolders } from '../folders';
import { useLocation, useMatch, useNavigate, useParams } from '../../lib/router';
import { IconButton } from '../../ui/icon-button';
import { useMediaQuery } from '../../ui/use-media-query';

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
const AdvancedSearch = lazyChunk(withFeatureTexts(() => import('./advanced-search')));

/** The search line of the top panel (SPEC §2) with its advanced form; it keeps no state a route change loses. */
export function SearchLine() {
  const location = useLocation();
  const searching = useMatch('/mail/search/*?') !== null;
  // A new search route (or leaving search) starts the line afresh from the route.
  const key = searching ? searchKey(location.pathname) : 'idle';
  return <SearchLineForm key={key} searching={searching} />;
}

/**
 * Phone: a search run or closed from the opened line changes the route, which remounts the whole top panel; the
 * new line's folded icon takes the focus back, as a fold without a route change does, instead of the page's body.
 */
let refocusOnMount = false;

/** The part of a search route that names the search (not the open message): a new one starts the line afresh. */
function searchKey(path: string): string {
  return path.split('/').slice(0, 14).join('/');
}

function SearchLineForm({ searching }: { searching: boolean }) {
  const { t } = useTranslation();
  // Below 768 px the line is too narrow beside the title: an icon opens it over the whole top bar.
  const phone = useMediaQuery(`(max-width: ${MOBILE_MAX - 0.02}px)`);
  const [expanded, setExpanded] = useState(false);
  const folded = phone && !expanded;
  const expandRef = useRef<HTMLButtonElement>(null);
  const focusToggle = useRef(false);
  const params = useParams();
  const { pathname } = useLocation();
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
    const target = searchPath(aliasId, folderId, labelId, 1, form);
    // The same search again keeps its line: nothing remounts and the focus stays where it is.
    if (phone && (!searching || searchKey(target) !== searchKey(pathname))) refocusOnMount = true;
    navigate(target);
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

  /** Phone: fold the line back into its icon, which takes the focus. */
  const fold = () => {
    setOpen(false);
    setExpanded(false);
    focusToggle.current = true;
  };

  // Opened: the input takes the focus. Folded: the icon does, when the fold came from the line.
  useEffect(() => {
    if (expanded) inputRef.current?.focus();
    else if (focusToggle.current) {
      focusToggle.current = false;
      expandRef.current?.focus();
    }
  }, [expanded, phone]);
  useEffect(() => {
    if (!refocusOnMount) return;
    refocusOnMount = false;
    expandRef.current?.focus();
  }, []);

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
      return;
    }
    if (phone && expanded) {
      fold();
      if (searching) refocusOnMount = true;
    }
    close();
  };

  const datesDisabled = form.allFolders;
  const badFrom = !datesDisabled && isBadDate(form.from);
  const badTo = !datesDisabled && isBadDate(form.to);

  if (folded) {
    return (
      <IconButton
        label={t('mail.search')}
        ref={expandRef}
        className={clsx(styles.toggle, searching && styles.searching)}
        aria-expanded={false}
        onClick={() => setExpanded(true)}
      >
        <Search aria-hidden />
      </IconButton>
    );
  }

  return (
    <form
      ref={formRef}
      role="search"
      aria-label={t('search.region')}
      className={clsx(styles.line, phone && styles.overlay)}
      onSubmit={(event) => {
        event.preventDefault();
        run();
      }}
    >
      {phone ? (
        <IconButton label={t('search.closeLine')} onClick={fold}>
          <ArrowLeft aria-hidden />
        </IconButton>
      ) : null}
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
              if (searching) {
                if (phone) refocusOnMount = true;
                close();
              } else {
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
        <LazyPart variant="notice" onFailed={() => setOpen(false)}>
          <AdvancedSearch
            id={popoverId}
            form={form}
            setForm={setForm}
            datesDisabled={datesDisabled}
            badFrom={badFrom}
            badTo={badTo}
            onKeyDown={onEscape}
          />
        </LazyPart>
      ) : null}
    </form>
  );
}

function idOrNull(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}
