// Shared with the server, which reads the first screen's list for a signed-in browser (protocol's first-screen.ts).
export { lockedAliasId } from '@mailroom/protocol';
