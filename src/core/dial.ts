// The address a client dials for a server bound to a given address. A wildcard bind (0.0.0.0 or
// ::) accepts on every interface, so a local client reaches it on loopback. The one owner of
// that rule: the readiness probe, the benchmark's base URL and the port check all ask here.

/** The IPv4 wildcard: a server bound here accepts on every interface (containers, Slurm nodes, exports). */
export const BIND_ALL = '0.0.0.0';

/** The address to connect to for a server bound to `bind`. */
export function dialAddress(bind: string): string {
  if (bind === BIND_ALL) return '127.0.0.1';
  if (bind === '::') return '::1';
  return bind;
}

/** The same address as the host part of a URL (an IPv6 address in brackets). */
export function urlHost(bind: string): string {
  const a = dialAddress(bind);
  return a.includes(':') ? `[${a}]` : a;
}
