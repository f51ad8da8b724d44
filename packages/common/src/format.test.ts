import { describe, expect, it } from "vitest";
import { displayName, sameAddress, shortAddress } from "./format.ts";

describe("shortAddress", () => {
  it("keeps the first 4 and last 4 characters", () => {
    expect(shortAddress("0x1234567890abcdef1234567890abcdef12345678")).toBe("0x12…5678");
  });
});

describe("sameAddress", () => {
  it("compares case-insensitively and rejects missing values", () => {
    expect(sameAddress("0xABCdef", "0xabcDEF")).toBe(true);
    expect(sameAddress("0xabc", "0xabd")).toBe(false);
    expect(sameAddress(null, "0xabc")).toBe(false);
  });
});

describe("displayName", () => {
  it("prefers the display name, then the username, then the short address (empty strings count as none)", () => {
    const address = "0x1234567890abcdef1234567890abcdef12345678";
    expect(displayName({ name: "Alice Moreau", username: "alice", address })).toBe("Alice Moreau");
    expect(displayName({ name: "", username: "alice", address })).toBe("alice");
    expect(displayName({ name: null, username: null, address })).toBe("0x12…5678");
    expect(displayName({ name: null, username: null, ens: "ada.eth", address })).toBe("ada.eth");
    expect(displayName({ name: "", username: "alice", ens: "ada.eth", address })).toBe("alice");
  });
});
