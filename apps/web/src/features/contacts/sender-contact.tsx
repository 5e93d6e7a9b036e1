import { useQueryClient } from '@tanstack/react-query';
import { UserCheck, UserPlus } from 'lucide-react';
import type { KnownResponse } from '@mailroom/protocol';
import { raiseError } from '../../api/error-message';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { raiseSuccess } from '../../ui/notices-store';
import { fullName, splitDisplayName } from './contacts-model';
import { contactKeys, useCreateContact, useKnownContact } from './queries';
import styles from './sender-contact.module.css';

export interface SenderContactProps {
  /** The sender's display name ('' when the message gave none). */
  name: string;
  email: string;
  /** Once the sender is added (the reader reads its message again). */
  onAdded?: () => void;
}

/**
 * The reader's sender as a contact (issue 15): "Add to contacts" when the address is not one — the display name
 * split into name and surname — and "In contacts" once it is.
 */
export default function SenderContact({ name, email, onAdded }: SenderContactProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const known = useKnownContact(email);
  const create = useCreateContact();
  const data = known.data;

  if (!data) return null;
  if (data.contact_id !== null)
    return (
      <span className={styles.known}>
        <UserCheck aria-hidden />
        {t('contacts.inContacts')}
      </span>
    );
  const person = splitDisplayName(name, email);
  const shown = fullName(person);
  return (
    <Button
      variant="ghost"
      className={styles.add}
      disabled={create.isPending}
      aria-label={t('contacts.addSenderName', { name: shown })}
      title={t('contacts.addSenderName', { name: shown })}
      onClick={() =>
        create.mutate(
          { ...person, emails: [email] },
          {
            onSuccess: (contact) => {
              client.setQueryData<KnownResponse>(contactKeys.known(email), {
                contact_id: contact.id,
                written_to: data.written_to,
              });
              // The reader reads the message again: with image_display 'correspondent' its images now show.
              onAdded?.();
              raiseSuccess(t('contacts.senderAdded', { name: fullName(contact) }));
            },
            onError: raiseError,
          },
        )
      }
    >
      <UserPlus aria-hidden />
      {t('contacts.addSender')}
    </Button>
  );
}
