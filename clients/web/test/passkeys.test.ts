// SPDX-License-Identifier: AGPL-3.0-or-later
// The page's side of passkeys (src/passkeys.ts): the server's base64url and the
// browser's ArrayBuffers, both ways; the server's refusals kept with their codes.
import { afterEach, describe, expect, it, vi } from "vitest";
import { fromBase64url, PasskeyError, signInWithPasskey, toBase64url } from "../src/passkeys";

const bytes = (b: ArrayBuffer) => Array.from(new Uint8Array(b));

describe("base64url", () => {
  it("round trips every length and the two characters base64 spells differently", () => {
    for (const input of [[], [0], [0, 1], [0, 1, 2], [251, 255], [255, 254, 253, 252]]) {
      const text = toBase64url(new Uint8Array(input));
      expect(text).not.toMatch(/[=+/]/);
      expect(bytes(fromBase64url(text))).toEqual(input);
    }
    expect(toBase64url(new Uint8Array([251, 255]))).toBe("-_8");
    expect(bytes(fromBase64url("Zm9vYg"))).toEqual([...new TextEncoder().encode("foob")]);
  });
  it("reads a view into a larger buffer as just its bytes", () => {
    const buffer = new Uint8Array([9, 1, 2, 3, 9]);
    expect(toBase64url(buffer.subarray(1, 4))).toBe(toBase64url(new Uint8Array([1, 2, 3])));
  });
});

describe("the server's refusals", () => {
  afterEach(() => vi.unstubAllGlobals());
  it("a sign-in the server refuses rejects with its code, not a generic failure", async () => {
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ error: "rate_limited", message: "Too many attempts; try again in 30 s." }), { status: 429 }));
    const failure = await signInWithPasskey().catch((e) => e);
    expect(failure).toBeInstanceOf(PasskeyError);
    expect(failure.code).toBe("rate_limited");
    expect(failure.message).toContain("30 s");
  });
});
