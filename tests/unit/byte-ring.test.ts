import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteRing } from "../../server/http/byte-ring.ts";

const bytes = (text: string) => Buffer.from(text);

describe("the page cache's block of memory (server/http/byte-ring.ts)", () => {
  it("gives back what was written, from chunks, until later copies have overwritten it", () => {
    const ring = new ByteRing(16);
    const a = ring.write([bytes("ab"), bytes("cd")], 4)!;
    expect(ring.read(a, 4).toString()).toBe("abcd");
    const b = ring.write([bytes("efgh")], 4)!;
    const c = ring.write([bytes("ijkl")], 4)!;
    expect([ring.holds(a), ring.holds(b), ring.holds(c)]).toEqual([true, true, true]);
    // The next copy does not fit before the end of the block: it starts again at the beginning, over a.
    const d = ring.write([bytes("mnop")], 4)!;
    const e = ring.write([bytes("qr")], 2)!;
    expect(ring.holds(a)).toBe(false);
    expect([ring.read(b, 4), ring.read(c, 4), ring.read(d, 4), ring.read(e, 2)].map(String)).toEqual(["efgh", "ijkl", "mnop", "qr"]);
  });

  it("refuses a copy larger than a quarter of the block, and holds nothing before the first write", () => {
    const ring = new ByteRing(16);
    expect(ring.holds(0)).toBe(false);
    expect(ring.write([bytes("12345")], 5)).toBeNull();
    expect(new ByteRing(0).write([bytes("a")], 1)).toBeNull();
  });

  it("never gives back bytes other than those written: any copy it says it holds reads back whole", () => {
    fc.assert(
      fc.property(fc.integer({ min: 8, max: 64 }), fc.array(fc.uint8Array({ minLength: 1, maxLength: 16 }), { maxLength: 60 }), (capacity, copies) => {
        const ring = new ByteRing(capacity);
        const written: { at: number; data: Uint8Array }[] = [];
        for (const data of copies) {
          const at = ring.write([data], data.byteLength);
          if (at === null) expect(data.byteLength).toBeGreaterThan(capacity / 4);
          else written.push({ at, data });
          for (const copy of written) if (ring.holds(copy.at)) expect(ring.read(copy.at, copy.data.byteLength)).toEqual(Buffer.from(copy.data));
        }
        // The newest copy is always there.
        if (written.length) expect(ring.holds(written[written.length - 1]!.at)).toBe(true);
      }),
    );
  });

  it("hands each reply its own Buffer, which later writes leave alone", () => {
    const ring = new ByteRing(16);
    const a = ring.write([bytes("abcd")], 4)!;
    const reply = ring.read(a, 4);
    for (let i = 0; i < 8; i++) ring.write([bytes("zzzz")], 4);
    expect(reply.toString()).toBe("abcd");
  });
});
