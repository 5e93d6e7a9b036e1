import { useId, type ReactNode } from 'react';
import { ArrowLeft, Plus } from 'lucide-react';
import { Link } from '../lib/router';
import { buttonClass } from './button';
import page from './settings-page.module.css';

/** The header of a settings editor page (a profile, a folder, a label): back to its list, and the page's title. */
export function SettingsEditorHeader({
  backTo,
  backLabel,
  titleId,
  title,
}: {
  backTo: string;
  backLabel: string;
  /** The heading's id, which the page's section is labelled by. */
  titleId: string;
  title: string;
}) {
  return (
    <header className={page.header}>
      <Link to={backTo} className={buttonClass('ghost')} aria-label={backLabel}>
        <ArrowLeft aria-hidden />
      </Link>
      <h2 id={titleId} className={page.title}>
        {title}
      </h2>
    </header>
  );
}

/**
 * A settings page: a section labelled by its title, under a header that has either a way back to its list (an
 * editor: `back`) or, at its end, a link that creates a new item (`create`) or other `actions`.
 */
export function SettingsPage({
  title,
  back,
  create,
  actions,
  className = page.page,
  children,
}: {
  title: string;
  back?: { to: string; label: string };
  create?: { to: string; label: string };
  /** What stands at the header's end, after the space (a saving status, say). */
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const titleId = `${useId()}-title`;
  const end =
    create !== undefined ? (
      <Link to={create.to} className={buttonClass('primary')}>
        <Plus aria-hidden />
        {create.label}
      </Link>
    ) : (
      actions
    );
  return (
    <section className={className} aria-labelledby={titleId}>
      {back !== undefined ? (
        <SettingsEditorHeader backTo={back.to} backLabel={back.label} titleId={titleId} title={title} />
      ) : (
        <header className={page.header}>
          <h2 id={titleId} className={page.title}>
            {title}
          </h2>
          {end !== undefined ? (
            <>
              <span className={page.grow} />
              {end}
            </>
          ) : null}
        </header>
      )}
      {children}
    </section>
  );
}
