import { isFramed } from './frame';

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const raw = part.slice(index + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  secure?: boolean;
}

/**
 * In a host page's frame of another site, a SameSite=Lax cookie is neither kept nor sent: there the cookie is a
 * third-party one, SameSite=None; Secure; Partitioned, like the server's (http/cookies.ts).
 */
function sameSite(): string {
  return isFramed() && canSetSecureCookie() ? 'SameSite=None; Secure; Partitioned' : 'SameSite=Lax';
}

export function writeCookie(name: string, value: string, options: CookieOptions = {}): void {
  const attributes = sameSite();
  let cookie = `${name}=${encodeURIComponent(value)}; path=/; ${attributes}`;
  if (options.maxAgeSeconds !== undefined) cookie += `; max-age=${options.maxAgeSeconds}`;
  // Browsers drop a Secure cookie set from plain http (other than localhost), so only ask for it where it sticks.
  if (options.secure && canSetSecureCookie() && !attributes.includes('Secure')) cookie += '; Secure';
  document.cookie = cookie;
}

export function deleteCookie(name: string): void {
  document.cookie = `${name}=; path=/; max-age=0; ${sameSite()}`;
}

function canSetSecureCookie(): boolean {
  return location.protocol === 'https:' || /^(localhost|127\.0\.0\.1|\[::1\])$/.test(location.hostname);
}
