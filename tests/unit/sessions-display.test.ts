import { describe, expect, it } from "vitest";
import {
  describeDevice,
  displayIp,
  endSessionLabel,
  formatSessionDate,
  formatSessionTime,
  isSessionIntent,
} from "../../app/lib/sessions.ts";

const UA = {
  chromeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  headlessLinux:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
  edgeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
  firefoxMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:133.0) Gecko/20100101 Firefox/133.0",
  safariMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
  chromeIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  samsung:
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  operaWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0",
  chromebook:
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  firefoxIpad:
    "Mozilla/5.0 (iPad; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15",
};

describe("describeDevice", () => {
  it.each([
    [UA.chromeWindows, "Chrome on Windows"],
    [UA.headlessLinux, "Chrome on Linux"],
    [UA.edgeWindows, "Edge on Windows"],
    [UA.firefoxMac, "Firefox on macOS"],
    [UA.safariMac, "Safari on macOS"],
    [UA.safariIphone, "Safari on iPhone"],
    [UA.chromeIphone, "Chrome on iPhone"],
    [UA.chromeAndroid, "Chrome on Android"],
    [UA.samsung, "Samsung Internet on Android"],
    [UA.operaWindows, "Opera on Windows"],
    [UA.chromebook, "Chrome on ChromeOS"],
    [UA.firefoxIpad, "Firefox on iPad"],
  ])("%s is %s", (ua, expected) => {
    expect(describeDevice(ua)).toBe(expected);
  });

  it("says what it can of an unfamiliar or missing user agent", () => {
    expect(describeDevice(null)).toBe("Unknown device");
    expect(describeDevice("")).toBe("Unknown device");
    expect(describeDevice("curl/8.5.0")).toBe("Unknown device");
    expect(describeDevice("SomeBot/1.0 (Linux)")).toBe("A browser on Linux");
    expect(describeDevice("x".repeat(100_000))).toBe("Unknown device");
  });
});

describe("session display", () => {
  it("formats dates the same everywhere, in UTC", () => {
    expect(formatSessionDate("2026-11-23T14:05:09.000Z")).toBe("23 Nov 2026");
    expect(formatSessionTime("2026-11-23T14:05:09.000Z")).toBe("23 Nov 2026, 14:05 UTC");
    expect(formatSessionTime("2027-01-02T03:04:00.000Z")).toBe("2 Jan 2027, 03:04 UTC");
  });

  it("shows IPv4-mapped addresses as IPv4 and hides unknown ones", () => {
    expect(displayIp("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(displayIp("2001:db8::1")).toBe("2001:db8::1");
    expect(displayIp("unknown")).toBeNull();
    expect(displayIp(null)).toBeNull();
  });

  it("names each End session button after its session", () => {
    expect(
      endSessionLabel({
        device: "Chrome on Windows",
        ipAddress: "203.0.113.9",
        signedInAt: "2026-11-23T14:05:00.000Z",
      }),
    ).toBe("End session: Chrome on Windows from 203.0.113.9, signed in 23 Nov 2026, 14:05 UTC");
    expect(endSessionLabel({ device: "Unknown device", ipAddress: null, signedInAt: "2026-11-23T14:05:00.000Z" })).toBe(
      "End session: Unknown device, signed in 23 Nov 2026, 14:05 UTC",
    );
  });

  it("knows its own form intents", () => {
    expect(isSessionIntent("end-session")).toBe(true);
    expect(isSessionIntent("end-other-sessions")).toBe(true);
    expect(isSessionIntent("change-password")).toBe(false);
    expect(isSessionIntent(null)).toBe(false);
  });
});
