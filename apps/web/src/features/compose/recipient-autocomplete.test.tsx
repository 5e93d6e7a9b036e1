import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { COMPOSE_MODE, type AccessResponse, type Suggestion } from '@mailroom/protocol';
import { Providers } from '../../app/providers';
import { createQueryClient } from '../../app/query-client';
import { sessionQueries } from '../account/queries';
import { json, testAccount, testUser } from '../../test/fixtures';
import { fakeApi } from '../../test/fake-api';
import { useCompose } from './compose-store';
import ComposeWindow from './compose-window';

const anna: Suggestion = { kind: 'contact', contact_id: 1, name: 'Анна Петрова', email: 'anna@example.org' };
const pavel: Suggestion = { kind: 'recent', name: 'Pavel', email: 'pavel@example.net' };
const team: Suggestion = {
  kind: 'group',
  group_id: 5,
  name: 'Petrov family',
  members: [
    { name: 'Анна Петрова', email: 'anna@example.org' },
    { name: 'Oleg Petrov', email: 'oleg@example.org' },
  ],
};

/** The suggest route answering from `answers` by q; each request (its query and signal) is kept. */
function serve(answers: Record<string, Suggestion[]>, hold: Set<string> = new Set()) {
  return fakeApi(
    {
      suggestContacts: ({ query, signal }) => {
        const q = query.q ?? '';
        if (hold.has(q))
          return new Promise<Response>((_, reject) =>
            signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          );
        return { suggestions: answers[q] ?? [] };
      },
    },
    { otherwise: () => json({ suggestions: [] }) },
  ).calls;
}

function renderCompose(user: AccessResponse = testUser) {
  const client = createQueryClient();
  client.setQueryData(sessionQueries.account().queryKey, testAccount());
  client.setQueryData(sessionQueries.access().queryKey, user);
  act(() => useCompose.getState().openCompose({ mode: COMPOSE_MODE.NEW }));
  return render(
    <Providers queryClient={client}>
      <ComposeWindow />
    </Providers>,
  );
}

async function typeInTo(text: string) {
  await screen.findByRole('dialog', { name: 'New message' });
  const field = screen.getByLabelText('To', { selector: 'input' });
  fireEvent.focus(field);
  fireEvent.change(field, { target: { value: text } });
  return field;
}

const tagsOf = (field: string) =>
  within(screen.getByRole('list', { name: field }))
    .queryAllByRole('listitem')
    .map((item) => [item.textContent, item.getAttribute('title')]);

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => useCompose.getState().closeCompose());
});

describe('recipient autocomplete in compose', () => {
  it('asks once typing pauses, lists contacts and correspondents, and Enter picks the highlighted one', async () => {
    const asked = serve({ Pe: [anna, pavel] });
    renderCompose();
    const field = await typeInTo('P');
    fireEvent.change(field, { target: { value: 'Pe' } });
    const list = await screen.findByRole('listbox', { name: 'Suggestions' });
    expect(asked.map((request) => [request.route, request.query])).toEqual([
      ['suggestContacts', { q: 'Pe', limit: '10' }],
    ]);
    const options = within(list).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Анна Петроваanna@example.org',
      'Pavelpavel@example.net · Written to',
    ]);
    expect(field.getAttribute('role')).toBe('combobox');
    expect(field.getAttribute('aria-expanded')).toBe('true');
    expect(field.getAttribute('aria-activedescendant')).toBe(options[0]!.id);

    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(field.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(field.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    fireEvent.keyDown(field, { key: 'Enter' });

    expect(tagsOf('To')).toEqual([['Анна Петрова', 'anna@example.org']]);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect((field as HTMLInputElement).value).toBe('');
  });

  it('a group picked with the mouse adds every member; Tab picks too; the same address is not added twice', async () => {
    serve({ Pet: [team], An: [anna] });
    renderCompose();
    const field = await typeInTo('An');
    await screen.findByRole('option', { name: /Анна Петрова/ });
    fireEvent.keyDown(field, { key: 'Tab' });
    fireEvent.change(field, { target: { value: 'Pet' } });
    const group = await screen.findByRole('option', { name: /Petrov family/ });
    expect(group.textContent).toBe('Petrov familyGroup · 2');
    fireEvent.mouseDown(group);
    expect(tagsOf('To').map(([, title]) => title)).toEqual(['anna@example.org', 'oleg@example.org']);
  });

  it('cancels the request for text typed over before its answer came', async () => {
    const asked = serve({ Pe: [anna] }, new Set(['P']));
    renderCompose();
    const field = await typeInTo('P');
    await waitFor(() => expect(asked).toHaveLength(1));
    fireEvent.change(field, { target: { value: 'Pe' } });
    await screen.findByRole('option', { name: /Анна Петрова/ });
    expect(asked.map((request) => [request.route, request.query])).toEqual([
      ['suggestContacts', { q: 'P', limit: '10' }],
      ['suggestContacts', { q: 'Pe', limit: '10' }],
    ]);
    expect(asked[0]!.signal?.aborted).toBe(true);
  });

  it('Escape closes the list and leaves compose open; typed text is still committed on Enter', async () => {
    serve({ 'bob@example.org': [], Pe: [anna] });
    renderCompose();
    const field = await typeInTo('Pe');
    await screen.findByRole('listbox', { name: 'Suggestions' });
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'New message' })).toBeTruthy();
    fireEvent.change(field, { target: { value: 'bob@example.org' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(tagsOf('To')).toEqual([['bob@example.org', 'bob@example.org']]);
  });

  it('offers nothing to an alias-only session (SPEC §6)', async () => {
    const asked = serve({ Pe: [anna] });
    renderCompose({ ...testUser, info: { alias: 'ann.work@mailroom.test' } });
    const field = await typeInTo('Pe');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(asked).toEqual([]);
    expect(field.getAttribute('role')).toBeNull();
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
