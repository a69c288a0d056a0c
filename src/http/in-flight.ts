// Requests in flight per caller, the share one caller may use of the server at once. The
// caller is the authenticated client (a console user, for console sessions, since they all
// act through one API client); a request with no caller counts against its client address
// (IPv6: its /64, which one host holds whole). One address is not one client: NAT, pooled
// HTTP clients and a reverse proxy put many behind one, so authenticated traffic is never
// counted per address.
import { addressGroup } from '../auth/client-address.ts';

/** Gives the slot back; calling it again does nothing. */
type Leave = () => void;

export class InFlight {
  private readonly counts = new Map<string, number>();

  /** A slot for `key` while fewer than `limit` hold one; undefined when the key is at its limit. */
  enter(key: string, limit: number): Leave | undefined {
    const now = this.counts.get(key) ?? 0;
    if (now >= limit) return undefined;
    this.counts.set(key, now + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const rest = (this.counts.get(key) ?? 1) - 1;
      if (rest > 0) this.counts.set(key, rest);
      else this.counts.delete(key);
    };
  }

  /** Requests of `key` in flight now. */
  of(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}

/** An address as limits count it: IPv4 (also IPv4-mapped IPv6) whole, other IPv6 by its /64 (as the authentication throttles count it). */
export function addressKey(ip: string): string {
  return `ip:${addressGroup(ip)}`;
}
