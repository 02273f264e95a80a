// SPDX-License-Identifier: AGPL-3.0-or-later
// Passkeys (WebAuthn) against the server's /api/account/passkeys
// (docs/accounts.md#passkeys): the browser's navigator.credentials does the
// ceremony, the server checks it. The server speaks base64url for every byte
// string; the browser wants ArrayBuffers: this file converts between them.
import { savedToken } from "./net";

/** Whether this browser can use passkeys on this page (a secure context with WebAuthn). */
export function passkeysSupported(): boolean {
  return typeof window !== "undefined" && window.isSecureContext && "PublicKeyCredential" in window && !!navigator.credentials;
}

export function fromBase64url(text: string): ArrayBuffer {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out.buffer;
}

export function toBase64url(bytes: ArrayBuffer | ArrayBufferView): string {
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let raw = "";
  for (const b of view) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The server's refusal ({error, message, reason?}), or the browser's (code "cancelled"). */
export class PasskeyError extends Error {
  constructor(public code: string, message: string, public reason?: string) {
    super(message);
  }
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(method: string, path: string, body?: Json, token = savedToken()): Promise<Json> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  let answer: Json = {};
  try {
    answer = await r.json();
  } catch {
    /* an answer without JSON: the status says it */
  }
  if (!r.ok) throw new PasskeyError(answer.error ?? String(r.status), answer.message ?? `${path}: ${r.status}`, answer.reason);
  return answer;
}

export type PasskeyInfo = { id: string; label: string; algorithm: number; created_at: number; last_used_at: number };
export type SignedIn = { token: string; player_id: string; name: string };

/** The signed-in player's account (GET /api/account), or null for a page with no live session. */
export async function loadAccount(): Promise<Json | null> {
  if (!savedToken()) return null;
  try {
    return await call("GET", "/api/account");
  } catch (e) {
    if (e instanceof PasskeyError && e.code === "unauthorized") return null;
    throw e;
  }
}

export async function listPasskeys(): Promise<PasskeyInfo[]> {
  return (await call("GET", "/api/account/passkeys")).passkeys as PasskeyInfo[];
}

export async function removePasskey(id: string): Promise<void> {
  await call("DELETE", `/api/account/passkeys/${encodeURIComponent(id)}`);
}

function cancelled(e: unknown): PasskeyError {
  // NotAllowedError: the person closed the dialog, or it timed out.
  const name = e instanceof Error ? e.name : "";
  return new PasskeyError(name === "NotAllowedError" ? "cancelled" : "browser", e instanceof Error ? e.message : String(e));
}

/** Registers a new passkey for the signed-in player (a claimed handle). */
export async function registerPasskey(label: string): Promise<PasskeyInfo> {
  const { publicKey: o } = await call("POST", "/api/account/passkeys/register/options", {});
  const options: PublicKeyCredentialCreationOptions = {
    ...o,
    challenge: fromBase64url(o.challenge),
    user: { ...o.user, id: fromBase64url(o.user.id) },
    excludeCredentials: (o.excludeCredentials ?? []).map((c: Json) => ({ ...c, id: fromBase64url(c.id) })),
  } as PublicKeyCredentialCreationOptions;
  let credential: PublicKeyCredential | null;
  try {
    credential = (await navigator.credentials.create({ publicKey: options })) as PublicKeyCredential | null;
  } catch (e) {
    throw cancelled(e);
  }
  if (!credential) throw new PasskeyError("cancelled", "No passkey was made.");
  const r = credential.response as AuthenticatorAttestationResponse;
  const answer = await call("POST", "/api/account/passkeys/register", {
    id: toBase64url(credential.rawId),
    label,
    response: { clientDataJSON: toBase64url(r.clientDataJSON), attestationObject: toBase64url(r.attestationObject) },
  });
  return answer.passkey as PasskeyInfo;
}

/** Signs in with a passkey this browser holds for the site: a new session of its player. */
export async function signInWithPasskey(): Promise<SignedIn> {
  const { publicKey: o } = await call("POST", "/api/account/passkeys/signin/options", {}, "");
  const options: PublicKeyCredentialRequestOptions = {
    ...o,
    challenge: fromBase64url(o.challenge),
    allowCredentials: (o.allowCredentials ?? []).map((c: Json) => ({ ...c, id: fromBase64url(c.id) })),
  } as PublicKeyCredentialRequestOptions;
  let credential: PublicKeyCredential | null;
  try {
    credential = (await navigator.credentials.get({ publicKey: options })) as PublicKeyCredential | null;
  } catch (e) {
    throw cancelled(e);
  }
  if (!credential) throw new PasskeyError("cancelled", "No passkey was chosen.");
  const r = credential.response as AuthenticatorAssertionResponse;
  const answer = await call(
    "POST",
    "/api/account/passkeys/signin",
    {
      id: toBase64url(credential.rawId),
      response: {
        clientDataJSON: toBase64url(r.clientDataJSON),
        authenticatorData: toBase64url(r.authenticatorData),
        signature: toBase64url(r.signature),
        userHandle: r.userHandle ? toBase64url(r.userHandle) : null,
      },
    },
    "",
  );
  return answer as SignedIn;
}
