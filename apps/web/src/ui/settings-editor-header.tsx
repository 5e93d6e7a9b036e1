import { ArrowLeft } from 'lucide-react';
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
