// SPDX-License-Identifier: AGPL-3.0-or-later
// The account API (docs/accounts.md): claiming the name as an account, signing in on
// another device with a password or a device link code, the sessions of every
// device, and friends. Plain HTTP JSON under /api/account, authenticated with the
// page's session token (the resume token the server gave in `welcome`).
import { saveName, saveToken, savedToken } from "./net";

/** What the server says about the player (GET /api/account). */
export interface AccountInfo {
  player_id: string;
  name: string;
  handle: string | null;
  is_bot: boolean;
  guest: boolean;
  has_password: boolean;
  created_at: number;
}
export interface SessionInfo {
  id: string;
  label: string;
  created_at: number;
  last_used_at: number;
  current: boolean;
  connected: boolean;
}
export interface SignedIn {
  token: string;
  player_id: string;
  name: string;
}
export interface DeviceCode {
  code: string;
  expires_at: number;
  expires_in: number;
}
/** A table a friend sits at (public, or private and reachable by this player anyway). */
export interface FriendTable {
  table: string;
  game: string;
  players: number;
  status: string;
  private: boolean;
}
export interface Friend {
  player_id: string;
  handle: string;
  name: string;
  /** They added this player back: only then are `online` and `tables` known. */
  mutual: boolean;
  since: number;
  online?: boolean;
  tables?: FriendTable[];
}
export interface FriendRequest {
  player_id: string;
  handle: string;
  name: string;
  since: number;
}
export interface FriendsList {
  friends: Friend[];
  requests: FriendRequest[];
}

/** The server's refusal: its code (bad_credentials, handle_taken, …) and sentence. */
export class AccountError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Fetch = typeof fetch;

/** One call of the API; `token` signs it (omitted for sign-in and redeem). */
export async function call<T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}, f: Fetch = fetch): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  let r: Response;
  try {
    r = await f(path, { method: init.method ?? (init.body === undefined ? "GET" : "POST"), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  } catch {
    throw new AccountError(0, "offline", "The server cannot be reached.");
  }
  let body: unknown = null;
  try {
    body = await r.json();
  } catch {
    body = null;
  }
  if (!r.ok) {
    const b = (body ?? {}) as { error?: string; message?: string };
    throw new AccountError(r.status, b.error ?? `http_${r.status}`, b.message ?? `The server answered ${r.status}.`);
  }
  return body as T;
}

/** The letters of a device link code as the server reads them: case, spaces and
 *  dashes ignored. */
export function normalizeCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]+/g, "");
}

/** ABCDEFGH shown as ABCD-EFGH, the way the server's docs write it. */
export function formatCode(code: string): string {
  const c = normalizeCode(code);
  return c.length === 8 ? `${c.slice(0, 4)}-${c.slice(4)}` : c;
}

/** Whether `input` can be a device link code (8 letters of the server's alphabet). */
export function looksLikeCode(input: string): boolean {
  return /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/.test(normalizeCode(input));
}

/** A short name for this device in the sessions list ("Firefox on Android"). */
export function deviceLabel(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chromium"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : "Browser";
  const os = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : "";
  return os ? `${browser} on ${os}` : browser;
}

/** Friends first who added this player back, online ones first, then by handle;
 *  those who did not answer yet last. */
export function sortFriends(list: Friend[]): Friend[] {
  const rank = (f: Friend) => (f.mutual ? (f.online ? 0 : 1) : 2);
  return [...list].sort((a, b) => rank(a) - rank(b) || a.handle.localeCompare(b.handle));
}

/** The tables of mine a friend may be invited to: waiting, with a free seat, where I
 *  sit and they do not. */
export function invitableTables(
  tables: { id: string; status?: string; seats?: { kind?: string; player_id?: string }[] }[],
  me: string,
  friend: string,
): string[] {
  const out: string[] = [];
  for (const t of tables) {
    if (t.status !== "waiting" || !t.seats) continue;
    if (!t.seats.some((s) => s.player_id === me)) continue;
    if (t.seats.some((s) => s.player_id === friend)) continue;
    if (!t.seats.some((s) => s.kind === "empty")) continue;
    out.push(t.id);
  }
  return out;
}

/** The account API with this page's session token. */
export class AccountApi {
  constructor(
    private token: () => string = savedToken,
    private f: Fetch = (...a) => fetch(...a),
  ) {}
  private authed<T>(path: string, method?: string, body?: unknown): Promise<T> {
    return call<T>(path, { method, body, token: this.token() }, this.f);
  }
  account(): Promise<AccountInfo> {
    return this.authed("/api/account");
  }
  claim(handle: string, password: string): Promise<AccountInfo> {
    return this.authed("/api/account/claim", "POST", password ? { handle, password } : { handle });
  }
  setPassword(password: string, old_password?: string): Promise<{ has_password: boolean }> {
    return this.authed("/api/account/password", "POST", old_password ? { password, old_password } : { password });
  }
  signIn(handle: string, password: string, label: string): Promise<SignedIn> {
    return call("/api/account/signin", { body: { handle, password, label } }, this.f);
  }
  newCode(): Promise<DeviceCode> {
    return this.authed("/api/account/device-codes", "POST", {});
  }
  redeem(code: string, label: string): Promise<SignedIn> {
    return call("/api/account/device-codes/redeem", { body: { code: normalizeCode(code), label } }, this.f);
  }
  sessions(): Promise<{ sessions: SessionInfo[] }> {
    return this.authed("/api/account/sessions");
  }
  revoke(id: string): Promise<{ id: string; revoked: boolean }> {
    return this.authed(`/api/account/sessions/${encodeURIComponent(id)}`, "DELETE");
  }
  signOut(): Promise<{ revoked: boolean }> {
    return this.authed("/api/account/signout", "POST", {});
  }
  friends(): Promise<FriendsList> {
    return this.authed("/api/account/friends");
  }
  addFriend(handle: string): Promise<Friend> {
    return this.authed("/api/account/friends", "POST", { handle });
  }
  removeFriend(handle: string): Promise<{ handle: string; removed: boolean }> {
    return this.authed(`/api/account/friends/${encodeURIComponent(handle)}`, "DELETE");
  }
}

/** This browser becomes the signed-in player: the new session's token replaces the
 *  guest's, and the page starts over with it (its tables are the player's). */
export function adopt(s: SignedIn, reload: () => void = () => location.assign("/")): void {
  saveToken(s.token);
  saveName(s.name);
  reload();
}
