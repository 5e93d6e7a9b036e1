import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { apiError, testUser } from '../../test/fixtures';
import { fakeApi } from '../../test/fake-api';
import { renderAt, setUpScreenTests } from '../../test/render-app';

setUpScreenTests();

/** Nobody signed in; passwordSignIn takes one address with one password (its owner granted it). */
function serve() {
  const signIns: unknown[] = [];
  fakeApi(
    {
      passwordSignIn: ({ body }) => {
        const { email, password } = body as { email: string; password: string };
        signIns.push(body);
        if (email === 'ann.desk@mailroom.test' && password === 'desk password')
          return { user: { ...testUser, email, info: { alias: email } } };
        return apiError(401, 'incorrect_login_or_password', 'Incorrect address or password');
      },
    },
    { otherwise: () => apiError(401, 'invalid_auth_cookie', 'Unauthorized') },
  );
  return signIns;
}

describe('password access on the sign-in page (the alias-only user, SPEC §6)', () => {
  it('signs in to an address with its password; a wrong one is refused in words', async () => {
    const signIns = serve();
    renderAt('/login?noredirect=true');
    fireEvent.click(await screen.findByText('Sign in to an address with a password', {}, { timeout: 5_000 }));
    fireEvent.change(screen.getByLabelText('Address'), { target: { value: 'ann.desk@mailroom.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Incorrect address or password');

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'desk password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with password' }));
    await waitFor(() => expect(signIns).toHaveLength(2));
    // Signed in: the page loads /mail afresh (jsdom does not navigate), the form stays busy and shows no refusal.
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(screen.getByRole('button', { name: 'Sign in with password' }).hasAttribute('disabled')).toBe(true);
    expect(signIns).toEqual([
      { email: 'ann.desk@mailroom.test', password: 'wrong' },
      { email: 'ann.desk@mailroom.test', password: 'desk password' },
    ]);
  });
});
