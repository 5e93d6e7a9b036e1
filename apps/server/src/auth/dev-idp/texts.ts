import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, type Language, type PassportLevel } from '@mailroom/protocol';

/** The embedded provider's pages in the app's languages (the web app's own texts live in apps/web). */
const en = {
  brand: 'Mailroom ID',
  signInTitle: 'Sign in',
  signInSub: 'Mailroom development identity provider',
  memberId: 'Member ID',
  memberIdPlaceholder: '12 digits',
  password: 'Password',
  signInButton: 'Sign in',
  noMemberId: 'No member ID yet?',
  createOne: 'Create one',
  wrongCredentials: 'Wrong member ID or password',
  signUpTitle: 'Sign up',
  signUpHeading: 'Create a member ID',
  signUpSub: 'You get a fresh 12-digit member ID and a mailbox.',
  name: 'Name',
  signUpButton: 'Sign up',
  haveOne: 'Already have one?',
  passportLevel: 'Passport level',
  passportLevelHint:
    'For trying Mailroom out: the identity check a real provider would have done. Aliases need formal or more.',
  passportLevels: {
    none: 'None',
    formal: 'Formal',
    verified: 'Verified',
    full: 'Full',
  } as Record<PassportLevel, string>,
  pickPassportLevel: 'Pick a passport level',
  enterName: 'Enter your name',
  passwordTooShort: 'Use at least 6 characters for the password',
  signUpFailed: 'The member ID could not be created, please try again',
  welcomeTitle: 'Welcome',
  welcomeHeading: 'Welcome to Mailroom',
  welcomeSub: 'Your member ID — keep it, you sign in with it:',
  copy: 'Copy member ID',
  copied: 'Copied',
  continue: 'Continue',
  errorTitle: 'Error',
  errorHeading: 'Something went wrong',
  backToMailroom: 'Back to Mailroom',
  linkExpired: 'This sign-in link has expired. Go back to Mailroom and sign in again.',
  signOutTitle: 'Sign out',
  signOutHeading: 'Sign out of Mailroom?',
  signOutText: 'To sign in again you will need your member ID and password.',
  signOutButton: 'Sign out',
  staySignedIn: 'Stay signed in',
  signingOut: 'Signing you out…',
  signedOutTitle: 'Signed out',
  signedOutHeading: 'You are signed out',
  language: 'Language',
  tooManyWrong: 'Too many wrong passwords for this member ID. Try again in {minutes} min.',
};

export type IdpTexts = typeof en;

const ru: IdpTexts = {
  brand: 'Mailroom ID',
  signInTitle: 'Вход',
  signInSub: 'Поставщик удостоверений Mailroom для разработки',
  memberId: 'ID участника',
  memberIdPlaceholder: '12 цифр',
  password: 'Пароль',
  signInButton: 'Войти',
  noMemberId: 'Ещё нет ID участника?',
  createOne: 'Создать',
  wrongCredentials: 'Неверный ID участника или пароль',
  signUpTitle: 'Регистрация',
  signUpHeading: 'Создать ID участника',
  signUpSub: 'Вы получите новый 12-значный ID участника и почтовый ящик.',
  name: 'Имя',
  signUpButton: 'Зарегистрироваться',
  haveOne: 'Уже есть ID участника?',
  passportLevel: 'Уровень паспорта',
  passportLevelHint:
    'Для пробы Mailroom: проверка личности, которую сделал бы настоящий поставщик. Для алиасов нужен формальный или выше.',
  passportLevels: {
    none: 'Нет',
    formal: 'Формальный',
    verified: 'Проверенный',
    full: 'Полный',
  },
  pickPassportLevel: 'Выберите уровень паспорта',
  enterName: 'Введите имя',
  passwordTooShort: 'Пароль должен быть не короче 6 символов',
  signUpFailed: 'Не удалось создать ID участника, попробуйте ещё раз',
  welcomeTitle: 'Добро пожаловать',
  welcomeHeading: 'Добро пожаловать в Mailroom',
  welcomeSub: 'Ваш ID участника — сохраните его, с ним вы входите:',
  copy: 'Скопировать ID участника',
  copied: 'Скопировано',
  continue: 'Продолжить',
  errorTitle: 'Ошибка',
  errorHeading: 'Что-то пошло не так',
  backToMailroom: 'Вернуться в Mailroom',
  linkExpired: 'Ссылка для входа устарела. Вернитесь в Mailroom и войдите снова.',
  signOutTitle: 'Выход',
  signOutHeading: 'Выйти из Mailroom?',
  signOutText: 'Чтобы войти снова, понадобятся ID участника и пароль.',
  signOutButton: 'Выйти',
  staySignedIn: 'Остаться',
  signingOut: 'Выполняется выход…',
  signedOutTitle: 'Вы вышли',
  signedOutHeading: 'Вы вышли из Mailroom',
  language: 'Язык',
  tooManyWrong:
    'Слишком много неверных паролей для этого ID участника. Попробуйте снова через {minutes} мин.',
};

export const idpTexts: Record<Language, IdpTexts> = { en, ru };

const supported = (value: string | undefined | null): Language | undefined => {
  const lang = value?.trim().slice(0, 2).toLowerCase();
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(lang ?? '') ? (lang as Language) : undefined;
};

export interface LanguageSources {
  /** `lang` of the page's query, or of its form */
  query?: string | null;
  /** ui_locales of the authorization request (space-separated, in order of preference) */
  uiLocales?: string | null;
  /** the app's `lang` cookie */
  cookie?: string | null;
  /** the Accept-Language header */
  acceptLanguage?: string | null;
}

/**
 * Like the app (SPEC §9): the page's `lang` overrides; then the language the app showed when it sent the browser
 * here (ui_locales: its `lang` or its cookie), the language cookie, the browser's first language, else English.
 */
export function pickLanguage(sources: LanguageSources): Language {
  const candidates = [
    sources.query,
    ...(sources.uiLocales ?? '').split(/\s+/),
    sources.cookie,
    // The browser's first language, as the app takes navigator.language.
    (sources.acceptLanguage ?? '').split(',')[0]?.split(';')[0],
  ];
  for (const candidate of candidates) {
    const lang = supported(candidate);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}
