import { describe, expect, it } from 'vitest';
import { Browser, createTestApp, freshPostgresDatabase, signUpAndSignIn } from '../_util.js';
import { createAccount } from '../_mail.js';
import { grantPasswordAccess } from '../../src/addresses/password-access.js';
import type { Db } from '../../src/core/db/index.js';
import { systemFolder } from '../../src/mailbox/index.js';
import { apiRequest, apiPath } from '../_client.js';

/**
 * Password guessing for one sign-in name from many source addresses: the per-IP limit alone
 * lets every guess through; the per-name throttle slows them, tells the owner, and never
 * keeps the owner out for good.
 */
const { app, db } = await createTestApp();

/** A distinct source address per attempt, as a botnet has. */
let nextHost = 1;
const anotherAddress = () => `10.${(nextHost >> 16) & 255}.${(nextHost >> 8) & 255}.${nextHost++ & 255}`;

async function inboxSubjects(database: Db, accountId: number): Promise<string[]> {
  const inbox = await systemFolder(database, accountId, 'inbox');
  const rows = await database
    .selectFrom('messages')
    .select('subject')
    .where('folder_id', '=', inbox.id)
    .execute();
  return rows.map((r) => r.subject ?? '');
}

/** Lets the throttle's wait run out, as time would. */
async function waitRunsOut(database: Db) {
  await database
    .updateTable('sign_in_throttles')
    .set({ blocked_until: new Date(Date.now() - 1000) })
    .execute();
}

async function deskAccess(database: Db = db) {
  const owner = await createAccount(database, 'Owner');
  const email = `desk-${owner.id}@mailroom.test`;
  await database.insertInto('aliases').values({ account_id: owner.id, email }).execute();
  await grantPasswordAccess(database, owner.id, email, 'desk-password');
  return { owner, email };
}

const passwordLogin = (browser: Browser, email: string, password: string, remoteAddress = anotherAddress()) =>
  apiRequest(browser, 'passwordSignIn', { body: { email, password }, remoteAddress });

describe('wrong passwords for one password-access address from many sources', () => {
  it('are slowed after a few, the right one waits too, the owner is told once, and it resets', async () => {
    const { owner, email } = await deskAccess();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++)
      statuses.push((await passwordLogin(new Browser(app), email, `guess-${i}`)).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));

    const refused = await passwordLogin(new Browser(app), email, 'desk-password');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.meta.i8s).toBe('too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // The notice is written beside the answer, not before it: wait for it (a loaded machine takes a while).
    const notices = async () =>
      (await inboxSubjects(db, owner.id)).filter((s) => s.includes('Wrong passwords'));
    await expect.poll(notices, { timeout: 10_000 }).toHaveLength(1);

    await waitRunsOut(db);
    const desk = new Browser(app);
    expect((await passwordLogin(desk, email, 'desk-password')).statusCode).toBe(200);
    // A success starts the count over: one typo is an ordinary wrong password again.
    expect((await passwordLogin(new Browser(app), email, 'typo')).statusCode).toBe(401);
  });

  it('sixty guesses sent at the same moment get no more checks than sixty in a row', async () => {
    const { email } = await deskAccess();
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => passwordLogin(new Browser(app), email, `guess-${i}`)),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(55);
  });

  it('the wait grows with each wrong password after the first few, up to a cap', async () => {
    const { email } = await deskAccess();
    const waits: number[] = [];
    for (let i = 0; i < 14; i++) {
      await waitRunsOut(db);
      const response = await passwordLogin(new Browser(app), email, `guess-${i}`);
      expect(response.statusCode).toBe(401);
      const row = await db
        .selectFrom('sign_in_throttles')
        .select(['blocked_until', 'last_failure_at'])
        .where('key', '=', `address:${email}`)
        .executeTakeFirstOrThrow();
      waits.push(Math.round((row.blocked_until.getTime() - row.last_failure_at.getTime()) / 1000));
    }
    expect(waits.slice(0, 4)).toEqual([0, 0, 0, 0]);
    for (let i = 5; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits[5]).toBeGreaterThan(waits[4]!);
    expect(waits.at(-1)).toBe(waits.at(-2));
    expect(waits.at(-1)).toBeLessThanOrEqual(15 * 60);
  });

  it('a browser that signed in to it before still gets in while strangers are held back', async () => {
    const { email } = await deskAccess();
    const desk = new Browser(app);
    expect((await passwordLogin(desk, email, 'desk-password')).statusCode).toBe(200);
    for (let i = 0; i < 30; i++) await passwordLogin(new Browser(app), email, `guess-${i}`);
    expect((await passwordLogin(new Browser(app), email, 'desk-password')).statusCode).toBe(429);
    expect((await passwordLogin(desk, email, 'desk-password')).statusCode).toBe(200);
  });
});

/** One try at the embedded provider's sign-in form, from a source address of its own. */
async function attempt(browser: Browser, memberId: string, password: string) {
  browser.remoteAddress = anotherAddress();
  const { url } = await browser.follow(apiPath('signIn', { query: { prompt: 'login' } }));
  const uid = new URL(url).pathname.split('/')[3]!;
  return browser.request('POST', `/idp/interaction/${uid}/login`, {
    form: { memberId, password },
    csrf: false,
  });
}

describe("wrong passwords for one member ID at the embedded provider's form", () => {
  it('are slowed after a few from any number of sources, and the member is told', async () => {
    const { memberId, browser: own } = await signUpAndSignIn(app, 'Ann Lee');
    const account = await db
      .selectFrom('accounts')
      .select('id')
      .where('member_id', '=', memberId)
      .executeTakeFirstOrThrow();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push((await attempt(new Browser(app), memberId, `guess-${i}`)).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    const held = await attempt(new Browser(app), memberId, 'correct horse');
    expect(held.statusCode).toBe(429);
    expect(held.body).toContain('Too many wrong passwords');
    expect((await inboxSubjects(db, account.id)).filter((s) => s.includes('Wrong passwords'))).toHaveLength(
      1,
    );
    // Her own browser, where she signed up, still signs in.
    own.cookies.delete('mr_sid');
    const mine = await attempt(own, memberId, 'correct horse');
    expect(mine.statusCode).toBe(303);
    const { url: landed } = await own.follow(String(mine.headers.location));
    expect(new URL(landed, 'http://mailroom.localhost').pathname).toBe('/mail');
    expect(own.cookies.has('mr_sid')).toBe(true);
  });
});

describe("a member ID nobody has, at the embedded provider's form", () => {
  it('gets the same answers as one that exists: wrong five times, then held back', async () => {
    const { memberId: known } = await signUpAndSignIn(app, 'Kim Known');
    // A well-formed member ID with no member (the form takes 12 digits).
    let unknown: string;
    do unknown = String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999));
    while (
      await db.selectFrom('idp_users').select('member_id').where('member_id', '=', unknown).executeTakeFirst()
    );
    const answers = async (memberId: string) => {
      const seen: { status: number; retryAfter: boolean; text: string }[] = [];
      for (let i = 0; i < 8; i++) {
        const response = await attempt(new Browser(app), memberId, `guess-${i}`);
        seen.push({
          status: response.statusCode,
          retryAfter: response.headers['retry-after'] !== undefined,
          // The page without the member ID it repeats and the interaction's own id.
          text: response.body.replaceAll(memberId, 'ID').replace(/interaction\/[^/"]+/g, 'interaction/X'),
        });
      }
      return seen;
    };
    const forKnown = await answers(known);
    const forUnknown = await answers(unknown);
    expect(forKnown.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(forUnknown).toEqual(forKnown);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('the throttle across processes on one PostgreSQL', () => {
  it('counts wrong passwords made at one process when another answers', async () => {
    const { db: shared } = await freshPostgresDatabase(process.env.DATABASE_URL!);
    const [one, two] = [await createTestApp({ db: shared }), await createTestApp({ db: shared })];
    const { email } = await deskAccess(shared);
    for (let i = 0; i < 5; i++)
      expect((await passwordLogin(new Browser(one.app), email, `guess-${i}`)).statusCode).toBe(401);
    expect((await passwordLogin(new Browser(two.app), email, 'desk-password')).statusCode).toBe(429);
  });
});
