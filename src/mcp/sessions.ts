// MCP sessions: id → owning client, expiring after an idle TTL and capped per client
// (the least recently used session of a client is evicted past the cap), so memory stays
// bounded whatever clients do. Sessions hold no server state: each request builds its own.
import { randomUUID } from 'node:crypto';

export interface McpSession {
  id: string;
  clientId: string;
  createdAt: number;
  lastSeenAt: number;
}

/** Every open store of this process, for the MCP sessions gauge on /metrics. */
const openStores = new Set<SessionStore>();

/** MCP sessions open in this process (expired ones count until the next sweep). */
export function openMcpSessions(): number {
  let n = 0;
  for (const store of openStores) n += store.size;
  return n;
}

export class SessionStore {
  private readonly sessions = new Map<string, McpSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly ttlMs: number,
    private readonly maxPerClient: number,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, ttlMs)).unref();
    openStores.add(this);
  }

  create(clientId: string): McpSession {
    const owned = [...this.sessions.values()].filter((s) => s.clientId === clientId).sort((a, b) => a.lastSeenAt - b.lastSeenAt);
    for (const old of owned.slice(0, Math.max(0, owned.length - this.maxPerClient + 1))) this.sessions.delete(old.id);
    const t = this.now();
    const session = { id: randomUUID(), clientId, createdAt: t, lastSeenAt: t };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id (touching it), or undefined when unknown or expired. */
  get(id: string): McpSession | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (this.now() - session.lastSeenAt > this.ttlMs) {
      this.sessions.delete(id);
      return undefined;
    }
    session.lastSeenAt = this.now();
    return session;
  }

  delete(id: string): boolean {
    return this.sessions.delete(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  sweep(): void {
    const t = this.now();
    for (const [id, s] of this.sessions) if (t - s.lastSeenAt > this.ttlMs) this.sessions.delete(id);
  }

  close(): void {
    clearInterval(this.sweeper);
    this.sessions.clear();
    openStores.delete(this);
  }
}
