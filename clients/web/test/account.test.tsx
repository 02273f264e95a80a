// SPDX-License-Identifier: AGPL-3.0-or-later
import { render } from "preact";
import { beforeEach, describe, expect, it } from "vitest";
import {
  AccountApi, AccountError, adopt, deviceLabel, formatCode, invitableTables, looksLikeCode, normalizeCode, sortFriends, type Friend,
} from "../src/account";
import { initialState, reduce } from "../src/store";
import { TableInvitations } from "../src/ui/Friends";
import { makeApp } from "./helpers";

/** A fetch that answers from a table of (method path) -> [status, body], and keeps the requests. */
function fakeFetch(answers: Record<string, [number, unknown]>) {
  const seen: { method: string; path: string; headers: Record<string, string>; body?: unknown }[] = [];
  const f = async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const path = String(input);
    seen.push({ method, path, headers: (init?.headers ?? {}) as Record<string, string>, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const a = answers[`${method} ${path}`];
    if (!a) return new Response(JSON.stringify({ error: "not_found", message: "No such page." }), { status: 404 });
    return new Response(JSON.stringify(a[1]), { status: a[0], headers: { "Content-Type": "application/json" } });
  };
  return { f: f as typeof fetch, seen };
}

const settle = () => new Promise((r) => setTimeout(r, 50));

describe("device link codes", () => {
  it("read as the server does: case, spaces and dashes ignored", () => {
    expect(normalizeCode(" abcd-efgh ")).toBe("ABCDEFGH");
    expect(normalizeCode("ab cd\tef-gh")).toBe("ABCDEFGH");
    expect(formatCode("abcdefgh")).toBe("ABCD-EFGH");
    expect(looksLikeCode("abcd-efgh")).toBe(true);
  });
  it("are refused before asking the server when they cannot be one", () => {
    expect(looksLikeCode("ABCD-EFG")).toBe(false); // 7 letters
    expect(looksLikeCode("ABCD-EFG0")).toBe(false); // 0 is not in the alphabet (no 0/O, 1/I/L)
    expect(looksLikeCode("ABCD-EFGI")).toBe(false);
  });
});

describe("the account API", () => {
  it("signs every request with the page's session token, and no sign-in with any", async () => {
    const { f, seen } = fakeFetch({
      "GET /api/account": [200, { player_id: "p1", name: "ann", handle: null, guest: true }],
      "POST /api/account/device-codes/redeem": [200, { token: "t2", player_id: "p1", name: "Ann" }],
    });
    const api = new AccountApi(() => "tok-1", f);
    expect((await api.account()).guest).toBe(true);
    expect(seen[0].headers.Authorization).toBe("Bearer tok-1");
    const signed = await api.redeem("abcd-efgh", "Chromium on Linux");
    expect(signed.token).toBe("t2");
    expect(seen[1].headers.Authorization).toBeUndefined();
    expect(seen[1].body).toEqual({ code: "ABCDEFGH", label: "Chromium on Linux" });
  });

  it("turns the server's refusal into its code and sentence", async () => {
    const { f } = fakeFetch({ "POST /api/account/claim": [409, { error: "handle_confusable", message: "That handle looks like one taken." }] });
    const api = new AccountApi(() => "tok", f);
    const e = await api.claim("аnna", "password1").catch((x) => x);
    expect(e).toBeInstanceOf(AccountError);
    expect((e as AccountError).code).toBe("handle_confusable");
    expect((e as AccountError).status).toBe(409);
    expect((e as AccountError).message).toBe("That handle looks like one taken.");
  });

  it("names the friend to remove and the session to revoke in the path, escaped", async () => {
    const { f, seen } = fakeFetch({
      "DELETE /api/account/friends/a%2Fb": [200, { handle: "a/b", removed: true }],
      "DELETE /api/account/sessions/0123abcd": [200, { id: "0123abcd", revoked: true }],
    });
    const api = new AccountApi(() => "tok", f);
    await api.removeFriend("a/b");
    await api.revoke("0123abcd");
    expect(seen.map((s) => s.method)).toEqual(["DELETE", "DELETE"]);
  });

  it("makes a signed-in device the player: the token and name kept, the page started over", () => {
    localStorage.clear();
    let reloaded = 0;
    adopt({ token: "t-new", player_id: "p9", name: "Anna" }, () => reloaded++);
    expect(localStorage.getItem("casa.token")).toBe("t-new");
    expect(localStorage.getItem("casa.name")).toBe("Anna");
    expect(reloaded).toBe(1);
  });
});

describe("friends", () => {
  const f = (handle: string, mutual: boolean, online?: boolean): Friend => ({ player_id: `p-${handle}`, handle, name: handle, mutual, since: 0, online });
  it("lists friends online first, then offline, then those who did not add back", () => {
    const sorted = sortFriends([f("zed", false), f("bob", true, false), f("cat", true, true), f("amy", true, false)]);
    expect(sorted.map((x) => x.handle)).toEqual(["cat", "amy", "bob", "zed"]);
  });

  it("offers only waiting tables with a free seat where I sit and the friend does not", () => {
    const seats = (...s: ({ kind: string; player_id?: string })[]) => s;
    const tables = [
      { id: "t1", status: "waiting", seats: seats({ kind: "player", player_id: "me" }, { kind: "empty" }) },
      { id: "t2", status: "playing", seats: seats({ kind: "player", player_id: "me" }, { kind: "bot" }) },
      { id: "t3", status: "waiting", seats: seats({ kind: "player", player_id: "other" }, { kind: "empty" }) },
      { id: "t4", status: "waiting", seats: seats({ kind: "player", player_id: "me" }, { kind: "player", player_id: "fr" }, { kind: "empty" }) },
      { id: "t5", status: "waiting", seats: seats({ kind: "player", player_id: "me" }, { kind: "bot" }) },
    ];
    expect(invitableTables(tables, "me", "fr")).toEqual(["t1"]);
  });

  it("names the device by its browser and system", () => {
    expect(deviceLabel("Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36")).toBe("Chromium on Android");
    expect(deviceLabel("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")).toBe("Firefox on Linux");
    expect(deviceLabel("")).toBe("Browser");
  });
});

describe("a friend's invitation to a table", () => {
  const inv = {
    type: "table_invitation" as const, invitation: "f0123456789abcdef", table: "t1", game: "la-casa", players: 2, private: true,
    invite: "ABCDEFGHJK", from: { player_id: "p1", name: "Anna", handle: "Anna" },
  };
  it("is kept once however often it comes, until it is settled", () => {
    const s = initialState();
    reduce(s, inv);
    reduce(s, inv); // again, after the next hello
    expect(s.tableInvitations).toHaveLength(1);
    expect(reduce(s, { type: "table_invitation_closed", invitation: "f0000000000000000", table: "t9", reason: "started" })).toBe(false);
    reduce(s, { type: "table_invitation_closed", invitation: inv.invitation, table: "t1", reason: "declined" });
    expect(s.tableInvitations).toEqual([]);
  });

  beforeEach(() => {
    document.body.innerHTML = '<div id="root"></div>';
  });
  it("joins a private table by the invitation's code, and declines by its id", async () => {
    const { app, conn } = makeApp();
    reduce(app.state, inv);
    const root = document.getElementById("root")!;
    render(<TableInvitations app={app} />, root);
    expect(root.textContent).toContain("Anna invites you");
    const [join, decline] = Array.from(root.querySelectorAll("button"));
    join.click();
    decline.click();
    await settle();
    expect(conn.sent).toEqual([
      { type: "join", invite: "ABCDEFGHJK" },
      { type: "decline_table_invitation", invitation: inv.invitation },
    ]);
  });
});

describe("the account page", () => {
  beforeEach(() => {
    document.body.innerHTML = '<div id="root"></div>';
    localStorage.setItem("casa.name", "ann");
  });
  const guest = { player_id: "p1", name: "ann", handle: null, is_bot: false, guest: true, has_password: false, created_at: 1 };
  const claimed = { ...guest, name: "Ann", handle: "Ann", guest: false, has_password: true };

  it("lets a guest claim their name, then shows the devices and a code for another one", async () => {
    const { f, seen } = fakeFetch({
      "GET /api/account": [200, guest],
      "POST /api/account/claim": [200, claimed],
      "POST /api/account/device-codes": [200, { code: "ABCDEFGH", expires_at: 400, expires_in: 300 }],
      "GET /api/account/sessions": [200, { sessions: [
        { id: "aaaa", label: "Chromium on Linux", created_at: 1, last_used_at: 2, current: true, connected: true },
        { id: "bbbb", label: "Firefox on Android", created_at: 1, last_used_at: 2, current: false, connected: false },
      ] }],
      "GET /api/account/friends": [200, { friends: [], requests: [] }],
    });
    const { app } = makeApp();
    const root = document.getElementById("root")!;
    const { AccountPage } = await import("../src/ui/Account");
    render(<AccountPage app={app} api={new AccountApi(() => "tok", f)} />, root);
    await settle();
    expect(root.querySelector(".claim-form")).not.toBeNull();
    const input = root.querySelector<HTMLInputElement>('input[name="claim-password"]')!;
    input.value = "a good password";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await settle();
    root.querySelector<HTMLFormElement>(".claim-form")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    await settle();
    expect(seen.find((s) => s.path === "/api/account/claim")?.body).toEqual({ handle: "ann", password: "a good password" });
    expect(root.querySelector(".signed-in .handle")?.textContent).toBe("Ann");
    expect(localStorage.getItem("casa.name")).toBe("Ann");
    // Every device but this one may be signed out from here.
    expect(root.querySelectorAll(".sessions li")).toHaveLength(2);
    expect(root.querySelectorAll(".sessions button.revoke")).toHaveLength(1);
    root.querySelector<HTMLButtonElement>("button.new-code")!.click();
    await settle();
    expect(root.querySelector(".device-code")?.textContent).toBe("ABCD-EFGH");
  });
});
