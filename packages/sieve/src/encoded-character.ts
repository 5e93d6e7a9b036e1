/**
 * RFC 5228 §2.4.2.4 encoded-character: `${hex:41 42}` and `${unicode:263A}` in strings. A sequence
 * that is not well formed is left as written.
 */
export function decodeEncodedCharacters(text: string): string {
  return text.replace(/\$\{(hex|unicode):([^}]*)\}/gi, (whole, kind: string, body: string) => {
    const items = body
      .trim()
      .split(/[ \t\r\n]+/)
      .filter(Boolean);
    if (!items.length || !items.every((h) => /^[0-9a-f]+$/i.test(h))) return whole;
    if (kind.toLowerCase() === 'hex') {
      const bytes = new Uint8Array(items.length);
      for (let i = 0; i < items.length; i++) {
        const v = parseInt(items[i]!, 16);
        if (v > 255) return whole;
        bytes[i] = v;
      }
      return new TextDecoder('utf-8').decode(bytes);
    }
    let out = '';
    for (const h of items) {
      const cp = parseInt(h, 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return whole;
      out += String.fromCodePoint(cp);
    }
    return out;
  });
}
