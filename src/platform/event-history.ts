import type { PlatformEvent } from './events.js';

/** One event as GET /_sim/events sends it: its place in the stream and its JSON text. */
export interface NumberedEvent {
  seq: number;
  type: PlatformEvent['type'];
  text: string;
}

/**
 * The newest events of a platform, numbered, for a page that opens or reloads after they
 * happened (`platform --web`: the console's Activity panel and delivery timelines) and for an
 * EventSource that reconnects with `Last-Event-ID`. Kept only when asked for: the simulator
 * under load keeps none (what outlives a scavenge costs the round trip's tail).
 */
export interface EventHistory {
  /** the kept events after `seq`, oldest first (all kept when `seq` is beyond the newest) */
  after(seq: number): NumberedEvent[];
  /** Follows the events as they are numbered; returns the unsubscribe. */
  follow(listener: (event: NumberedEvent) => void): () => void;
}

/**
 * Numbers every event `subscribe` announces and keeps the newest `keep` as text.
 * @example const history = createEventHistory(core.on, 1000); history.after(0);
 */
export function createEventHistory(
  subscribe: (listener: (event: PlatformEvent) => void) => () => void,
  keep: number,
): EventHistory {
  const limit = Math.max(1, Math.floor(keep));
  const kept: NumberedEvent[] = [];
  const followers = new Set<(event: NumberedEvent) => void>();
  let seq = 0;
  subscribe((event) => {
    const numbered = { seq: ++seq, type: event.type, text: JSON.stringify(event) };
    kept.push(numbered);
    if (kept.length >= 2 * limit) kept.splice(0, kept.length - limit); // now and then, not per event
    for (const listener of followers) listener(numbered);
  });
  return {
    after(since) {
      // a number from another run of the platform (it restarted): everything kept is new
      const newest = kept.slice(-limit);
      if (!(since >= 0) || since > seq) return newest;
      const first = newest.findIndex((e) => e.seq > since);
      return first < 0 ? [] : newest.slice(first);
    },
    follow(listener) {
      followers.add(listener);
      return () => followers.delete(listener);
    },
  };
}
