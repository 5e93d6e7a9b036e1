import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Plus, ShieldCheck, Trash2, UserCheck } from 'lucide-react';
import { normaliseSenderEntry, type SenderListName } from '@mailroom/protocol';
import { refusal, useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { IconButton } from '../../ui/icon-button';
import { NativeSelect } from '../../ui/select';
import { raiseSuccess } from '../../ui/notices-store';
import { SettingsList, SettingsState } from '../../ui/settings-list';
import page from '../../ui/settings-page.module.css';
import { SettingsPage } from '../../ui/settings-editor-header';
import { useAccount } from '../account';
import { SwitchSetting } from './main-section';
import { useChangeSettings } from './queries';
import { Group, SectionLoading } from './security-parts';
import { spamQueries, useAddSenders, useAllowContacts, useDeleteSender } from './spam-queries';

/**
 * settings/spam (issue 30): whom to trust and whom to block. An allowed address or domain skips the spam score when
 * its mail proves where it comes from; a blocked one goes to Junk; contacts are trusted unless turned off.
 */
export default function SpamSection() {
  const { t } = useTranslation();
  const account = useAccount();
  const change = useChangeSettings();
  return (
    <SettingsPage title={t('spam.title')}>
      <p className={page.hint}>{t('spam.intro')}</p>
      {account ? (
        <Group title={t('spam.contactsGroup')}>
          <SwitchSetting
            label={t('spam.trustContacts')}
            hint={t('spam.trustContactsHint')}
            checked={account.settings.trust_contacts !== false}
            onChange={(trust_contacts) => change.save({ trust_contacts })}
          />
        </Group>
      ) : null}
      <AddSender />
      <SenderLists />
    </SettingsPage>
  );
}

function AddSender() {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [list, setList] = useState<SenderListName>('allow');
  const [checked, setChecked] = useState(false);
  const add = useAddSenders();
  const allowContacts = useAllowContacts();
  const invalid = checked && !normaliseSenderEntry(value);
  const error = useErrorText(invalid ? refusal('sender_entry_invalid') : (add.error ?? allowContacts.error));

  function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    if (!normaliseSenderEntry(value)) return;
    add.mutate(
      { list, entries: [value] },
      {
        onSuccess: () => {
          raiseSuccess(
            t(list === 'allow' ? 'spam.allowed' : 'spam.blocked', {
              entry: normaliseSenderEntry(value) ?? value,
            }),
          );
          setValue('');
          setChecked(false);
        },
      },
    );
  }

  return (
    <form className={page.form} onSubmit={submit} noValidate aria-busy={add.isPending}>
      <Group title={t('spam.addGroup')}>
        <Field label={t('spam.entry')} hint={t('spam.entryHint')} error={error}>
          <input
            value={value}
            maxLength={320}
            autoComplete="off"
            spellCheck={false}
            placeholder="name@example.com"
            onChange={(event) => setValue(event.target.value)}
          />
        </Field>
        <Field label={t('spam.list')}>
          <NativeSelect
            value={list}
            options={[
              { value: 'allow', label: t('spam.lists.allow') },
              { value: 'block', label: t('spam.lists.block') },
            ]}
            onChange={(next) => setList(next as SenderListName)}
          />
        </Field>
        <div className={page.actions}>
          <Button type="submit" disabled={add.isPending}>
            <Plus aria-hidden />
            {t('spam.add')}
          </Button>
          <Button
            variant="secondary"
            disabled={allowContacts.isPending}
            onClick={() =>
              allowContacts.mutate(undefined, {
                onSuccess: ({ added }) => raiseSuccess(t('spam.contactsAllowed', { count: added ?? 0 })),
              })
            }
          >
            <UserCheck aria-hidden />
            {t('spam.allowContacts')}
          </Button>
        </div>
      </Group>
    </form>
  );
}

function SenderLists() {
  const { t } = useTranslation();
  const senders = useQuery(spamQueries.senders());
  const remove = useDeleteSender();
  if (!senders.data)
    return <SectionLoading failed={senders.isError} onRetry={() => void senders.refetch()} />;
  if (!senders.data.senders.length)
    return (
      <SettingsState>
        <ShieldCheck aria-hidden />
        <p>{t('spam.empty')}</p>
      </SettingsState>
    );
  return (
    <SettingsList aria-label={t('spam.listsLabel')}>
      {senders.data.senders.map((sender) => (
        <li key={sender.entry} className={page.item}>
          <div className={page.itemMain}>
            <span className={page.itemName} title={sender.entry}>
              {sender.entry}
            </span>
            <span className={page.itemSub}>
              {sender.entry.includes('@') ? t('spam.address') : t('spam.domain')}
            </span>
          </div>
          <span className={page.badge}>{t(`spam.lists.${sender.list}`)}</span>
          <span className={page.itemActions}>
            <IconButton
              label={t('spam.remove', { entry: sender.entry })}
              tooltip={t('spam.removeShort')}
              disabled={remove.isPending}
              onClick={() => remove.mutate(sender.entry)}
            >
              <Trash2 aria-hidden />
            </IconButton>
          </span>
        </li>
      ))}
    </SettingsList>
  );
}
