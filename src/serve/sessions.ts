// The open HTTP sessions, bounded: a session no request has used for `idleMs` is closed, and past `max` open
// sessions the one used least recently makes room for a new one. A session with a request in flight (a script tool
// running) is never closed for either; the client's listening GET stream does not count as a request in flight.
// A closed session's client gets 404 "Session not found" on its next request, and initializes again.

export interface SessionLimits {
  /** Close a session no request has used for this long. */
  idleMs: number;
  /** At most this many open sessions. */
  max: number;
}

export const DEFAULT_SESSION_IDLE_MINUTES = 30;
export const DEFAULT_MAX_SESSIONS = 100;

interface Entry<T> {
  value: T;
  lastUsed: number;
  inFlight: number;
}

/** The open sessions by id; `close` is called once for each session the table drops. */
export class Sessions<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly limits: SessionLimits,
    private readonly close: (value: T) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  values(): T[] {
    return [...this.entries.values()].map((e) => e.value);
  }

  /** A new session, with its first request in flight. */
  add(id: string, value: T): void {
    this.entries.set(id, { value, lastUsed: this.now(), inFlight: 1 });
  }

  /** A request of the session starts (not the listening GET stream: it neither uses nor keeps the session). */
  begin(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    e.lastUsed = this.now();
    e.inFlight++;
  }

  /** A request that `begin` counted has ended. */
  end(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    e.lastUsed = this.now();
    e.inFlight = Math.max(0, e.inFlight - 1);
  }

  /** Forget a session closed by other means (its client's DELETE, the transport's own close). */
  delete(id: string): void {
    this.entries.delete(id);
  }

  /** Close the sessions idle for longer than the limit; their ids. */
  expire(): string[] {
    const before = this.now() - this.limits.idleMs;
    const gone = [...this.entries].filter(([, e]) => e.inFlight === 0 && e.lastUsed <= before).map(([id]) => id);
    for (const id of gone) this.drop(id);
    return gone;
  }

  /**
   * Make room for one more session: expire the idle ones, then, at the limit, close the one used least recently
   * that has no request in flight. False when every open session is busy.
   */
  makeRoom(): boolean {
    this.expire();
    while (this.entries.size >= this.limits.max) {
      let oldest: [string, Entry<T>] | undefined;
      for (const pair of this.entries)
        if (pair[1].inFlight === 0 && (!oldest || pair[1].lastUsed < oldest[1].lastUsed)) oldest = pair;
      if (!oldest) return false;
      this.drop(oldest[0]);
    }
    return true;
  }

  private drop(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    this.close(e.value);
  }
}
