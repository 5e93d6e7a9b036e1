import { useId, useState, type FormEvent } from 'react';
import { IdCard, Pencil, Star, Trash2 } from 'lucide-react';
import type { Account, Profile } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Link, useNavigate } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { IconButton, IconLink } from '../../ui/icon-button';
import { ConfirmItem } from '../../ui/confirm-dialog';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import { raiseSuccess } from '../../ui/notices-store';
import { Preloader } from '../../ui/preloader';
import page from '../../ui/settings-page.module.css';
import { SettingsPage } from '../../ui/settings-editor-header';
import { useAccount } from '../account';
import { loadRichEditor } from '../compose';
import { editProfilePath, newProfilePath, profilesPath } from './paths';
import { useCreateProfile, useDeleteProfile, useUpdateProfile } from './queries';
import styles from './settings-sections.module.css';
import { NativeSelect } from '../../ui/select';
import { Field } from '../../ui/field';
import { SettingsList, SettingsState } from '../../ui/settings-list';
import { FormActions } from '../../ui/form-parts';

const RichEditor = lazyChunk(loadRichEditor);

/** The addresses a profile may use: the ones the account may send from (the primary address and the aliases). */
export function sendableAddresses(account: Account): string[] {
  return [account.email, ...account.aliases.map((alias) => alias.email)];
}

/** Profiles in the order compose offers them: the default first, then by age. */
export function orderedProfiles(profiles: readonly Profile[]): Profile[] {
  return [...profiles].sort((a, b) => Number(b.default) - Number(a.default) || a.id - b.id);
}

/** settings/profiles, create and edit/{id} (SPEC §2). */
export function ProfilesSection({ action, id }: { action?: 'create' | 'edit'; id?: string }) {
  const account = useAccount();
  if (!account) return <Preloader />;
  if (action === 'create') return <ProfileEditor account={account} profile={null} />;
  if (action === 'edit') {
    const profile = account.profiles.find((candidate) => String(candidate.id) === id);
    return profile ? (
      <ProfileEditor key={profile.id} account={account} profile={profile} />
    ) : (
      <ProfileNotFound />
    );
  }
  return <ProfileList account={account} />;
}

function ProfileList({ account }: { account: Account }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const remove = useDeleteProfile();
  const [removing, setRemoving] = useState<Profile | null>(null);
  const profiles = orderedProfiles(account.profiles);
  const last = profiles.length <= 1;

  return (
    <SettingsPage title={t('profiles.title')} create={{ to: newProfilePath, label: t('profiles.create') }}>
      <p className={page.hint}>{t('profiles.intro')}</p>

      {profiles.length === 0 ? (
        <SettingsState>
          <IdCard aria-hidden />
          <p>{t('profiles.empty')}</p>
        </SettingsState>
      ) : (
        <SettingsList aria-label={t('profiles.listLabel')} aria-busy={update.isPending}>
          {profiles.map((profile) => {
            const title = profile.name || profile.email;
            return (
              <li key={profile.id} className={page.item} aria-label={title}>
                <span className={page.itemMain}>
                  <Link to={editProfilePath(profile.id)} className={page.itemName}>
                    {title}
                  </Link>
                  <span className={page.itemSub}>{profile.email}</span>
                </span>
                {profile.default ? <span className={page.badge}>{t('profiles.default')}</span> : null}
                <span className={page.itemActions}>
                  {profile.default ? null : (
                    <IconButton
                      label={t('profiles.makeDefaultFor', { name: title })}
                      tooltip={t('profiles.makeDefault')}
                      onClick={() =>
                        update.mutate(
                          { id: profile.id, update: { default: true } },
                          { onSuccess: () => raiseSuccess(t('profiles.madeDefault', { name: title })) },
                        )
                      }
                    >
                      <Star aria-hidden />
                    </IconButton>
                  )}
                  <IconLink
                    to={editProfilePath(profile.id)}
                    label={t('profiles.editFor', { name: title })}
                    tooltip={t('profiles.edit')}
                  >
                    <Pencil aria-hidden />
                  </IconLink>
                  <IconButton
                    label={t('profiles.removeFor', { name: title })}
                    tooltip={last ? t('profiles.lastOne') : t('profiles.remove')}
                    disabled={last}
                    onClick={() => setRemoving(profile)}
                  >
                    <Trash2 aria-hidden />
                  </IconButton>
                </span>
              </li>
            );
          })}
        </SettingsList>
      )}

      <ConfirmItem
        item={removing}
        onClose={() => setRemoving(null)}
        title={t('profiles.removeTitle', { name: removing ? removing.name || removing.email : '' })}
        text={removing?.default ? t('profiles.removeDefaultText') : t('profiles.removeText')}
        confirmLabel={t('profiles.remove')}
        danger
        onConfirm={async (profile) => {
          await remove.mutateAsync(profile.id);
          raiseSuccess(t('profiles.removed'));
        }}
        onError={() => {}}
      />
    </SettingsPage>
  );
}

function ProfileNotFound() {
  const { t } = useTranslation();
  return (
    <section className={page.page}>
      <SettingsState role="alert">
        <IdCard aria-hidden />
        <p>{t('profiles.notFound')}</p>
        <Link to={profilesPath} className={buttonClass()}>
          {t('profiles.backToList')}
        </Link>
      </SettingsState>
    </section>
  );
}

function ProfileEditor({ account, profile }: { account: Account; profile: Profile | null }) {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const create = useCreateProfile();
  const update = useUpdateProfile();
  const addresses = sendableAddresses(account);
  const [name, setName] = useState(profile?.name ?? '');
  const [email, setEmail] = useState(profile?.email ?? addresses[0]!);
  const [signature, setSignature] = useState(profile?.signature ?? '');
  const [makeDefault, setMakeDefault] = useState(profile?.default ?? false);
  const busy = create.isPending || update.isPending;
  // A profile whose address the account no longer has keeps it on screen until another is chosen.
  const choices = addresses.some((address) => address.toLowerCase() === email.toLowerCase())
    ? addresses
    : [email, ...addresses];

  function submit(event: FormEvent) {
    event.preventDefault();
    const done = {
      onSuccess: () => {
        raiseSuccess(profile ? t('profiles.saved') : t('profiles.created'));
        navigate(profilesPath);
      },
    };
    const body = { name: name.trim(), email, signature: signatureOrEmpty(signature) };
    if (profile)
      update.mutate(
        {
          id: profile.id,
          update: { ...body, ...(makeDefault && !profile.default ? { default: true } : {}) },
        },
        done,
      );
    else create.mutate({ ...body, default: makeDefault }, done);
  }

  const title = profile
    ? t('profiles.editTitle', { name: profile.name || profile.email })
    : t('profiles.createTitle');
  return (
    <SettingsPage title={title} back={{ to: profilesPath, label: t('profiles.backToList') }}>
      <form className={page.form} onSubmit={submit} noValidate aria-busy={busy}>
        <div className={styles.twoColumns}>
          <Field label={t('profiles.name')} hint={t('profiles.nameHint')}>
            <input
              id={`${id}-name`}
              value={name}
              maxLength={200}
              autoComplete="name"
              onChange={(event) => setName(event.target.value)}
            />
          </Field>
          <Field label={t('profiles.email')} hint={t('profiles.emailHint')}>
            <NativeSelect
              value={email}
              options={choices.map((address) => ({ value: address, label: address }))}
              onChange={setEmail}
            />
          </Field>
        </div>
        <div className={page.field}>
          <span id={`${id}-signature`}>{t('profiles.signature')}</span>
          <div className={styles.signatureBox}>
            <LazyPart fallback={<div className={styles.editorPlaceholder} />}>
              <RichEditor
                html={signature}
                revision={0}
                label={t('profiles.signature')}
                onChange={setSignature}
              />
            </LazyPart>
          </div>
          <span className={page.fieldHint}>{t('profiles.signatureHint')}</span>
        </div>
        <label className={page.check}>
          <input
            type="checkbox"
            checked={makeDefault}
            disabled={profile?.default === true}
            onChange={(event) => setMakeDefault(event.target.checked)}
          />
          {t('profiles.useAsDefault')}
        </label>
        {profile?.default ? <p className={page.hint}>{t('profiles.defaultStays')}</p> : null}
        <FormActions>
          <Link to={profilesPath} className={buttonClass()}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" variant="primary" disabled={busy}>
            {profile ? t('common.save') : t('common.create')}
          </Button>
        </FormActions>
      </form>
    </SettingsPage>
  );
}

/** The editor's empty document is an empty paragraph: a profile without a signature stores nothing. */
export function signatureOrEmpty(html: string): string {
  return html.replace(/<p>\s*<\/p>/g, '').trim() ? html : '';
}
