import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Config } from '../config.js';

/**
 * Cookie attributes. Framed by a host page (FRAME_ANCESTORS set), the cookie must be a
 * third-party one: SameSite=None; Secure; Partitioned. Otherwise SameSite=Lax.
 */
export function cookieOptions(config: Config, extra: CookieSerializeOptions = {}): CookieSerializeOptions {
  const embedded = config.frameAncestors.length > 0;
  return {
    path: '/',
    httpOnly: true,
    secure: embedded || config.publicUrl.startsWith('https:'),
    sameSite: embedded ? 'none' : 'lax',
    ...(embedded ? { partitioned: true } : {}),
    ...extra,
  };
}
