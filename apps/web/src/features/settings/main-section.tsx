import { useId, type ReactNode } from 'react';
import {
  imageDisplayValues,
  languageValues,
  NOTIFY_MINUTES_MAX,
  signatureAddValues,
  themeValues,
  type Language,
  type Settings,
} from '@mailroom/protocol';
import { setLanguage, useTranslation, type TextKey } from '../../i18n';
import { Preloader } from '../../ui/preloader';
import { SwitchInput } from '../../ui/switch';
import page from '../../ui/settings-page.module.css';
import { useAccount } from '../account';
import { useChangeSettings } from './queries';
import { NativeSelect } from '../../ui/select';
import { SettingsPage } from '../../ui/settings-editor-header';

/** Page sizes offered (the schema allows 5 to 200); a size saved elsewhere is offered too. */
const PAGE_SIZES = [10, 20, 30, 50, 100, 200];
/** How often the wallet application may be told of new mail, in minutes (0: never). */
const NOTIFY_CHOICES = [0, 5, 15, 30, 60, 180, 720, NOTIFY_MINUTES_MAX];
/** How long a sent message is held on the server with an Undo offered, in seconds (0: sent at once). */
const UNDO_SEND_CHOICES = [0, 5, 10, 20, 30] as const;

/** The settings that are a switch, and the name of their texts. */
type SwitchKey =
  | 'message_thread'
  | 'unread_first'
  | 'message_preview'
  | 'slim_template'
  | 'slim_list_aliases'
  | 'signature_reply';
type SwitchName =
  'messageThread' | 'unreadFirst' | 'messagePreview' | 'slimTemplate' | 'slimListAliases' | 'signatureReply';

/** The settings that are one of a few values, and the name of their texts. */
const choiceNames = { image_display: 'imageDisplay', signature_add: 'signatureAdd', theme: 'theme' } as const;
type ChoiceKey = keyof typeof choiceNames;

const withCurrent = (choices: readonly number[], current: number) =>
  choices.includes(current) ? choices : [...choices, current].sort((a, b) => a - b);

/** settings/main: every setting of SPEC §3, saved as it is changed and applied at once everywhere. */
export function MainSection() {
  const { t } = useTranslation();
  const account = useAccount();
  const change = useChangeSettings();
  if (!account) return <Preloader />;
  const settings = account.settings;
  const { save } = change;

  /** A yes/no setting, its label and hint settingsMain.<name> and <name>Hint, saved as it is switched. */
  const toggle = (key: SwitchKey, name: SwitchName) => (
    <SwitchSetting
      label={t(`settingsMain.${name}`)}
      hint={t(`settingsMain.${name}Hint`)}
      checked={settings[key]}
      onChange={(checked) => save({ [key]: checked })}
    />
  );

  /** A setting of a few values, its texts settingsMain.<name>, <name>Hint and <name>Values.<value>. */
  const choice = <K extends ChoiceKey>(key: K, values: readonly Settings[K][], name = choiceNames[key]) => (
    <SelectSetting
      label={t(`settingsMain.${name}`)}
      hint={t(`settingsMain.${name}Hint`)}
      value={settings[key]}
      options={values.map((value) => ({ value, label: t(`settingsMain.${name}Values.${value}` as TextKey) }))}
      onChange={(value) => save({ [key]: value })}
    />
  );

  const minutes = (value: number) =>
    value === 0
      ? t('settingsMain.notifyNever')
      : value % 60 === 0
        ? t('settingsMain.notifyHours', { count: value / 60 })
        : t('settingsMain.notifyMinutes', { count: value });

  return (
    <SettingsPage
      title={t('settingsMain.title')}
      actions={
        <span className={page.hint} role="status" aria-live="polite">
          {change.isPending ? t('settingsMain.saving') : change.isSuccess ? t('settingsMain.saved') : ''}
        </span>
      }
    >
      <Group title={t('settingsMain.listGroup')}>
        <SelectSetting
          label={t('settingsMain.perPage')}
          hint={t('settingsMain.perPageHint')}
          value={String(settings.per_page)}
          options={withCurrent(PAGE_SIZES, settings.per_page).map((size) => ({
            value: String(size),
            label: t('settingsMain.perPageValue', { count: size }),
          }))}
          onChange={(value) => save({ per_page: Number(value) })}
        />
        {toggle('message_thread', 'messageThread')}
        {toggle('unread_first', 'unreadFirst')}
        {toggle('message_preview', 'messagePreview')}
        {toggle('slim_template', 'slimTemplate')}
        {toggle('slim_list_aliases', 'slimListAliases')}
      </Group>

      <Group title={t('settingsMain.readingGroup')}>{choice('image_display', imageDisplayValues)}</Group>

      <Group title={t('settingsMain.writingGroup')}>
        {choice('signature_add', signatureAddValues)}
        {toggle('signature_reply', 'signatureReply')}
        <SelectSetting
          label={t('settingsMain.undoSend')}
          hint={t('settingsMain.undoSendHint')}
          value={String(settings.undo_send_seconds)}
          options={UNDO_SEND_CHOICES.map((value) => ({
            value: String(value),
            label:
              value === 0
                ? t('settingsMain.undoSendOff')
                : t('settingsMain.undoSendSeconds', { count: value }),
          }))}
          onChange={(value) =>
            save({ undo_send_seconds: Number(value) as (typeof UNDO_SEND_CHOICES)[number] })
          }
        />
      </Group>

      <Group title={t('settingsMain.interfaceGroup')}>
        <SelectSetting
          label={t('settingsMain.language')}
          hint={t('settingsMain.languageHint')}
          value={settings.language ?? ''}
          options={[
            { value: '', label: t('settingsMain.languageAuto') },
            ...languageValues.map((value) => ({ value, label: t(`language.${value}`), lang: value })),
          ]}
          onChange={(value) => {
            const language = (value || null) as Language | null;
            save({ language });
            if (language) void setLanguage(language);
          }}
        />
        {choice('theme', themeValues)}
      </Group>

      <Group title={t('settingsMain.notifyGroup')}>
        <SelectSetting
          label={t('settingsMain.notify')}
          hint={t('settingsMain.notifyHint')}
          value={String(settings.notify_minutes)}
          options={withCurrent(NOTIFY_CHOICES, settings.notify_minutes).map((value) => ({
            value: String(value),
            label: minutes(value),
          }))}
          onChange={(value) => save({ notify_minutes: Number(value) })}
        />
      </Group>
    </SettingsPage>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className={page.group}>
      <legend className={page.groupTitle}>{title}</legend>
      {children}
    </fieldset>
  );
}

export function SwitchSetting({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  const id = useId();
  return (
    <div className={page.setting}>
      <label className={page.settingText} htmlFor={id}>
        <span>{label}</span>
        <span id={`${id}-hint`}>{hint}</span>
      </label>
      <SwitchInput id={id} checked={checked} aria-describedby={`${id}-hint`} onChange={onChange} />
    </div>
  );
}

function SelectSetting<V extends string>({
  label,
  hint,
  value,
  options,
  onChange,
}: {
  label: string;
  hint: string;
  value: V | string;
  options: readonly { value: V | string; label: string; lang?: string }[];
  onChange(value: V): void;
}) {
  const id = useId();
  return (
    <div className={page.setting}>
      <label className={page.settingText} htmlFor={id}>
        <span>{label}</span>
        <span id={`${id}-hint`}>{hint}</span>
      </label>
      <NativeSelect
        id={id}
        value={value}
        aria-describedby={`${id}-hint`}
        options={options}
        onChange={(next) => onChange(next as V)}
      />
    </div>
  );
}
