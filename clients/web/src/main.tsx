import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { App } from "./app";
import { Lobby, NameForm } from "./ui/Lobby";
import { EventPage } from "./ui/Event";
import { ReplayPage } from "./ui/Replay";
import { TablePage } from "./ui/Table";
import { savedName } from "./net";
import "./style.css";

function Root({ app }: { app: App }) {
  const [, setVersion] = useState(0);
  useEffect(() => app.subscribe(() => setVersion((v) => v + 1)), []);
  const r = app.route;
  const s = app.state;
  let page;
  if (r.page === "replay") page = <ReplayPage id={r.table} navigate={(p) => app.navigate(p)} />;
  else if (r.page === "event") page = <EventPage id={r.event} navigate={(p) => app.navigate(p)} />;
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
    page = t ? <TablePage app={app} id={t.id} /> : <p class="muted">Opening the invitation…</p>;
  } else page = <Lobby app={app} />;
  return (
    <>
      <header class="top">
        <a href="/" class="brand" onClick={(e) => { e.preventDefault(); app.navigate("/"); }}>
          La Casa
        </a>
        <span class="me">{s.me ? s.me.name : ""}</span>
        <span class={`conn conn-${s.connection}`} role="status">
          {s.connection === "open"
            ? "online"
            : s.connection === "connecting"
              ? "connecting…"
              : app.conn.replaced
                ? "playing in another tab"
                : "offline, reconnecting…"}
        </span>
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
      <main>{page}</main>
    </>
  );
}

const app = new App();
(window as unknown as { casaApp: App }).casaApp = app;
render(<Root app={app} />, document.getElementById("app")!);
app.start();
