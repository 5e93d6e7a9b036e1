/** settings/collectors and its children (SPEC §2: collectors — create, confirm/{email}). */
export const collectorsPath = '/settings/collectors';
export const newCollectorPath = `${collectorsPath}/create`;

/** A server set by hand travels in the confirm page's query, so the page reads the same after a reload. */
export interface ManualServer {
  host: string;
  port: number;
  security: 'tls' | 'starttls' | 'none';
}

export function confirmCollectorPath(email: string, server?: ManualServer): string {
  const path = `${collectorsPath}/confirm/${encodeURIComponent(email)}`;
  if (!server) return path;
  const query = new URLSearchParams({
    host: server.host,
    port: String(server.port),
    security: server.security,
  });
  return `${path}?${query.toString()}`;
}
