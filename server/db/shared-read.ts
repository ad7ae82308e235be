interface ReadState<T> {
  running?: Promise<T>;
  next?: Promise<T>;
}

/**
 * Wraps `read` so that callers who ask at the same time share its round trips, yet none is given
 * an answer older than its call: a caller who arrives while a read is running waits for the next
 * one, which starts when the running read ends and serves everyone who arrived meanwhile. So at
 * most two reads per key are ever outstanding, however many requests ask, and a change committed
 * before a call is always seen by it. Reads for different keys (database handles) never mix.
 */
export function sharedFreshRead<K extends object, T>(read: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const states = new WeakMap<K, ReadState<T>>();
  const start = (key: K, state: ReadState<T>): Promise<T> => {
    const reading = read(key);
    state.running = reading;
    const done = () => {
      if (state.running === reading) state.running = undefined;
    };
    reading.then(done, done);
    return reading;
  };
  return (key) => {
    let state = states.get(key);
    if (!state) states.set(key, (state = {}));
    if (!state.running) return start(key, state);
    const running = state.running;
    state.next ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        state.next = undefined;
        return start(key, state);
      });
    return state.next;
  };
}
