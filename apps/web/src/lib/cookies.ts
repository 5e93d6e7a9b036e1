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

export function writeCookie(name: string, value: string, options: CookieOptions = {}): void {
  let cookie = `${name}=${encodeURIComponent(value)}; path=/; SameSite=Lax`;
  if (options.maxAgeSeconds !== undefined) cookie += `; max-age=${options.maxAgeSeconds}`;
  // Browsers drop a Secure cookie set from plain http (other than localhost), so only ask for it where it sticks.
  if (options.secure && canSetSecureCookie()) cookie += '; Secure';
  document.cookie = cookie;
}

export function deleteCookie(name: string): void {
  document.cookie = `${name}=; path=/; max-age=0`;
}

function canSetSecureCookie(): boolean {
  return location.protocol === 'https:' || /^(localhost|127\.0\.0\.1|\[::1\])$/.test(location.hostname);
}
