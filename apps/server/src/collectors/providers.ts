import type { ImapProvider, ImapServer, ProviderRequirement } from '@mailroom/protocol';

/**
 * The bundled table of the big mail providers (discovery's first step, issue 18): the domains of their addresses, the
 * IMAP server, what a mail program needs there (an app password, or OAuth only), the page where the user sets it up,
 * and the MX hosts of domains they host (a custom domain whose MX is aspmx.l.google.com is Google's).
 */
export interface KnownProvider {
  name: string;
  server: ImapServer;
  requires: ProviderRequirement | null;
  helpUrl: string | null;
  /** Address domains of the provider's own (lowercase). */
  domains: string[];
  /** MX host suffixes of the domains it hosts: a host equal to one or ending in ".<suffix>". */
  mxSuffixes: string[];
  /** IMAP host names of the provider's (for a collector created with the host given by hand). */
  imapHosts?: string[];
}

const tls = (host: string): ImapServer => ({ host, port: 993, security: 'tls' });

export const providers: readonly KnownProvider[] = [
  {
    name: 'Gmail',
    server: tls('imap.gmail.com'),
    requires: 'app_password',
    helpUrl: 'https://support.google.com/accounts/answer/185833',
    domains: ['gmail.com', 'googlemail.com'],
    mxSuffixes: ['google.com', 'googlemail.com'],
  },
  {
    name: 'Yandex',
    server: tls('imap.yandex.ru'),
    requires: 'app_password',
    helpUrl: 'https://yandex.ru/support/id/authorization/app-passwords.html',
    domains: [
      'yandex.ru',
      'yandex.com',
      'ya.ru',
      'yandex.by',
      'yandex.kz',
      'yandex.ua',
      'yandex.com.tr',
      'narod.ru',
    ],
    mxSuffixes: ['mx.yandex.ru', 'mx.yandex.net', 'yandex.ru', 'yandex.net'],
    imapHosts: ['imap.yandex.ru', 'imap.yandex.com'],
  },
  {
    name: 'Mail.ru',
    server: tls('imap.mail.ru'),
    requires: 'app_password',
    helpUrl: 'https://help.mail.ru/mail/security/protection/external',
    domains: ['mail.ru', 'inbox.ru', 'list.ru', 'bk.ru', 'internet.ru', 'mail.ua', 'vk.com'],
    mxSuffixes: ['mxs.mail.ru', 'emx.mail.ru', 'mail.ru'],
  },
  {
    name: 'Outlook',
    server: tls('outlook.office365.com'),
    // Microsoft turned off password sign-in (basic authentication) for mail programs in 2024–2025.
    requires: 'oauth',
    helpUrl:
      'https://support.microsoft.com/office/pop-imap-and-smtp-settings-for-outlook-com-d088b986-291d-42b8-9564-9c414e2aa040',
    domains: [
      'outlook.com',
      'outlook.ru',
      'hotmail.com',
      'hotmail.co.uk',
      'hotmail.fr',
      'hotmail.de',
      'hotmail.it',
      'live.com',
      'live.ru',
      'live.co.uk',
      'msn.com',
      'passport.com',
    ],
    mxSuffixes: ['protection.outlook.com', 'hotmail.com', 'outlook.com'],
    imapHosts: ['outlook.office365.com', 'imap-mail.outlook.com'],
  },
  {
    name: 'Yahoo',
    server: tls('imap.mail.yahoo.com'),
    requires: 'app_password',
    helpUrl: 'https://help.yahoo.com/kb/SLN15241.html',
    domains: [
      'yahoo.com',
      'ymail.com',
      'rocketmail.com',
      'yahoo.co.uk',
      'yahoo.fr',
      'yahoo.de',
      'yahoo.co.jp',
    ],
    mxSuffixes: ['yahoodns.net'],
  },
  {
    name: 'AOL',
    server: tls('imap.aol.com'),
    requires: 'app_password',
    helpUrl: 'https://help.aol.com/articles/Create-and-manage-app-password',
    domains: ['aol.com', 'aim.com'],
    mxSuffixes: [],
  },
  {
    name: 'iCloud',
    server: tls('imap.mail.me.com'),
    requires: 'app_password',
    helpUrl: 'https://support.apple.com/102654',
    domains: ['icloud.com', 'me.com', 'mac.com'],
    mxSuffixes: ['mail.icloud.com'],
  },
  {
    name: 'GMX',
    server: tls('imap.gmx.net'),
    requires: null,
    helpUrl: 'https://support.gmx.com/pop-imap/toggle.html',
    domains: ['gmx.net', 'gmx.de', 'gmx.at', 'gmx.ch', 'gmx.com', 'gmx.us', 'gmx.co.uk', 'gmx.fr'],
    mxSuffixes: ['gmx.net', 'gmx.com'],
    imapHosts: ['imap.gmx.net', 'imap.gmx.com'],
  },
  {
    name: 'WEB.DE',
    server: tls('imap.web.de'),
    requires: null,
    helpUrl: 'https://hilfe.web.de/pop-imap/imap/imap-serverdaten.html',
    domains: ['web.de'],
    mxSuffixes: ['web.de'],
  },
  {
    name: 'Rambler',
    server: tls('imap.rambler.ru'),
    requires: null,
    helpUrl: 'https://help.rambler.ru/mail/mail-pochtovye-klienty/',
    domains: ['rambler.ru', 'lenta.ru', 'autorambler.ru', 'myrambler.ru', 'ro.ru', 'rambler.ua'],
    mxSuffixes: ['rambler.ru'],
  },
  {
    name: 'Zoho Mail',
    server: tls('imap.zoho.com'),
    requires: null,
    helpUrl: 'https://www.zoho.com/mail/help/imap-access.html',
    domains: ['zoho.com', 'zohomail.com'],
    mxSuffixes: ['zoho.com', 'zoho.eu'],
  },
  {
    name: 'Fastmail',
    server: tls('imap.fastmail.com'),
    requires: 'app_password',
    helpUrl: 'https://www.fastmail.help/hc/en-us/articles/360058752854',
    domains: ['fastmail.com', 'fastmail.fm'],
    mxSuffixes: ['messagingengine.com'],
  },
];

const endsWithDomain = (host: string, suffix: string) => host === suffix || host.endsWith(`.${suffix}`);

/** The provider of an address's domain (its own domains only). */
export function providerForDomain(domain: string): KnownProvider | null {
  const d = domain.toLowerCase();
  return providers.find((p) => p.domains.includes(d)) ?? null;
}

/** The provider hosting a domain whose MX hosts are these, by the first MX host that is one of theirs. */
export function providerForMx(mxHosts: readonly string[]): KnownProvider | null {
  for (const host of mxHosts) {
    const h = host.toLowerCase().replace(/\.$/, '');
    const found = providers.find((p) => p.mxSuffixes.some((s) => endsWithDomain(h, s)));
    if (found) return found;
  }
  return null;
}

/** The provider whose IMAP server this host is (a collector created with the server given by hand). */
export function providerForImapHost(host: string): KnownProvider | null {
  const h = host.toLowerCase().replace(/\.$/, '');
  return providers.find((p) => (p.imapHosts ?? [p.server.host]).includes(h)) ?? null;
}

/** The contract's view of a provider. */
export function providerView(provider: KnownProvider): ImapProvider {
  return { name: provider.name, requires: provider.requires, help_url: provider.helpUrl };
}
