import { describe, expect, it } from "vitest";
import { sharedFreshRead } from "../../server/db/shared-read.ts";

/** A read whose answers the test releases by hand; `value` is what the store holds when a read starts. */
function controlledReads() {
  const started: { answer: number; settle: (fail?: boolean) => void }[] = [];
  const store = { value: 1 };
  const read = (_key: object) =>
    new Promise<number>((resolve, reject) => {
      const answer = store.value;
      started.push({ answer, settle: (fail) => (fail ? reject(new Error("read failed")) : resolve(answer)) });
    });
  return { started, store, read };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("sharedFreshRead", () => {
  it("gives a caller who arrives during a read the answer of a read started after its call", async () => {
    const { started, store, read } = controlledReads();
    const shared = sharedFreshRead(read);
    const key = {};
    const first = shared(key);
    store.value = 2; // committed after the first read began, before the second call
    const second = shared(key);
    expect(started).toHaveLength(1);
    started[0].settle();
    expect(await first).toBe(1);
    await tick();
    expect(started).toHaveLength(2);
    started[1].settle();
    expect(await second).toBe(2);
  });

  it("serves every caller who arrived during one read with a single next read", async () => {
    const { started, read } = controlledReads();
    const shared = sharedFreshRead(read);
    const key = {};
    const calls = Array.from({ length: 10 }, () => shared(key));
    started[0].settle();
    await tick();
    started[1].settle();
    const answers = await Promise.all(calls);
    expect(answers).toEqual(Array(10).fill(1));
    expect(started).toHaveLength(2);
    const later = shared(key);
    expect(started).toHaveLength(3);
    started[2].settle();
    expect(await later).toBe(1);
  });

  it("passes a failed read's error to its callers, and the next call reads again", async () => {
    const { started, read } = controlledReads();
    const shared = sharedFreshRead(read);
    const key = {};
    const failing = shared(key);
    const waiting = shared(key);
    started[0].settle(true);
    await expect(failing).rejects.toThrow("read failed");
    await tick();
    started[1].settle();
    expect(await waiting).toBe(1);
    const again = shared(key);
    expect(started).toHaveLength(3);
    started[2].settle();
    expect(await again).toBe(1);
  });

  it("never shares a read between keys", async () => {
    const { started, read } = controlledReads();
    const shared = sharedFreshRead(read);
    const a = shared({});
    const b = shared({});
    expect(started).toHaveLength(2);
    for (const s of started) s.settle();
    expect(await Promise.all([a, b])).toEqual([1, 1]);
  });
});
