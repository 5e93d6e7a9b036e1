import { useId, useState, type FormEvent } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import { CONTACT_EMAILS_MAX, isEmail, type Contact, type ContactInput } from '@mailroom/protocol';
import { ApiError } from '../../api/client';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { raiseSuccess } from '../../ui/notices-store';
import { Dialog, DialogClose, DialogCloseIcon, DialogSpinner } from '../../ui/dialog';
import { Field } from '../../ui/field';
import { IconButton } from '../../ui/icon-button';
import { useCreateContact, useUpdateContact } from './queries';
import { refusal, useErrorText } from '../../api/use-error-text';
import styles from './contacts.module.css';

interface Draft {
  name: string;
  surname: string;
  /** At least one row, possibly empty. */
  emails: string[];
  /** Which row of `emails` is the primary address. */
  primary: number;
  phone: string;
  birthday: string;
  notes: string;
}

function draftOf(contact: Contact | null): Draft {
  return {
    name: contact?.name ?? '',
    surname: contact?.surname ?? '',
    emails: contact && contact.emails.length > 0 ? [...contact.emails] : [''],
    primary: 0,
    phone: contact?.phone ?? '',
    birthday: contact?.birthday ?? '',
    notes: contact?.notes ?? '',
  };
}

/** The body of POST contacts or contacts/{id}: trimmed, empty address rows left out, the primary first. */
export function contactInput(draft: Draft): ContactInput {
  const rows = draft.emails.map((email, index) => ({
    email: email.trim(),
    primary: index === draft.primary,
  }));
  const kept = rows.filter((row) => row.email !== '');
  const primary = kept.find((row) => row.primary) ?? kept[0];
  const emails = primary
    ? [primary.email, ...kept.filter((row) => row !== primary).map((row) => row.email)]
    : [];
  return {
    name: draft.name.trim(),
    surname: draft.surname.trim(),
    ...(primary ? { email: primary.email } : {}),
    emails,
    phone: draft.phone.trim(),
    birthday: draft.birthday || null,
    notes: draft.notes,
  };
}

/**
 * Create or edit a contact in a side panel (a sheet over the whole screen on a phone): name (required, SPEC §5),
 * surname, several addresses with one primary, phone, date of birth, notes. Checked here first, then by the
 * server, whose refusal shows beside the field it concerns.
 */
export function ContactEditor({
  contact,
  open,
  onOpenChange,
  onDelete,
}: {
  /** The contact to edit, or null for a new one. */
  contact: Contact | null;
  open: boolean;
  onOpenChange(open: boolean): void;
  onDelete?(contact: Contact): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const create = useCreateContact();
  const update = useUpdateContact();
  const [draft, setDraft] = useState(() => draftOf(contact));
  const [nameError, setNameError] = useState<unknown>(null);
  const [badEmails, setBadEmails] = useState<ReadonlySet<number>>(new Set());
  const [formError, setFormError] = useState<unknown>(null);
  const busy = create.isPending || update.isPending;
  const nameText = useErrorText(nameError);
  const emailText = useErrorText(badEmails.size > 0 ? refusal('failed_validation_email_address') : null);
  const formText = useErrorText(formError);

  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const setEmail = (index: number, value: string) => {
    change({ emails: draft.emails.map((email, at) => (at === index ? value : email)) });
    if (badEmails.has(index)) setBadEmails(new Set([...badEmails].filter((at) => at !== index)));
  };
  const removeEmail = (index: number) => {
    const emails = draft.emails.filter((_, at) => at !== index);
    const primary = index === draft.primary ? 0 : draft.primary > index ? draft.primary - 1 : draft.primary;
    change({ emails: emails.length > 0 ? emails : [''], primary });
    setBadEmails(new Set());
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const bad = new Set(
      draft.emails.flatMap((email, index) => (email.trim() && !isEmail(email.trim()) ? [index] : [])),
    );
    setBadEmails(bad);
    const missingName = !draft.name.trim();
    setNameError(missingName ? refusal('name_not_indicated') : null);
    if (missingName || bad.size > 0) return;
    const body = contactInput(draft);
    const done = (saved: Contact) => {
      raiseSuccess(t(contact ? 'contacts.saved' : 'contacts.created', { name: saved.name }));
      onOpenChange(false);
    };
    const failed = (error: unknown) => {
      const code = error instanceof ApiError ? error.code : null;
      if (code === 'name_not_indicated') setNameError(error);
      else if (code === 'failed_validation_email_address')
        setBadEmails(new Set(draft.emails.map((_, index) => index)));
      else setFormError(error);
    };
    if (contact) update.mutate({ id: contact.id, contact: body }, { onSuccess: done, onError: failed });
    else create.mutate(body, { onSuccess: done, onError: failed });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      title={contact ? t('contacts.editTitle') : t('contacts.newTitle')}
      onSubmit={submit}
      noValidate
      classNames={{
        content: styles.sheet,
        form: styles.sheetForm,
        header: styles.sheetHeader,
        actions: styles.sheetActions,
      }}
      headerEnd={<DialogCloseIcon label={t('common.close')} disabled={busy} />}
      actions={
        <>
          {contact && onDelete ? (
            <Button variant="danger" disabled={busy} onClick={() => onDelete(contact)}>
              <Trash2 aria-hidden />
              {t('contacts.delete')}
            </Button>
          ) : null}
          <span className={styles.grow} />
          <DialogClose disabled={busy}>{t('common.cancel')}</DialogClose>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? <DialogSpinner /> : null}
            {contact ? t('common.save') : t('common.create')}
          </Button>
        </>
      }
    >
      <div className={styles.sheetBody}>
        <div className={styles.pair}>
          <Field label={t('contacts.name')} error={nameText}>
            <input
              value={draft.name}
              maxLength={200}
              autoFocus
              autoComplete="off"
              onChange={(event) => {
                change({ name: event.target.value });
                setNameError(null);
              }}
            />
          </Field>
          <Field label={t('contacts.surname')}>
            <input
              value={draft.surname}
              maxLength={200}
              autoComplete="off"
              onChange={(event) => change({ surname: event.target.value })}
            />
          </Field>
        </div>

        <fieldset className={styles.emails}>
          <legend>{t('contacts.emails')}</legend>
          {draft.emails.map((email, index) => (
            <div key={index} className={styles.emailRow}>
              <input
                type="email"
                value={email}
                maxLength={320}
                autoComplete="off"
                aria-label={t('contacts.emailNumber', { number: index + 1 })}
                aria-invalid={badEmails.has(index)}
                onChange={(event) => setEmail(index, event.target.value)}
              />
              <label className={styles.primary}>
                <input
                  type="radio"
                  name={`${id}-primary`}
                  checked={draft.primary === index}
                  onChange={() => change({ primary: index })}
                />
                {t('contacts.primary')}
              </label>
              <IconButton
                label={t('contacts.removeEmail', { number: index + 1 })}
                disabled={draft.emails.length === 1 && email === ''}
                onClick={() => removeEmail(index)}
              >
                <Trash2 aria-hidden />
              </IconButton>
            </div>
          ))}
          {emailText ? (
            <span className={styles.fieldError} role="alert">
              {emailText}
            </span>
          ) : null}
          {draft.emails.length < CONTACT_EMAILS_MAX ? (
            <Button
              variant="ghost"
              className={styles.addEmail}
              onClick={() => change({ emails: [...draft.emails, ''] })}
            >
              <Plus aria-hidden />
              {t('contacts.addEmail')}
            </Button>
          ) : null}
        </fieldset>

        <div className={styles.pair}>
          <Field label={t('contacts.phone')}>
            <input
              type="tel"
              value={draft.phone}
              maxLength={100}
              autoComplete="off"
              onChange={(event) => change({ phone: event.target.value })}
            />
          </Field>
          <Field label={t('contacts.birthday')}>
            <input
              type="date"
              value={draft.birthday}
              onChange={(event) => change({ birthday: event.target.value })}
            />
          </Field>
        </div>
        <Field label={t('contacts.notes')}>
          <textarea
            rows={4}
            value={draft.notes}
            maxLength={10_000}
            onChange={(event) => change({ notes: event.target.value })}
          />
        </Field>
        {formText ? (
          <p className={styles.fieldError} role="alert">
            {formText}
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}
