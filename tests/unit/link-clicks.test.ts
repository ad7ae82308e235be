import { describe, expect, it } from "vitest";
import { isCurrentPath } from "../../app/lib/link-clicks.ts";

describe("isCurrentPath (NavLink's rule)", () => {
  it("marks Home only on / itself", () => {
    expect(isCurrentPath("/", "/")).toBe(true);
    expect(isCurrentPath("/shop", "/")).toBe(false);
  });
  it("marks a section on its own path and the paths below it, not on look-alikes", () => {
    expect(isCurrentPath("/shop", "/shop")).toBe(true);
    expect(isCurrentPath("/shop/12", "/shop")).toBe(true);
    expect(isCurrentPath("/shopping", "/shop")).toBe(false);
    expect(isCurrentPath("/about", "/shop")).toBe(false);
  });
});
