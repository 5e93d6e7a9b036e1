import { sql, type Kysely } from 'kysely';

/**
 * Contacts and groups (issue 15), owned by the contacts area.
 *
 * contacts: a person of an account's address book: name, surname, phone, date of birth, notes, and the vCard
 * properties the screen does not show (`vcard_properties`, jCard arrays such as ["org", {}, "text", "Example"]),
 * kept so an import followed by an export loses nothing. `search_text` is what a search matches: the lowercased
 * name, surname, every address and the phone, each word after a space, so "a word starting with q" is
 * `like '% q%'` (the trigram index serves it).
 * contact_emails: a contact's addresses in order, the first (position 0) the primary; `email` as written, for
 * display, `email_lower` for matching (a sender, an import, a suggestion); `name_lower`, the contact's "name
 * surname" lowercased, so a suggestion ranks an address by one row.
 * contact_groups: names unique per account in any case, as labels are; contact_group_members: who is in which.
 * correspondents: the addresses the account has written to (lowercased), how often and when last, kept by sending;
 * compose's suggestions rank by it and image_display 'correspondent' trusts them. Filled here from the mail already
 * in each account's Sent folder (its recipients are stored in `messages.addresses`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table contacts (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      name text not null,
      surname text not null default '',
      phone text not null default '',
      birthday date,
      notes text not null default '',
      vcard_properties jsonb not null default '[]',
      search_text text not null default '',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index contacts_account_order on contacts (account_id, lower(surname), lower(name), id);
    create index contacts_search on contacts using gin (search_text gin_trgm_ops);
    create table contact_emails (
      contact_id bigint not null references contacts (id) on delete cascade,
      account_id bigint not null references accounts (id) on delete cascade,
      position smallint not null,
      email text not null,
      email_lower text not null,
      name_lower text not null,
      primary key (contact_id, position)
    );
    create unique index contact_emails_contact_email on contact_emails (contact_id, email_lower);
    create index contact_emails_account_email on contact_emails (account_id, email_lower);
    create table contact_groups (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      name text not null,
      created_at timestamptz not null default now()
    );
    create unique index contact_groups_account_name on contact_groups (account_id, lower(name));
    create table contact_group_members (
      group_id bigint not null references contact_groups (id) on delete cascade,
      contact_id bigint not null references contacts (id) on delete cascade,
      primary key (group_id, contact_id)
    );
    create index contact_group_members_contact on contact_group_members (contact_id);
    create table correspondents (
      account_id bigint not null references accounts (id) on delete cascade,
      email text not null,
      name text not null default '',
      sent_count integer not null default 0,
      last_sent_at timestamptz not null,
      primary key (account_id, email)
    );
  `.execute(db);
  await sql`
    insert into correspondents (account_id, email, name, sent_count, last_sent_at)
    select m.account_id, lower(a.value->>'email'),
      coalesce((array_agg(a.value->>'name' order by coalesce(m.sent_at, m.received_at) desc))[1], ''),
      count(distinct m.id), max(coalesce(m.sent_at, m.received_at))
    from messages m
    join folders f on f.id = m.folder_id and f.system = 'sent'
    cross join lateral jsonb_array_elements(
      coalesce(m.addresses->'to', '[]'::jsonb) || coalesce(m.addresses->'cc', '[]'::jsonb)
        || coalesce(m.addresses->'bcc', '[]'::jsonb)
    ) a
    where jsonb_typeof(a.value) = 'object' and a.value->>'email' like '_%@_%' and length(a.value->>'email') <= 320
    group by m.account_id, lower(a.value->>'email')
  `.execute(db);
}
