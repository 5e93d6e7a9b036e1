import { describe, expect, it } from 'vitest';
import { SENDER_LISTS_MAX, type SendersResponse } from '@mailroom/protocol';
import { createTestApp } from '../_util.js';
import { mailUser } from '../_actions.js';
import { api } from '../_client.js';

/** Settings › Spam: the member's allow and block lists of senders (issue 30). */
const ctx = await createTestApp();

describe('allow and block lists of senders', () => {
  it('adds addresses and domains normalised, moves an entry between lists, and removes one', async () => {
    const ann = await mailUser(ctx);
    let answer = await api(ann.browser, 'addSenders', {
      body: { list: 'allow', entries: [' Boss@Example.ORG ', '@shop.example', '*.news.example'] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ added: 3 });
    answer = await api(ann.browser, 'addSenders', { body: { list: 'block', entries: ['shop.example'] } });
    expect(answer.body).toMatchObject({ added: 1 });
    const { senders } = (await api(ann.browser, 'senders')).body as SendersResponse;
    expect(Object.fromEntries(senders.map((s) => [s.entry, s.list]))).toEqual({
      'boss@example.org': 'allow',
      'shop.example': 'block',
      'news.example': 'allow',
    });
    expect((await api(ann.browser, 'deleteSender', { query: { entry: 'Shop.Example' } })).status).toBe(200);
    expect((await api(ann.browser, 'deleteSender', { query: { entry: 'shop.example' } })).code).toBe(
      'entity_not_found',
    );
  });

  it('refuses what is neither an address nor a domain, and nothing of the request is kept', async () => {
    const ann = await mailUser(ctx);
    for (const bad of ['not a domain', 'a@', '<script>@x.example', 'x'.repeat(300) + '.example'])
      expect(
        (await api(ann.browser, 'addSenders', { body: { list: 'block', entries: ['ok.example', bad] } }))
          .code,
      ).toBe('sender_entry_invalid');
    expect(((await api(ann.browser, 'senders')).body as SendersResponse).senders).toEqual([]);
  });

  it(`holds at most ${SENDER_LISTS_MAX} entries`, async () => {
    const ann = await mailUser(ctx);
    const entries = Array.from({ length: SENDER_LISTS_MAX }, (_, i) => `s${i}.example`);
    expect((await api(ann.browser, 'addSenders', { body: { list: 'block', entries } })).status).toBe(200);
    expect(
      (await api(ann.browser, 'addSenders', { body: { list: 'allow', entries: ['one.more.example'] } })).code,
    ).toBe('sender_lists_full');
  });

  it("puts the address book's addresses on the allow list", async () => {
    const ann = await mailUser(ctx);
    await api(ann.browser, 'createContact', {
      body: { name: 'Oleg', emails: ['oleg@example.org', 'OLEG@work.example'] },
    });
    const answer = await api(ann.browser, 'allowContacts');
    expect(answer.body).toMatchObject({ added: 2 });
    expect((answer.body as SendersResponse).senders.map((s) => s.entry).sort()).toEqual([
      'oleg@example.org',
      'oleg@work.example',
    ]);
  });

  it("one member's lists are theirs alone", async () => {
    const ann = await mailUser(ctx);
    const bob = await mailUser(ctx, 'Bob Stone');
    await api(ann.browser, 'addSenders', { body: { list: 'block', entries: ['spam.example'] } });
    expect(((await api(bob.browser, 'senders')).body as SendersResponse).senders).toEqual([]);
    expect((await api(bob.browser, 'deleteSender', { query: { entry: 'spam.example' } })).code).toBe(
      'entity_not_found',
    );
  });
});
