// SPDX-License-Identifier: AGPL-3.0-or-later
// The account page (docs/accounts.md): claim the name as an account, sign in on this
// device with a password or a device link code, show a code for another device,
// the sessions of every device (revoke any), sign out; and friends.
import { useEffect, useState } from "preact/hooks";
import type { App } from "../app";
import { AccountApi, AccountError, adopt, deviceLabel, formatCode, looksLikeCode, type AccountInfo, type DeviceCode, type SessionInfo } from "../account";
import { forgetToken, saveName, savedName } from "../net";
import { FriendsPanel } from "./Friends";
import { t } from "../i18n";

function label(): string {
  return deviceLabel(typeof navigator === "undefined" ? "" : navigator.userAgent);
}

function when(unix: number): string {
  return new Date(unix * 1000).toLocaleString();
}

/** Sign in on this device: with the handle and password, or with a code another
 *  signed-in device shows. The page then starts over as that player. */
export function SignIn({ api = new AccountApi() }: { api?: AccountApi }) {
  const [handle, setHandle] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const run = async (f: () => Promise<{ token: string; player_id: string; name: string }>) => {
    setBusy(true);
    setError("");
    try {
      adopt(await f());
    } catch (e) {
      setError((e as AccountError).message);
      setBusy(false);
    }
  };
  return (
    <section class="sign-in" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">{t("acct.signInTitle")}</h2>
      <p class="muted">{t("acct.signInText")}</p>
      <form
        class="code-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (looksLikeCode(code)) void run(() => api.redeem(code, label()));
          else setError(t("acct.badCode"));
        }}
      >
        <label>
          {t("acct.code")}{" "}
          <input name="device-code" autoComplete="one-time-code" autoCapitalize="characters" spellcheck={false} maxLength={12} placeholder={formatCode("ABCDEFGH")} value={code} onInput={(e) => setCode((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" disabled={busy}>
          {t("acct.useCode")}
        </button>
      </form>
      <form
        class="password-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => api.signIn(handle.trim(), password, label()));
        }}
      >
        <label>
          {t("acct.handle")}{" "}
          <input name="signin-handle" autoComplete="username" required value={handle} onInput={(e) => setHandle((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          {t("acct.password")}{" "}
          <input name="signin-password" type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" disabled={busy}>
          {t("acct.signIn")}
        </button>
      </form>
      {error ? <p class="error" role="alert">{error}</p> : null}
    </section>
  );
}

function Claim({ api, info, done }: { api: AccountApi; info: AccountInfo; done: (a: AccountInfo) => void }) {
  const [handle, setHandle] = useState(info.name);
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  return (
    <form
      class="claim-form"
      onSubmit={(e) => {
        e.preventDefault();
        setError("");
        api
          .claim(handle.trim(), password)
          .then((a) => {
            saveName(a.name);
            done(a);
          })
          .catch((err: AccountError) => setError(err.message));
      }}
    >
      <h2>{t("acct.claimTitle")}</h2>
      <p class="muted">{t("acct.claimText")}</p>
      <label>
        {t("acct.handle")}{" "}
        <input name="claim-handle" autoComplete="username" required minLength={3} maxLength={24} value={handle} onInput={(e) => setHandle((e.target as HTMLInputElement).value)} />
      </label>
      <label>
        {t("acct.password")}{" "}
        <input name="claim-password" type="password" autoComplete="new-password" minLength={8} value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
      </label>
      <small class="muted">{t("acct.passwordHint")}</small>
      <button type="submit" class="primary">
        {t("acct.claim")}
      </button>
      {error ? <p class="error" role="alert">{error}</p> : null}
    </form>
  );
}

function LinkDevice({ api }: { api: AccountApi }) {
  const [code, setCode] = useState<(DeviceCode & { until: number }) | null>(null);
  const [error, setError] = useState("");
  const [, tick] = useState(0);
  useEffect(() => {
    if (!code) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [code]);
  const left = code ? Math.max(0, Math.round((code.until - Date.now()) / 1000)) : 0;
  return (
    <div class="link-device">
      <h3>{t("acct.linkTitle")}</h3>
      <p class="muted">{t("acct.linkText")}</p>
      {code && left > 0 ? (
        <p class="device-code-shown">
          <output class="device-code" aria-label={t("acct.codeLabel")}>
            {formatCode(code.code)}
          </output>{" "}
          <span class="muted">{t("acct.expires", { m: Math.floor(left / 60), s: String(left % 60).padStart(2, "0") })}</span>
        </p>
      ) : null}
      <button
        type="button"
        class="new-code"
        onClick={() =>
          api
            .newCode()
            .then((c) => setCode({ ...c, until: Date.now() + c.expires_in * 1000 }))
            .catch((e: AccountError) => setError(e.message))
        }
      >
        {code ? t("acct.anotherCode") : t("acct.showCode")}
      </button>
      {error ? <p class="error" role="alert">{error}</p> : null}
    </div>
  );
}

function Sessions({ api }: { api: AccountApi }) {
  const [list, setList] = useState<SessionInfo[] | null>(null);
  const [error, setError] = useState("");
  const load = () =>
    api
      .sessions()
      .then((r) => setList(r.sessions))
      .catch((e: AccountError) => setError(e.message));
  useEffect(() => void load(), []);
  return (
    <div class="sessions">
      <h3>{t("acct.sessions")}</h3>
      <ul>
        {(list ?? []).map((s) => (
          <li key={s.id} class={s.current ? "current" : ""} data-session={s.id}>
            <strong>{s.label || t("acct.device")}</strong>{" "}
            <span class="muted">
              {s.current ? t("acct.thisDevice") : s.connected ? t("friends.online") : t("acct.lastUsed", { when: when(s.last_used_at) })}
            </span>{" "}
            {s.current ? null : (
              <button
                type="button"
                class="revoke"
                onClick={() =>
                  api
                    .revoke(s.id)
                    .then(() => load())
                    .catch((e: AccountError) => setError(e.message))
                }
              >
                {t("acct.revoke")}
              </button>
            )}
          </li>
        ))}
      </ul>
      {error ? <p class="error" role="alert">{error}</p> : null}
    </div>
  );
}

export function AccountPage({ app, api = new AccountApi() }: { app: App; api?: AccountApi }) {
  const [info, setInfo] = useState<AccountInfo | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    if (app.state.connection !== "open" && !info) return;
    api
      .account()
      .then(setInfo)
      .catch((e: AccountError) => setError(e.message));
  }, [app.state.connection === "open"]);

  const signOut = () => {
    const leave = () => {
      forgetToken();
      saveName("");
      location.assign("/");
    };
    api.signOut().then(leave, leave);
  };

  if (!info) {
    return (
      <section class="account">
        <h1>{t("acct.title")}</h1>
        {error ? <p class="error" role="alert">{error}</p> : <p class="muted">{t("acct.loading")}</p>}
      </section>
    );
  }
  return (
    <section class="account">
      <h1>{t("acct.title")}</h1>
      {info.guest ? (
        <>
          <p>{t("acct.guest", { name: info.name || savedName() })}</p>
          <Claim api={api} info={info} done={(a) => { setInfo(a); app.changed(); }} />
          <details class="other-account">
            <summary>{t("acct.otherAccount")}</summary>
            <p class="muted">{t("acct.otherText")}</p>
            <SignIn api={api} />
          </details>
        </>
      ) : (
        <>
          <p class="signed-in">
            {t("acct.signedInAs")} <strong class="handle">{info.handle}</strong>
          </p>
          <LinkDevice api={api} />
          <Sessions api={api} />
          <button type="button" class="sign-out" onClick={signOut}>
            {t("acct.signOut")}
          </button>
        </>
      )}
      <FriendsPanel app={app} api={api} claimed={!info.guest} />
    </section>
  );
}
