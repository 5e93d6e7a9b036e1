import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Download, KeyRound, LockKeyhole, Paperclip } from 'lucide-react';
import clsx from 'clsx';
import { formatFileSize } from '@mailroom/protocol';
import { useTranslation, translateErrorCode } from '../../i18n';
import { errorDisplayMessage } from '../../api/error-message';
import { Button } from '../../ui/button';
import { HtmlBody } from '../mail/html-body';
import { linkifyText } from '../mail/sanitize-html';
import type { EncryptedAttachment, EncryptedPayload } from './crypto';
import type { DecryptSource } from './decrypt-api';
import { useDecrypt } from './use-decrypt';
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
    return <DecryptedMessage payload={state.payload} card={headingLevel === 1} />;

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
            })
          : null;

  return (
    <form className={styles.prompt} onSubmit={onSubmit} aria-busy={working}>
      <span className={styles.icon} aria-hidden>
        <LockKeyhole />
      </span>
      <Heading className={styles.title}>{t('decrypt.title')}</Heading>
      <p className={styles.text}>{t('decrypt.prompt')}</p>
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

/** `card`: framed on its own page; the reader already frames it. */
function DecryptedMessage({ payload, card }: { payload: EncryptedPayload; card: boolean }) {
  const { t } = useTranslation();
  const subject = payload.subject || t('decrypt.noSubject');
  return (
    <article className={clsx(styles.message, card && styles.card)} aria-label={t('decrypt.decryptedMessage')}>
      <h2 className={styles.subject}>{subject}</h2>
      {payload.attachments.length > 0 ? (
        <section className={styles.attachments} aria-label={t('decrypt.attachments')}>
          <h3>
            <Paperclip aria-hidden />
            {t('decrypt.attachmentCount', { count: payload.attachments.length })}
          </h3>
          <ul>
            {payload.attachments.map((attachment, index) => (
              <AttachmentLink key={index} attachment={attachment} />
            ))}
          </ul>
        </section>
      ) : null}
      <div className={styles.body}>
        {payload.content_type === 'text/html' ? (
          <HtmlBody html={payload.content} title={subject} />
        ) : (
          <div className={styles.plain}>
            {linkifyText(payload.content).map((part, index) =>
              part.kind === 'link' ? (
                <a key={index} href={part.href} target="_blank" rel="noopener noreferrer">
                  {part.text}
                </a>
              ) : (
                <span key={index}>{part.text}</span>
              ),
            )}
          </div>
        )}
      </div>
    </article>
  );
}

/** A download from memory: the decrypted bytes never go back to the server. */
function AttachmentLink({ attachment }: { attachment: EncryptedAttachment }) {
  const url = useMemo(
    () =>
      URL.createObjectURL(
        new Blob([attachment.bytes as Uint8Array<ArrayBuffer>], {
          type: attachment.type || 'application/octet-stream',
        }),
      ),
    [attachment],
  );
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <li>
      <a href={url} download={attachment.name} className={styles.attachment}>
        <Download aria-hidden />
        <span className={styles.attachmentName}>{attachment.name}</span>
        <span className={styles.attachmentSize}>{formatFileSize(attachment.bytes.length)}</span>
      </a>
    </li>
  );
}
