import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@mailroom/protocol';

/**
 * The first rule a pair of passwords breaks before anything is sent (SPEC §5: passwords must match), or null. The
 * password access of an alias and of an address on an own domain follow the same rules.
 */
export function passwordPairProblem(password: string, confirm: string): string | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'password_too_short';
  if ([...password].length > PASSWORD_MAX_LENGTH) return 'password_too_long';
  if (password !== confirm) return 'passwords_do_not_match';
  return null;
}
