// SPDX-License-Identifier: AGPL-3.0-or-later
// The page's frame: header, errors, and the page the route names. It re-renders
// whenever the app says its state changed.
import { useEffect, useState } from "preact/hooks";
import type { App } from "../app";
import { savedName } from "../net";
import { Lobby, NameForm } from "./Lobby";
import { LeaderboardPage, ProfilePage, profilePath } from "./Ratings";
import { EventPage } from "./Event";
import { HelpPage, helpPath } from "./Help";
import { UI as HELP_UI } from "../help/content";
import { ReplayPage } from "./Replay";
import { TablePage } from "./Table";

/** The player's choice of sound and system notifications for turns and messages. */
function AlertSettings({ app }: { app: App }) {
  const a = app.alerts;
  return (
    <details class="alert-settings">
      <summary aria-label="Alerts: sound and notifications">Alerts</summary>
      <div class="alert-panel">
        <p class="muted">While this tab is hidden, its title and icon count your turns and new messages.</p>
        <label class="inline">
          <input type="checkbox" checked={a.sound} onChange={(e) => (a.sound = (e.target as HTMLInputElement).checked)} /> Play a sound
        </label>
        <label class="inline">
          <input type="checkbox" checked={a.notify} disabled={a.notifyBlocked} onChange={(e) => void a.setNotify((e.target as HTMLInputElement).checked)} /> Show a system notification
        </label>
        {a.notifyBlocked ? <p class="muted">This browser blocks notifications for this site; its site settings can allow them.</p> : null}
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
        La Casa table server{v?.version ? ` ${v.version}` : ""}
        {v?.commit && v.commit !== "unknown" ? ` (${v.commit})` : ""}
      </span>
      {" · "}free software under the AGPL-3.0-or-later
      {" · "}
      <a href="/licenses.txt">licences of the parts</a>
    </footer>
  );
}

export function Root({ app }: { app: App }) {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const unsubscribe = app.subscribe(() => setVersion((v) => v + 1));
    // Effects run after the first paint: a welcome and a reply can arrive before
    // that (loopback is fast), and their change notices reached nobody. Render
    // once more so the page shows the state as it is now.
    setVersion((v) => v + 1);
    return unsubscribe;
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
        <h2>Welcome to La Casa</h2>
        <p>Card games with friends and bots: La Casa, Casino, Conference and Trophy Case. Pick a name to start.</p>
        <NameForm app={app} />
      </div>
    );
  else if (r.page === "table") page = <TablePage app={app} id={r.table} />;
  else if (r.page === "join") {
    const t = Object.values(s.tables).find((x) => x.invite === r.invite || x.state?.invite === r.invite);
    page = t ? (
      <TablePage app={app} id={t.id} />
    ) : app.missingInvites.has(r.invite) ? (
      <section class="gone" aria-label="Invitation not valid">
        <h2>This invitation is no longer valid</h2>
        <p>Its table has finished or was closed, or the link is incomplete. Ask for a new link, or start a table of your own in the lobby.</p>
        <div class="buttons">
          <a class="button primary" href="/" onClick={(e) => { e.preventDefault(); app.navigate("/"); }}>
            Go to the lobby
          </a>
        </div>
      </section>
    ) : (
      <p class="muted">Opening the invitation…</p>
    );
  } else page = <Lobby app={app} />;
  return (
    <>
      <header class="top">
        <a href="/" class="brand" onClick={(e) => { e.preventDefault(); app.navigate("/"); }}>
          La Casa
        </a>
        <a href="/leaderboard" class="nav-leaderboard" onClick={(e) => { e.preventDefault(); app.navigate("/leaderboard"); }}>
          Leaderboard
        </a>
        <a href={helpPath()} class="nav-help" onClick={(e) => { e.preventDefault(); app.navigate(helpPath()); }}>
          {HELP_UI.howToPlay}
        </a>
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
              ? "online"
              : s.connection === "connecting"
                ? "connecting…"
                : app.conn.replaced
                  ? "playing in another tab"
                  : "offline, reconnecting…"}
          </span>
        ) : null}
      </header>
      {s.errors.length ? (
        <div class="errors" role="alert">
          {s.errors.map((e, i) => (
            <p key={i}>
              {e.message} <button type="button" onClick={() => app.dismissError(i)} aria-label="Dismiss">×</button>
            </p>
          ))}
        </div>
      ) : null}
      {s.invitations.length ? (
        <div class="invitations" role="status">
          {s.invitations.map((inv) => (
            <p key={inv.invitation}>
              {inv.from?.name ?? "A player"} seats you in a rated {inv.game} event ({inv.boards} board{inv.boards === 1 ? "" : "s"}).
              Its games count for your rating only if you accept.{" "}
              <button type="button" onClick={() => app.conn.send({ type: "accept_invitation", invitation: inv.invitation })}>
                Accept
              </button>{" "}
              <button type="button" onClick={() => app.conn.send({ type: "decline_invitation", invitation: inv.invitation })}>
                Decline
              </button>
            </p>
          ))}
        </div>
      ) : null}
      <main>{page}</main>
      <Footer />
    </>
  );
}
