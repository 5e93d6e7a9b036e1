import { formatFullDate } from '@mailroom/protocol';
import { useId, useState, type FormEvent } from 'react';
import { LifeBuoy, Send } from 'lucide-react';
import { refusal, useErrorText } from '../../api/use-error-text';
import { useTranslation, type TextKey } from '../../i18n';
import { Button } from '../../ui/button';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { Group, OwnerOnly, SectionLoading } from './security-parts';
import { useCreateSupportRequest, useSupportDiagnostics, useSupportRequests } from './security-queries';
import styles from './security.module.css';
import { SettingsList, SettingsState } from '../../ui/settings-list';
import { SettingsPage } from '../../ui/settings-editor-header';
import { FormActions, FormError } from '../../ui/form-parts';
import { Field } from '../../ui/field';

/** What the server accepts of each value of `client` (security.ts supportCreateSchema). */
const CLIENT_VALUE_MAX = 500;

/** The browser's part of the diagnostics: shown under the checkbox, and sent as `client` exactly so. */
export function clientDiagnostics(): Record<'user_agent' | 'language' | 'screen' | 'app_version', string> {
  return {
    user_agent: navigator.userAgent.slice(0, CLIENT_VALUE_MAX),
    language: navigator.language,
    screen: `${window.screen.width}×${window.screen.height}`,
    app_version: __APP_VERSION__,
  };
}

const clientLabels: Record<keyof ReturnType<typeof clientDiagnostics>, TextKey> = {
  user_agent: 'support.client.user_agent',
  language: 'support.client.language',
  screen: 'support.client.screen',
  app_version: 'support.client.app_version',
};

/** settings/support (SPEC §2): write to support, with the diagnostics the user agrees to send; the requests sent. */
export default function SupportSection() {
  const { t } = useTranslation();
  return (
    <OwnerOnly>
      <SettingsPage title={t('support.title')}>
        <p className={page.hint}>{t('support.intro')}</p>
        <SupportForm />
        <History />
      </SettingsPage>
    </OwnerOnly>
  );
}

function SupportForm() {
  const { t } = useTranslation();
  const id = useId();
  const create = useCreateSupportRequest();
  const kept = useSupportRequests().data?.delivery === 'kept';
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const [include, setInclude] = useState(false);
  const [checked, setChecked] = useState(false);
  const server = useSupportDiagnostics(include);
  const [client] = useState(clientDiagnostics);
  const empty = !subject.trim() || !text.trim();
  const error = useErrorText(checked && empty ? refusal('support_message_empty') : create.error);
  // The server adds its part only as it was shown: not before it has loaded.
  const waiting = include && !server.data;

  function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    if (empty || waiting) return;
    create.mutate(
      {
        subject: subject.trim(),
        text: text.trim(),
        include_diagnostics: include,
        client: include ? client : {},
      },
      {
        onSuccess: (answer) => {
          raiseSuccess(t(answer.delivery === 'kept' ? 'support.kept' : 'support.sent'));
          setSubject('');
          setText('');
          setInclude(false);
          setChecked(false);
        },
      },
    );
  }

  return (
    <form className={page.form} onSubmit={submit} noValidate aria-busy={create.isPending}>
      {kept ? (
        <p className={page.hint} role="note">
          {t('support.keptNote')}
        </p>
      ) : null}
      <Field label={t('support.subject')}>
        <input
          id={`${id}-subject`}
          value={subject}
          maxLength={200}
          aria-invalid={(checked && !subject.trim()) || undefined}
          onChange={(event) => setSubject(event.target.value)}
        />
      </Field>
      <Field label={t('support.text')}>
        <textarea
          id={`${id}-text`}
          className={styles.textarea}
          value={text}
          maxLength={20_000}
          rows={8}
          aria-invalid={(checked && !text.trim()) || undefined}
          onChange={(event) => setText(event.target.value)}
        />
      </Field>
      <label className={page.check}>
        <input type="checkbox" checked={include} onChange={(event) => setInclude(event.target.checked)} />
        {t('support.includeDiagnostics')}
      </label>
      {include ? (
        <div className={styles.diagnostics}>
          <p className={page.fieldHint}>{t('support.diagnosticsIntro')}</p>
          <dl aria-label={t('support.diagnosticsLabel')}>
            {server.data
              ? Object.entries(server.data).map(([label, value]) => (
                  <div key={`server-${label}`}>
                    <dt>{label}</dt>
                    <dd>{value}</dd>
                  </div>
                ))
              : null}
            {Object.entries(client).map(([key, value]) => (
              <div key={`client-${key}`}>
                <dt>{t(clientLabels[key as keyof typeof clientLabels])}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {server.data ? null : (
            <SectionLoading failed={server.isError} onRetry={() => void server.refetch()} />
          )}
        </div>
      ) : null}
      <FormError>{error}</FormError>
      <FormActions>
        <Button type="submit" variant="primary" disabled={create.isPending || waiting}>
          <Send aria-hidden />
          {t('support.send')}
        </Button>
      </FormActions>
    </form>
  );
}

function History() {
  const { t, i18n } = useTranslation();
  const requests = useSupportRequests();
  return (
    <Group title={t('support.history')}>
      {requests.data ? (
        requests.data.requests.length === 0 ? (
          <SettingsState>
            <LifeBuoy aria-hidden />
            <p>{t('support.historyEmpty')}</p>
          </SettingsState>
        ) : (
          <SettingsList aria-label={t('support.history')}>
            {requests.data.requests.map((request) => (
              <li key={request.id} className={page.item} aria-label={request.subject}>
                <span className={page.itemMain}>
                  <span className={page.itemName}>{request.subject}</span>
                  <span className={page.itemSub}>{request.text}</span>
                </span>
                {request.diagnostics ? (
                  <span className={page.badge}>{t('support.withDiagnostics')}</span>
                ) : null}
                <time className={page.count} dateTime={request.created_at}>
                  {formatFullDate(request.created_at, new Date(), i18n.language)}
                </time>
              </li>
            ))}
          </SettingsList>
        )
      ) : (
        <SectionLoading failed={requests.isError} onRetry={() => void requests.refetch()} />
      )}
    </Group>
  );
}
