// The transfer decoders mailsplit's own streams use (libqp, libbase64): decoded in one go, without a stream.
declare module 'libqp' {
  export function decode(input: Buffer | string): Buffer;
}
declare module 'libbase64' {
  export function decode(input: string): Buffer;
}
// libmime (mailsplit's and mailparser's header-value parser): RFC 2045 parameters with RFC 2231 continuations.
declare module 'libmime' {
  const libmime: {
    parseHeaderValue(value: string): { value: string; params: Record<string, string> };
    /** RFC 2047 encoded words decoded (imports' X-Gmail-Labels). */
    decodeWords(value: string): string;
  };
  export default libmime;
}
