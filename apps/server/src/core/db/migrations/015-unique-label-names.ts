import { sql, type Kysely } from 'kysely';

/**
 * Label names are unique per account, in any case (label_already_exist). Labels named alike before this get a
 * number, the oldest keeping its name: 'work' beside 'Work' becomes 'work (2)', or the next number still free.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: number; account_id: number; name: string }>`
    select id, account_id, name from (
      select id, account_id, name,
        row_number() over (partition by account_id, lower(name) order by id) as position
      from labels
    ) named where position > 1 order by id
  `.execute(db);
  for (const row of rows) {
    for (let n = 2; ; n++) {
      const candidate = `${row.name} (${n})`;
      const taken = await sql`select 1 from labels
        where account_id = ${row.account_id} and lower(name) = lower(${candidate})`.execute(db);
      if (taken.rows.length > 0) continue;
      await sql`update labels set name = ${candidate} where id = ${row.id}`.execute(db);
      break;
    }
  }
  await sql`create unique index labels_account_name on labels (account_id, lower(name))`.execute(db);
}
