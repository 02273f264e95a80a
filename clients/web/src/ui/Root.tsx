// SPDX-License-Identifier: AGPL-3.0-or-later
// The page's frame: header, errors, and the page the route names. It re-renders
// whenever the app says its state changed.
import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { App } from "../app";
import { savedName } from "../net";
import { gameTitle } from "../catalogue";
import { Lobby, NameForm } from "./Lobby";
import { PasskeysPanel } from "./Passkeys";
import { LeaderboardPage, ProfilePage, profilePath } from "./Ratings";
import { EventPage } from "./Event";
import { HelpPage, helpPath } from "./Help";
import { UI as HELP_UI } from "../help/content";
import { ReplayPage } from "./Replay";
import { TablePage } from "./Table";
import { AccountPage, SignIn } from "./Account";
import { TableInvitations } from "./Friends";
import { LANG_NAMES, LANGS, lang, onLangChange, setLang, t } from "../i18n";

/** The player's choice of sound and system notifications for turns and messages. */
function AlertSettings({ app }: { app: App }) {
  const a = app.alerts;
  return (
    <details class="alert-settings">
      <summary aria-label={t("alerts.label")}>{t("alerts.summary")}</summary>
      <div class="alert-panel">
        <p class="muted">{t("alerts.intro")}</p>
        <label class="inline">
          <input type="checkbox" checked={a.sound} onChange={(e) => (a.sound = (e.target as HTMLInputElement).checked)} /> {t("alerts.sound")}
        </label>
        <label class="inline">
          <input type="checkbox" checked={a.notify} disabled={a.notifyBlocked} onChange={(e) => void a.setNotify((e.target as HTMLInputElement).checked)} /> {t("alerts.notify")}
        </label>
        {a.notifyBlocked ? <p class="muted">{t("alerts.blocked")}</p> : null}
      </div>
    </details>
  );
}

/** Which server answers: its release and commit (GET /api/version), and the licence
 *  under which its source is offered. */
export function Footer() {
  const [v, setV] = useState<{ version?: string; commit?: string } | null>(null);
  useEffect(() => {
    fetch("/api/version", { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .then((j) => setV(j))
      .catch(() => setV(null));
  }, []);
  return (
    <footer class="site">
      <span class="version">
        {t("footer.server")}
        {v?.version ? ` ${v.version}` : ""}
        {v?.commit && v.commit !== "unknown" ? ` (${v.commit})` : ""}
      </span>
      {" · "}
      {t("footer.licence")}
      {" · "}
      <a href="/licenses.txt">{t("footer.parts")}</a>
      {" · "}
      <LanguageSwitch />
    </footer>
  );
}

/** "English · Italiano": the page's language, remembered in this browser. */
export function LanguageSwitch() {
  const now = lang();
  return (
    <span class="lang-switch" role="group" aria-label={t("footer.language")}>
      {LANGS.map((l, i) => (
        <Fragment key={l}>
          {i ? " · " : null}
          <button type="button" class="link" lang={l} aria-pressed={l === now} data-lang={l} onClick={() => setLang(l)}>
            {LANG_NAMES[l]}
          </button>
        </Fragment>
      ))}
    </span>
  );
}

export function Root({ app }: { app: App }) {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const unsubscribe = app.subscribe(() => setVersion((v) => v + 1));
    const offLang = onLangChange(() => setVersion((v) => v + 1));
    // Effects run after the first paint: a welcome and a reply can arrive before
    // that (loopback is fast), and their change notices reached nobody. Render
    // once more so the page shows the state as it is now.
    setVersion((v) => v + 1);
    return () => {
      unsubscribe();
      offLang();
    };
  }, []);
  const r = app.route;
  const s = app.state;
  let page;
  if (r.page === "replay") page = <ReplayPage id={r.table} navigate={(p) => app.navigate(p)} />;
  else if (r.page === "event") page = <EventPage id={r.event} navigate={(p) => app.navigate(p)} />;
  else if (r.page === "leaderboard") page = <LeaderboardPage game={r.game} navigate={(p) => app.navigate(p)} />;
  else if (r.page === "help") page = <HelpPage game={r.game} navigate={(p) => app.navigate(p)} />;
  else if (r.page === "player") page = <ProfilePage id={r.id} navigate={(p) => app.navigate(p)} />;
  else if (!savedName())
    page = (
      <div>
        <h2>{t("welcome.title")}</h2>
        <p>{t("welcome.text")}</p>
        <NameForm app={app} />
        <SignIn />
        <PasskeysPanel signInOnly />
      </div>
    );
  else if (r.page === "account") page = <AccountPage app={app} />;
  else if (r.page === "table") page = <TablePage app={app} id={r.table} />;
  else if (r.page === "join") {
    const invited = Object.values(s.tables).find((x) => x.invite === r.invite || x.state?.invite === r.invite);
    page = invited ? (
      <TablePage app={app} id={invited.id} />
    ) : app.missingInvites.has(r.invite) ? (
      <section class="gone" aria-label={t("invite.invalidLabel")}>
        <h2>{t("invite.invalidTitle")}</h2>
        <p>{t("invite.invalidText")}</p>
        <div class="buttons">
          <a class="button primary" href="/" onClick={(e) => { e.preventDefault(); app.navigate("/"); }}>
            {t("nav.toLobby")}
          </a>
        </div>
      </section>
    ) : (
      <p class="muted">{t("invite.opening")}</p>
    );
  } else page = <Lobby app={app} />;
  return (
    <>
      <header class="top">
        <a href="/" class="brand" onClick={(e) => { e.preventDefault(); app.navigate("/"); }}>
          {t("brand")}
        </a>
        <a href="/leaderboard" class="nav-leaderboard" onClick={(e) => { e.preventDefault(); app.navigate("/leaderboard"); }}>
          {t("nav.leaderboard")}
        </a>
        <a href={helpPath()} class="nav-help" onClick={(e) => { e.preventDefault(); app.navigate(helpPath()); }}>
          {HELP_UI.howToPlay}
        </a>
        {savedName() ? (
          <a href="/account" class="nav-account" onClick={(e) => { e.preventDefault(); app.navigate("/account"); }}>
            {t("nav.account")}
          </a>
        ) : null}
        <span class="me">
          {s.me ? (
            <a href={profilePath(s.me.player_id)} onClick={(e) => { e.preventDefault(); app.navigate(profilePath(s.me!.player_id)); }}>
              {s.me.name}
            </a>
          ) : (
            ""
          )}
        </span>
        {savedName() ? <AlertSettings app={app} /> : null}
        {savedName() ? (
          <span class={`conn conn-${s.connection}`} role="status">
            {s.connection === "open"
              ? t("conn.open")
              : s.connection === "connecting"
                ? t("conn.connecting")
                : app.conn.replaced
                  ? t("conn.replaced")
                  : t("conn.offline")}
          </span>
        ) : null}
      </header>
      {/* The server's error messages are shown as the server words them (English). */}
      {s.errors.length ? (
        <div class="errors" role="alert">
          {s.errors.map((e, i) => (
            <p key={i}>
              {e.message} <button type="button" onClick={() => app.dismissError(i)} aria-label={t("error.dismiss")}>×</button>
            </p>
          ))}
        </div>
      ) : null}
      {s.invitations.length ? (
        <div class="invitations" role="status">
          {s.invitations.map((inv) => (
            <p key={inv.invitation}>
              {t("inv.rated", { from: inv.from?.name ?? t("inv.aPlayer"), game: gameTitle(inv.game), n: inv.boards })}{" "}
              <button type="button" onClick={() => app.conn.send({ type: "accept_invitation", invitation: inv.invitation })}>
                {t("inv.accept")}
              </button>{" "}
              <button type="button" onClick={() => app.conn.send({ type: "decline_invitation", invitation: inv.invitation })}>
                {t("inv.decline")}
              </button>
            </p>
          ))}
        </div>
      ) : null}
      <TableInvitations app={app} />
      <main>{page}</main>
      <Footer />
    </>
  );
}
