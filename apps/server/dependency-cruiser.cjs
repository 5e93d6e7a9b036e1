/**
 * The server's layers (DESIGN §3, docs/ARCHITECTURE.md), held by `npm run lint`:
 *   core ← http ← mailbox ← accounts ← wallet ← addresses ← auth ← features ← app
 * Each area lists the areas it may import; everything else is refused. Another area is entered
 * only through its index.ts (core's parts through theirs), migrations import no live code, and no
 * module imports itself round a cycle. `rulesFor(root)` builds the same rules for a fixture tree.
 */
const areas = {
  // config.ts is read by every layer: it only parses the environment.
  core: { paths: ['core/', 'config\\.ts$'], may: [] },
  http: { paths: ['http/'], may: ['core'] },
  mailbox: { paths: ['mailbox/'], may: ['core'] },
  accounts: { paths: ['accounts/'], may: ['core', 'mailbox'] },
  // The provider's wallet: invoices and their ledger, the gateway (HTTP or the embedded sandbox), its webhook and page.
  wallet: { paths: ['wallet/'], may: ['core', 'http', 'mailbox', 'accounts'] },
  addresses: { paths: ['addresses/'], may: ['core', 'mailbox', 'accounts', 'wallet'] },
  auth: { paths: ['auth/'], may: ['core', 'http', 'mailbox', 'accounts', 'wallet', 'addresses'] },
  user: { paths: ['user/'], may: ['core', 'http', 'mailbox', 'accounts', 'wallet', 'addresses', 'auth'] },
  live: { paths: ['live/'], may: ['core', 'http', 'mailbox', 'accounts', 'wallet', 'addresses', 'auth'] },
  // The address book: contacts, groups, and the addresses the account has written to (which sending records and
  // mail's image_display 'correspondent' trusts).
  contacts: {
    paths: ['contacts/'],
    may: ['core', 'http', 'mailbox', 'accounts', 'wallet', 'addresses', 'auth'],
  },
  mail: {
    paths: ['mail/'],
    may: ['core', 'http', 'mailbox', 'accounts', 'wallet', 'addresses', 'auth', 'contacts'],
  },
  encrypted: {
    paths: ['encrypted/'],
    may: ['core', 'http', 'mailbox', 'accounts', 'wallet', 'addresses', 'auth', 'contacts', 'mail'],
  },
  // Sieve filters: the scripts, their run at delivery and over a folder; folders, labels and message actions
  // through mailbox (the store's operations).
  filters: {
    paths: ['filters/'],
    may: ['core', 'http', 'mailbox', 'accounts', 'wallet', 'addresses', 'auth', 'contacts'],
  },
  // Spam defence (issue 30): Rspamd's score and learning, the members' allow and block lists, where a checked message
  // goes, Junk's retention.
  spam: {
    paths: ['spam/'],
    may: ['core', 'http', 'mailbox', 'accounts', 'wallet', 'addresses', 'auth', 'contacts'],
  },
  delivery: {
    paths: ['delivery/'],
    may: [
      'core',
      'http',
      'mailbox',
      'accounts',
      'wallet',
      'addresses',
      'contacts',
      'encrypted',
      'filters',
      'spam',
    ],
  },
  sending: {
    paths: ['sending/'],
    may: [
      'core',
      'http',
      'mailbox',
      'accounts',
      'wallet',
      'addresses',
      'auth',
      'contacts',
      'mail',
      'encrypted',
      'filters',
      'spam',
      'delivery',
    ],
  },
  // The account's security (issue 16): the mailbox password and its codes, names, grants of impersonation and
  // BA-impersonation, switching into a shared mailbox (over auth's sessions and sign-in log).
  security: {
    paths: ['security/'],
    may: ['core', 'http', 'mailbox', 'accounts', 'wallet', 'addresses', 'auth'],
  },
  // Support requests: sent as mail to SUPPORT_EMAIL through sending.
  support: {
    paths: ['support/'],
    may: [
      'core',
      'http',
      'mailbox',
      'accounts',
      'wallet',
      'addresses',
      'auth',
      'contacts',
      'mail',
      'encrypted',
      'filters',
      'spam',
      'delivery',
      'sending',
    ],
  },
  // Collectors (issue 18): other IMAP mailboxes imported into the account — discovery, the collectors, the import job;
  // imported mail is stored through mailbox, and run through the filters only when the owner asks.
  collectors: {
    paths: ['collectors/'],
    may: [
      'core',
      'http',
      'mailbox',
      'accounts',
      'wallet',
      'addresses',
      'auth',
      'contacts',
      'mail',
      'encrypted',
      'filters',
      'spam',
      'delivery',
    ],
  },
  // Mail imports (issue 33): an mbox, an .eml, or a .zip or .tar.gz of .eml files brought into an account as a job,
  // stored through mailbox's ingest (filters only when the owner asks); the upload it starts from through sending.
  imports: {
    paths: ['imports/'],
    may: [
      'core',
      'http',
      'mailbox',
      'accounts',
      'wallet',
      'addresses',
      'auth',
      'contacts',
      'mail',
      'encrypted',
      'filters',
      'spam',
      'delivery',
      'sending',
    ],
  },
  // The process: wires every area together (web-app/ serves the built app, reading the API in-process for its first screen).
  app: { paths: ['app\\.ts$', 'main\\.ts$', 'cli\\.ts$', 'admin/', 'web-app/'], may: '*' },
};

/** What another area may import of this one: its index.ts (core: each part's index.ts and its single files). */
const entries = {
  core: ['core/[^/]+/index\\.ts$', 'core/[^/]+\\.ts$', 'config\\.ts$'],
  app: [],
};

function rulesFor(root) {
  const at = (p) => `^${root}/${p}`;
  const names = Object.keys(areas);
  const rules = [];
  for (const name of names) {
    const area = areas[name];
    if (area.may === '*') continue;
    const refused = names.filter((other) => other !== name && !area.may.includes(other));
    if (!refused.length) continue;
    rules.push({
      name: `layers-${name}`,
      comment: `${name} may import only ${area.may.join(', ') || 'nothing else'} (DESIGN §3)`,
      severity: 'error',
      from: { path: area.paths.map(at) },
      to: { path: refused.flatMap((other) => areas[other].paths.map(at)) },
    });
  }
  for (const name of names) {
    const own = areas[name].paths.map(at);
    const entry = (entries[name] ?? [`${name}/index\\.ts$`]).map(at);
    rules.push({
      name: `entry-${name}`,
      comment: `other areas import ${name} only through its index.ts`,
      severity: 'error',
      from: { pathNot: own },
      to: { path: own, pathNot: entry.length ? entry : undefined },
    });
  }
  // Inside core each part (db, blobs, events, jobs) is an area of its own.
  rules.push({
    name: 'entry-core-parts',
    comment: "core's parts import each other only through index.ts",
    severity: 'error',
    from: { path: at('core/([^/]+)/') },
    to: { path: at('core/[^/]+/'), pathNot: [at('core/$1/'), at('core/[^/]+/index\\.ts$')] },
  });
  rules.push({
    name: 'frozen-migrations',
    comment: 'a migration never changes after it ships: it carries its own code and imports none of ours',
    severity: 'error',
    from: { path: at('core/db/migrations/') },
    to: { path: `^${root}/`, pathNot: at('core/db/migrations/') },
  });
  rules.push({
    name: 'no-cycle',
    comment: 'modules import one another without cycles',
    severity: 'error',
    from: { path: `^${root}/` },
    to: { circular: true },
  });
  return rules;
}

module.exports = {
  forbidden: rulesFor('apps/server/src'),
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
  },
};

// For the test of these rules (dependency-rules.test.ts); not part of the configuration itself.
Object.defineProperty(module.exports, 'layers', { value: { areas, rulesFor }, enumerable: false });
