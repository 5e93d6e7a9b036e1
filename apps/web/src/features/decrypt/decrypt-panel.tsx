import { useState, type FormEvent } from 'react';
import { KeyRound, LockKeyhole } from 'lucide-react';
import clsx from 'clsx';
import { useTranslation, translateErrorCode } from '../../i18n';
import { errorDisplayMessage } from '../../api/error-message';
import { Button } from '../../ui/button';
import { HtmlBody } from '../message-view';
import { AttachmentList, useBlobLinks } from '../message-view';
import { PlainBody } from '../message-view';
import type { EncryptedPayload } from '../../lib/crypto';
import type { DecryptSource } from './decrypt-api';
import { useDecrypt } from './use-decrypt';
import card from '../../ui/card.module.css';
import styles from './decrypt.module.css';

/**
 * The password prompt and, once opened, the message: the same on the public /decrypt page and in
 * the reader. Everything happens in this tab; nothing decrypted is sent anywhere.
 */
export default function DecryptPanel({
  source,
  headingLevel = 2,
}: {
  source: DecryptSource;
  headingLevel?: 1 | 2;
}) {
  const { t } = useTranslation();
  const { state, submit } = useDecrypt(source);
  const [password, setPassword] = useState('');
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  if (state.status === 'opened')
    return <DecryptedMessage payload={state.payload} framed={headingLevel === 1} />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password) void submit(password);
  };
  const working = state.status === 'working';
  const problem =
    state.status === 'wrong'
      ? t('decrypt.wrongPassword')
      : state.status === 'locked'
        ? t('decrypt.locked')
        : state.status === 'failed'
          ? errorDisplayMessage(state.error, {
              catalogue: (code) => translateErrorCode(code),
              fallback: t('decrypt.failed'),
              unreachable: t('notice.unreachable'),
            })
          : null;

  return (
    <form className={card.card} onSubmit={onSubmit} aria-busy={working}>
      <span className={card.icon} aria-hidden>
        <LockKeyhole />
      </span>
      <Heading className={card.title}>{t('decrypt.title')}</Heading>
      <p className={card.text}>{t('decrypt.prompt')}</p>
      <label className={styles.field}>
        <span>{t('decrypt.password')}</span>
        <input
          type="password"
          name="password"
          autoComplete="off"
          autoFocus
          value={password}
          disabled={working || state.status === 'locked'}
          aria-invalid={state.status === 'wrong'}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      {problem ? (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      ) : null}
      <Button
        type="submit"
        variant="primary"
        block
        disabled={working || !password || state.status === 'locked'}
      >
        <KeyRound aria-hidden />
        {working ? t('decrypt.working') : t('decrypt.open')}
      </Button>
    </form>
  );
}

/** `framed` on its own page; the reader already frames it. */
function DecryptedMessage({ payload, framed }: { payload: EncryptedPayload; framed: boolean }) {
  const { t } = useTranslation();
  const subject = payload.subject || t('decrypt.noSubject');
  // A download from memory: the decrypted bytes never go back to the server.
  const attachments = useBlobLinks(payload.attachments);
  return (
    <article
      className={clsx(styles.message, framed && styles.framed)}
      aria-label={t('decrypt.decryptedMessage')}
    >
      <h2 className={styles.subject}>{subject}</h2>
      {attachments.length > 0 ? <AttachmentList attachments={attachments} /> : null}
      <div className={styles.body}>
        {payload.content_type === 'text/html' ? (
          <HtmlBody html={payload.content} title={subject} />
        ) : (
          <PlainBody className={styles.plain} text={payload.content} />
        )}
      </div>
    </article>
  );
}
