import { describe, expect, it } from 'vitest';
import type { MailEvent, Profile } from '@mailroom/protocol';
import { grantPasswordAccess } from '../../src/addresses/index.js';
import { Browser, createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { LiveClient, listenWs } from '../_ws.js';
import { api, apiCall, apiRequest, type RouteCall } from '../_client.js';

const ctx = await createTestApp();
const wsUrl = await listenWs(ctx.app);

/** A signed-in user with an alias, and the profile made at sign-up. */
async function userWithAlias(name: string) {
  const user = await mailUser(ctx, name);
  const alias = await ctx.db
    .insertInto('aliases')
    .values({ account_id: user.accountId, email: `Desk-${user.accountId}@mailroom.test` })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
  const profiles = (await api(user.browser, 'account')).body.profiles as Profile[];
  expect(profiles).toHaveLength(1);
  return { ...user, alias, first: profiles[0]! };
}

async function profilesOf(user: MailUser): Promise<Profile[]> {
  return (await api(user.browser, 'account')).body.profiles;
}

const defaults = (profiles: Profile[]) => profiles.filter((p) => p.default).map((p) => p.id);

describe('profiles: created', () => {
  it('sign-up makes one default profile on the primary address', async () => {
    const ann = await userWithAlias('Ann Profiles');
    expect(ann.first).toMatchObject({ name: 'Ann Profiles', email: ann.email, signature: '', default: true });
  });

  it('a profile on an alias is added after the default, with its display name and signature', async () => {
    const ann = await userWithAlias('Ann Alias');
    const { status, body } = await api(ann.browser, 'createProfile', {
      body: {
        name: ' Support desk ',
        email: ann.alias.email.toLowerCase(),
        signature: '<p>Kind regards,<br><strong>Support</strong></p>',
      },
    });
    expect(status).toBe(200);
    expect(body.profiles).toHaveLength(2);
    expect(body.profiles[0]).toEqual(ann.first);
    // The address as the account has it, whatever the case it was typed in.
    expect(body.profiles[1]).toMatchObject({
      name: 'Support desk',
      email: ann.alias.email,
      signature: '<p>Kind regards,<br /><strong>Support</strong></p>',
      default: false,
    });
    expect(await profilesOf(ann)).toEqual(body.profiles);
  });

  it('a new default profile takes the default from the old one: exactly one default, listed first', async () => {
    const bob = await userWithAlias('Bob Default');
    const { body } = await api(bob.browser, 'createProfile', {
      body: {
        name: 'Bob at the desk',
        email: bob.alias.email,
        signature: '<p>Bob</p>',
        default: true,
      },
    });
    expect(body.profiles[0]).toMatchObject({ name: 'Bob at the desk', default: true });
    expect(body.profiles[1]).toMatchObject({ id: bob.first.id, default: false });
    expect(defaults(body.profiles)).toHaveLength(1);
  });

  it('several profiles may share an address (one address, two names)', async () => {
    const cat = await userWithAlias('Cat Twice');
    const { status, body } = await api(cat.browser, 'createProfile', {
      body: {
        name: 'Cat, formally',
        email: cat.email,
      },
    });
    expect(status).toBe(200);
    expect(body.profiles.map((p: Profile) => p.email)).toEqual([cat.email, cat.email]);
  });

  it('an address the account may not send from is refused with failed_validation_email_address', async () => {
    const dan = await userWithAlias('Dan Foreign');
    const other = await mailUser(ctx, 'Other Owner');
    for (const email of [other.email, 'someone@example.com', 'not an address', '']) {
      const { status, body } = await api(dan.browser, 'createProfile', { body: { name: 'X', email } });
      expect(status, email).toBe(400);
      expect(body.error.meta.i8s, email).toBe('failed_validation_email_address');
    }
    expect(await profilesOf(dan)).toEqual([dan.first]);
  });

  it.each([
    [{ name: 'No address' }],
    [{ name: 'x'.repeat(201), email: 'a@b.c' }],
    [{ name: 'Long', email: 'a@b.c', signature: 'x'.repeat(65_537) }],
    [{ name: 'Flag', email: 'a@b.c', default: 'yes' }],
    [{ name: 3, email: 'a@b.c' }],
    ['a string'],
  ])('a bad body %# is refused with invalid_request_params', async (body) => {
    const eve = await mailUser(ctx, 'Eve Bodies');
    const answer = await api(eve.browser, 'createProfile', { body: body });
    expect(answer.status).toBe(400);
    expect(answer.body.error.meta.i8s).toBe('invalid_request_params');
  });
});

describe('profiles: the signature is sanitised on save', () => {
  it('keeps formatting, links and https or inline images; drops scripts, handlers, styles that load, plain-http images', async () => {
    const fay = await userWithAlias('Fay Signature');
    const { body } = await api(fay.browser, 'createProfile', {
      body: {
        name: 'Fay',
        email: fay.email,
        signature:
          '<p style="color: #336699; position: fixed; background-image: url(https://t.example/x)">Fay ' +
          '<em>Lee</em> <a href="https://fay.example" onclick="steal()">site</a> ' +
          '<a href="javascript:alert(1)">bad</a></p>' +
          '<script>alert(1)</script><style>p{}</style><iframe src="https://x.example"></iframe>' +
          '<img src="https://fay.example/logo.png" alt="logo" onerror="x()">' +
          '<img src="http://tracker.example/p.gif"><img src="cid:logo@fay"><img src="data:image/png;base64,AAAA">' +
          '<form><input value="pw"></form><ul><li>one</li></ul>',
      },
    });
    const signature: string = body.profiles[1].signature;
    expect(signature).toBe(
      '<p style="color:#336699">Fay <em>Lee</em> ' +
        '<a href="https://fay.example" target="_blank" rel="noopener noreferrer">site</a> ' +
        '<a target="_blank" rel="noopener noreferrer">bad</a></p>' +
        '<img src="https://fay.example/logo.png" alt="logo" /><img src="cid:logo@fay" /><ul><li>one</li></ul>',
    );
  });
});

describe('profiles: changed', () => {
  it('an update changes only the fields given', async () => {
    const gus = await userWithAlias('Gus Update');
    const created = await api(gus.browser, 'createProfile', {
      body: {
        name: 'Gus',
        email: gus.email,
        signature: '<p>old</p>',
      },
    });
    const id = created.body.profiles[1].id;
    const renamed = await api(gus.browser, 'updateProfile', { params: { id }, body: { name: 'Gus B.' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.profiles[1]).toEqual({
      id,
      name: 'Gus B.',
      email: gus.email,
      signature: '<p>old</p>',
      default: false,
    });
    const moved = await api(gus.browser, 'updateProfile', {
      params: { id },
      body: {
        email: gus.alias.email,
        signature: '<p onclick="x()">new</p>',
      },
    });
    expect(moved.body.profiles[1]).toMatchObject({ email: gus.alias.email, signature: '<p>new</p>' });
    const refused = await api(gus.browser, 'updateProfile', {
      params: { id },
      body: {
        email: 'elsewhere@example.com',
      },
    });
    expect(refused.body.error.meta.i8s).toBe('failed_validation_email_address');
  });

  it('making a profile the default takes it from the other in one step; the default cannot be unset', async () => {
    const hal = await userWithAlias('Hal Default');
    const { body } = await api(hal.browser, 'createProfile', {
      body: {
        name: 'Desk',
        email: hal.alias.email,
      },
    });
    const desk = body.profiles[1].id;
    const made = await api(hal.browser, 'updateProfile', { params: { id: desk }, body: { default: true } });
    expect(defaults(made.body.profiles)).toEqual([desk]);
    expect(made.body.profiles[0].id).toBe(desk);
    // Again: still one default.
    const again = await api(hal.browser, 'updateProfile', { params: { id: desk }, body: { default: true } });
    expect(defaults(again.body.profiles)).toEqual([desk]);
    const unset = await api(hal.browser, 'updateProfile', { params: { id: desk }, body: { default: false } });
    expect(unset.status).toBe(400);
    expect(unset.body.error.meta.i8s).toBe('invalid_request_params');
  });

  it('many defaults set at once still leave exactly one default', async () => {
    const ida = await userWithAlias('Ida Race');
    const ids = [ida.first.id];
    for (const name of ['A', 'B', 'C'])
      ids.push(
        (await api(ida.browser, 'createProfile', { body: { name, email: ida.email } })).body.profiles.at(-1)
          .id,
      );
    const answers = await Promise.all(
      ids.map((id) => api(ida.browser, 'updateProfile', { params: { id }, body: { default: true } })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(defaults(await profilesOf(ida))).toHaveLength(1);
  });
});

describe('profiles: deleted', () => {
  it('deleting the default makes the oldest remaining profile the default; the last one stays', async () => {
    const jo = await userWithAlias('Jo Delete');
    const second = (
      await api(jo.browser, 'createProfile', { body: { name: 'Second', email: jo.alias.email } })
    ).body.profiles.at(-1).id;
    const third = (
      await api(jo.browser, 'createProfile', { body: { name: 'Third', email: jo.email, default: true } })
    ).body.profiles[0].id;
    const afterDefault = await api(jo.browser, 'deleteProfile', { params: { id: third } });
    expect(afterDefault.status).toBe(200);
    expect(afterDefault.body.profiles.map((p: Profile) => [p.id, p.default])).toEqual([
      [jo.first.id, true],
      [second, false],
    ]);
    const plain = await api(jo.browser, 'deleteProfile', { params: { id: second } });
    expect(plain.body.profiles.map((p: Profile) => p.id)).toEqual([jo.first.id]);
    const last = await api(jo.browser, 'deleteProfile', { params: { id: jo.first.id } });
    expect(last.status).toBe(400);
    expect(last.body.error.meta.i8s).toBe('invalid_request_params');
    expect(await profilesOf(jo)).toEqual([jo.first]);
  });
});

describe('profiles: ids', () => {
  it("another account's profile is profile_not_found (404) and stays as it was", async () => {
    const kim = await userWithAlias('Kim Owner');
    const lou = await userWithAlias('Lou Other');
    const theirs = kim.first.id;
    for (const call of [
      ['updateProfile', { params: { id: theirs }, body: { name: 'Hijacked' } }],
      ['updateProfile', { params: { id: theirs }, body: { default: true } }],
      ['deleteProfile', { params: { id: theirs } }],
    ] satisfies RouteCall[]) {
      const answer = await apiCall(lou.browser, call);
      expect(answer.status).toBe(404);
      expect(answer.body.error.meta.i8s).toBe('profile_not_found');
      expect(JSON.stringify(answer.body)).not.toContain('Kim');
    }
    const unknown = await api(lou.browser, 'updateProfile', {
      params: { id: 999999999 },
      body: { name: 'x' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.meta.i8s).toBe('profile_not_found');
    expect(await profilesOf(kim)).toEqual([kim.first]);
  });

  it.each(['abc', '0', '-1', '1.5', '1e3', '9999999999999999'])(
    'a malformed id %s is request_profile_id_error (400)',
    async (id) => {
      const mo = await mailUser(ctx, 'Mo Ids');
      for (const call of [
        ['updateProfile', { params: { id }, body: { name: 'x' } }],
        ['deleteProfile', { params: { id } }],
      ] satisfies RouteCall[]) {
        const answer = await apiCall(mo.browser, call);
        expect(answer.status).toBe(400);
        expect(answer.body.error.meta.i8s).toBe('request_profile_id_error');
      }
    },
  );
});

describe('profiles: the owner’s alone', () => {
  it('a password-access session cannot create, change or delete profiles, and sees only its address', async () => {
    const ned = await userWithAlias('Ned Desk');
    const aliasProfile = (
      await api(ned.browser, 'createProfile', { body: { name: 'Desk', email: ned.alias.email } })
    ).body.profiles.at(-1) as Profile;
    await grantPasswordAccess(ctx.db, ned.accountId, ned.alias.email, 'desk-password');
    const desk = new Browser(ctx.app);
    await apiRequest(desk, 'passwordSignIn', { body: { email: ned.alias.email, password: 'desk-password' } });
    for (const call of [
      ['createProfile', { body: { name: 'Mine', email: ned.alias.email } }],
      ['updateProfile', { params: { id: aliasProfile.id }, body: { name: 'Renamed' } }],
      ['deleteProfile', { params: { id: ned.first.id } }],
    ] satisfies RouteCall[]) {
      const answer = await apiCall(desk, call);
      expect(answer.status, call[0]).toBe(403);
      expect(answer.body.error.meta.i8s).toBe('forbidden');
    }
    expect((await api(desk, 'account')).body.profiles).toEqual([aliasProfile]);
    expect(await profilesOf(ned)).toEqual([ned.first, aliasProfile]);
  });

  it('signed out, the profile routes answer 401', async () => {
    const stranger = new Browser(ctx.app);
    expect((await api(stranger, 'createProfile', { body: { name: 'x', email: 'a@b.c' } })).status).toBe(401);
    expect((await api(stranger, 'deleteProfile', { params: { id: 1 } })).status).toBe(401);
  });
});

describe('profiles: the owner’s other tabs are told', () => {
  it('create, update and delete each reach a second socket as updateAccount profiles', async () => {
    const oz = await userWithAlias('Oz Live');
    const other = await LiveClient.open(wsUrl, { token: oz.browser.cookies.get('mr_sid') });
    await other.greet();
    const from = other.frames.length;
    const id = (
      await api(oz.browser, 'createProfile', { body: { name: 'Live', email: oz.email } })
    ).body.profiles.at(-1).id;
    await api(oz.browser, 'updateProfile', { params: { id }, body: { name: 'Live 2' } });
    await api(oz.browser, 'deleteProfile', { params: { id } });
    const told: MailEvent = { event: 'updateAccount', part: 'profiles' };
    expect(await other.events(from, 3)).toEqual([told, told, told]);
  });

  it('a refused change tells nobody', async () => {
    const pat = await userWithAlias('Pat Quiet');
    const other = await LiveClient.open(wsUrl, { token: pat.browser.cookies.get('mr_sid') });
    await other.greet();
    const from = other.frames.length;
    await api(pat.browser, 'createProfile', { body: { name: 'x', email: 'far@example.com' } });
    await api(pat.browser, 'deleteProfile', { params: { id: pat.first.id } });
    // A change that succeeds afterwards is the next event.
    await api(pat.browser, 'updateProfile', { params: { id: pat.first.id }, body: { name: 'Pat' } });
    expect(await other.events(from, 1)).toEqual([{ event: 'updateAccount', part: 'profiles' }]);
    expect(other.frames.length).toBe(from + 1);
  });
});

describe('labels: the owner’s other tabs are told', () => {
  it('creating, recolouring and deleting a label reach a second socket as updateAccount labels', async () => {
    const quin = await mailUser(ctx, 'Quin Labels');
    const other = await LiveClient.open(wsUrl, { token: quin.browser.cookies.get('mr_sid') });
    await other.greet();
    const from = other.frames.length;
    const { body } = await api(quin.browser, 'createLabel', {
      body: {
        label: { name: 'Bills', search_content: 'invoice' },
      },
    });
    await api(quin.browser, 'updateLabel', {
      params: { id: body.label.id },
      body: { label: { color: '#1c7ed6' } },
    });
    await api(quin.browser, 'deleteLabel', { params: { id: body.label.id } });
    const told: MailEvent = { event: 'updateAccount', part: 'labels' };
    expect(await other.events(from, 3)).toEqual([told, told, told]);
  });
});
