// SPDX-License-Identifier: AGPL-3.0-or-later
// Passkeys in the page (docs/accounts.md#passkeys): "Sign in with a passkey" for
// a device that is not signed in yet, and, for a signed-in player with a
// claimed handle, their passkeys with "Add a passkey" and "Remove". A
// self-contained panel: it reads the session token the connection keeps and
// talks HTTP only; after a sign-in it keeps the new token and reloads, so the
// connection says hello as the signed-in player.
import { useEffect, useState } from "preact/hooks";
import { saveName, saveToken } from "../net";
import { listPasskeys, loadAccount, passkeysSupported, PasskeyError, registerPasskey, removePasskey, signInWithPasskey, type PasskeyInfo } from "../passkeys";
import { t as tr } from "../i18n";

function message(e: unknown): string {
  if (e instanceof PasskeyError) {
    if (e.code === "cancelled") return tr("passkeys.cancelled");
    if (e.code === "not_claimed") return tr("passkeys.claimFirst");
    return e.message;
  }
  return String((e as Error)?.message ?? e);
}

/**
 * `signInOnly`: just the sign-in button (a device that has no player yet, on the
 * welcome page). `onSignedIn`: what to do once the new token is kept (default:
 * reload the page).
 */
export function PasskeysPanel({ signInOnly = false, onSignedIn }: { signInOnly?: boolean; onSignedIn?: () => void }) {
  const [handle, setHandle] = useState<string | null>(null);
  const [keys, setKeys] = useState<PasskeyInfo[]>([]);
  const [label, setLabel] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [note, setNote] = useState("");

  async function refresh() {
    const account = await loadAccount();
    setHandle(account?.handle ?? null);
    setKeys(account?.handle ? await listPasskeys() : []);
  }
  useEffect(() => {
    if (passkeysSupported() && !signInOnly) refresh().catch((e) => setError(message(e)));
  }, []);
  if (!passkeysSupported()) return null;

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError("");
    setNote("");
    try {
      await work();
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
    }
  }

  const signIn = () =>
    run(async () => {
      const session = await signInWithPasskey();
      saveToken(session.token);
      saveName(session.name);
      if (onSignedIn) onSignedIn();
      else location.reload();
    });
  const add = () =>
    run(async () => {
      const key = await registerPasskey(label.trim());
      setLabel("");
      setNote(tr("passkeys.added", { label: key.label }));
      await refresh();
    });
  const remove = (id: string) =>
    run(async () => {
      await removePasskey(id);
      await refresh();
    });

  return (
    <section class="passkeys" aria-label={tr("passkeys.title")}>
      <h2>{tr("passkeys.title")}</h2>
      <button type="button" name="passkey-sign-in" disabled={busy} onClick={signIn}>
        {tr("passkeys.signIn")}
      </button>
      {signInOnly ? null : handle ? (
        <div>
          {keys.length ? (
            <ul class="passkey-list">
              {keys.map((k) => (
                <li key={k.id}>
                  <span class="passkey-label">{k.label}</span>{" "}
                  <span class="muted">
                    {k.last_used_at ? tr("passkeys.lastUsed", { when: new Date(k.last_used_at * 1000).toLocaleString() }) : tr("passkeys.neverUsed")}
                  </span>{" "}
                  <button type="button" name="passkey-remove" disabled={busy} onClick={() => remove(k.id)}>
                    {tr("passkeys.remove")}
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">{tr("passkeys.none")}</p>
          )}
          <form
            class="passkey-add"
            onSubmit={(e) => {
              e.preventDefault();
              add();
            }}
          >
            <label>
              {tr("passkeys.label")}{" "}
              <input name="passkey-label" maxLength={64} value={label} placeholder={tr("passkeys.labelHint")} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} />
            </label>{" "}
            <button type="submit" name="passkey-add" disabled={busy}>
              {tr("passkeys.add")}
            </button>
          </form>
        </div>
      ) : (
        <p class="muted">{tr("passkeys.claimFirst")}</p>
      )}
      {note ? <p role="status">{note}</p> : null}
      {error ? <p class="error" role="alert">{error}</p> : null}
    </section>
  );
}
