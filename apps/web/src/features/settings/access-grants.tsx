import { formatFullDate } from '@mailroom/protocol';
import { useId, useState, type FormEvent } from 'react';
import { Trash2, UserPlus, Users } from 'lucide-react';
import type { AccessGrant } from '@mailroom/protocol';
import { refusal, useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import { ConfirmItem } from '../../ui/confirm-dialog';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { useGrant, useRevoke, type GrantKind } from './security-queries';
import styles from './security.module.css';
import { SettingsList, SettingsState } from '../../ui/settings-list';
import { MemberIdInput } from '../../ui/preset-input';

const MEMBER_ID_LENGTH = 12;

/**
 * What a member ID typed so far is: null while it may still become one (digits, not yet 12), 'complete' at 12
 * digits, or the refusal the server would give (SPEC §8 invalid_member_id) as soon as it cannot be one.
 */
export function memberIdState(typed: string): 'complete' | 'invalid' | null {
  if (!/^\d*$/.test(typed) || typed.length > MEMBER_ID_LENGTH) return 'invalid';
  return typed.length === MEMBER_ID_LENGTH ? 'complete' : null;
}

/**
 * The members granted impersonation (the whole mailbox) or BA-impersonation (the bank accounts): grant a member
 * ID, and revoke one after a confirmation — their open sessions end at once.
 */
export function AccessGrants({ kind, grants }: { kind: GrantKind; grants: readonly AccessGrant[] }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const grant = useGrant(kind);
  const revoke = useRevoke(kind);
  const [memberId, setMemberId] = useState('');
  const [revoking, setRevoking] = useState<string | null>(null);
  const state = memberIdState(memberId.trim());
  const typedError = useErrorText(state === 'invalid' ? refusal('invalid_member_id') : null);
  const serverError = useErrorText(grant.error);
  const error = typedError ?? serverError;
  const texts = kind === 'impersonation' ? 'security.impersonation' : 'security.baImpersonation';

  function submit(event: FormEvent) {
    event.preventDefault();
    if (state !== 'complete') return;
    const granted = memberId.trim();
    grant.mutate(granted, {
      onSuccess: () => {
        raiseSuccess(t(`${texts}.granted`, { memberId: granted }));
        setMemberId('');
      },
    });
  }

  return (
    <>
      <form className={styles.grantForm} onSubmit={submit} noValidate aria-busy={grant.isPending}>
        <div className={page.field}>
          <label htmlFor={`${id}-member`}>{t('security.memberId')}</label>
          <MemberIdInput
            id={`${id}-member`}
            value={memberId}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-member-hint`}
            onChange={(value) => {
              setMemberId(value);
              grant.reset();
            }}
          />
          <span
            id={`${id}-member-hint`}
            className={error ? page.error : page.fieldHint}
            role={error ? 'alert' : undefined}
          >
            {error ?? t('security.memberIdHint')}
          </span>
        </div>
        <Button type="submit" variant="primary" disabled={state !== 'complete' || grant.isPending}>
          <UserPlus aria-hidden />
          {t(`${texts}.grant`)}
        </Button>
      </form>

      {grants.length === 0 ? (
        <SettingsState>
          <Users aria-hidden />
          <p>{t(`${texts}.empty`)}</p>
        </SettingsState>
      ) : (
        <SettingsList aria-label={t(`${texts}.listLabel`)}>
          {grants.map((entry) => (
            <li key={entry.member_id} className={page.item} aria-label={entry.member_id}>
              <span className={page.itemMain}>
                <span className={page.itemName}>{entry.member_id}</span>
                <span className={page.itemSub}>
                  {t('security.grantedAt', {
                    at: formatFullDate(entry.granted_at, new Date(), i18n.language),
                  })}
                </span>
              </span>
              <span className={page.itemActions}>
                <IconButton
                  label={t('security.revokeFor', { memberId: entry.member_id })}
                  tooltip={t('security.revoke')}
                  onClick={() => setRevoking(entry.member_id)}
                >
                  <Trash2 aria-hidden />
                </IconButton>
              </span>
            </li>
          ))}
        </SettingsList>
      )}

      <ConfirmItem
        item={revoking}
        onClose={() => setRevoking(null)}
        title={t('security.revokeTitle', { memberId: revoking ?? '' })}
        text={t(`${texts}.revokeText`)}
        confirmLabel={t('security.revoke')}
        danger
        onConfirm={async (memberId) => {
          await revoke.mutateAsync(memberId);
          raiseSuccess(t('security.revoked', { memberId }));
        }}
        onError={() => {}}
      />
    </>
  );
}
