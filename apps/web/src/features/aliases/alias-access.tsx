import type { AliasEntry } from '@mailroom/protocol';
import { useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { raiseSuccess } from '../../ui/notices-store';
import { PasswordPairForm } from '../../ui/password-pair-form';
import { useUpdateAliasAccess } from './queries';

/**
 * Password access for one alias (PUT user/aliases/update_access): whoever has the password signs in as the alias-only
 * user (SPEC §6). Removing it ends their sessions.
 */
export function AliasAccessForm({ alias, onDone }: { alias: AliasEntry; onDone(): void }) {
  const { t } = useTranslation();
  const update = useUpdateAliasAccess();
  return (
    <PasswordPairForm
      email={alias.email}
      hasPassword={alias.password_access}
      pending={update.isPending}
      serverError={useErrorText(update.error)}
      onEdit={update.reset}
      onSave={(password, confirm) =>
        update.mutate(
          { email: alias.email, password, password_confirm: confirm },
          {
            onSuccess: () => {
              raiseSuccess(t('aliases.accessSet', { email: alias.email }));
              onDone();
            },
          },
        )
      }
      onRemove={async () => {
        await update.mutateAsync({ email: alias.email, password: null });
        raiseSuccess(t('aliases.accessRemoved', { email: alias.email }));
        onDone();
      }}
      onDone={onDone}
    />
  );
}
