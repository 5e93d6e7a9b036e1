// The transfer decoders mailsplit's own streams use (libqp, libbase64): decoded in one go, without a stream.
declare module 'libqp' {
  export function decode(input: Buffer | string): Buffer;
}
declare module 'libbase64' {
  export function decode(input: string): Buffer;
}
