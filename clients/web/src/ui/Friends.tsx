// SPDX-License-Identifier: AGPL-3.0-or-later
// Friends (docs/accounts.md#friends): add a friend by handle, see who is online and
// at which table, invite a friend to a waiting table this player sits at; and the
// friends' invitations to their tables, shown on every device of the player.
import { useEffect, useState } from "preact/hooks";
import type { App } from "../app";
import { AccountApi, AccountError, invitableTables, sortFriends, type FriendsList } from "../account";
import { gameTitle } from "../catalogue";
import { statusWord } from "./Lobby";
import { t } from "../i18n";

/** Joins the table of a friend's invitation (that settles it) and opens it. */
async function accept(app: App, inv: App["state"]["tableInvitations"][number]): Promise<void> {
  try {
    await app.conn.request(inv.invite ? { type: "join", invite: inv.invite } : { type: "join", table: inv.table });
    app.navigate(`/table/${inv.table}`);
  } catch (e) {
    app.fail(e);
  }
}

/** The invitations friends sent to their tables, above every page. */
export function TableInvitations({ app }: { app: App }) {
  const list = app.state.tableInvitations;
  if (!list.length) return null;
  return (
    <div class="invitations table-invitations" role="status">
      {list.map((inv) => (
        <p key={inv.invitation} class="table-invitation">
          {t("friends.invited", { from: inv.from.handle || inv.from.name, game: gameTitle(inv.game) })}{" "}
          <button type="button" class="primary" onClick={() => void accept(app, inv)}>
            {t("friends.join")}
          </button>{" "}
          <button
            type="button"
            onClick={() => app.conn.request({ type: "decline_table_invitation", invitation: inv.invitation }).catch((e) => app.fail(e))}
          >
            {t("inv.decline")}
          </button>
        </p>
      ))}
    </div>
  );
}

export function FriendsPanel({ app, api = new AccountApi(), claimed }: { app: App; api?: AccountApi; claimed: boolean }) {
  const [list, setList] = useState<FriendsList | null>(null);
  const [handle, setHandle] = useState("");
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);

  const load = () =>
    api
      .friends()
      .then((l) => setList(l))
      .catch((e: AccountError) => setError(e.message));
  useEffect(() => {
    if (!claimed) return;
    void load();
    // Who is online and where changes on its own: looked at again now and then.
    const timer = setInterval(() => void load(), 15000);
    return () => clearInterval(timer);
  }, [claimed]);

  if (!claimed) {
    return (
      <section class="friends" aria-labelledby="friends-title">
        <h2 id="friends-title">{t("friends.title")}</h2>
        <p class="muted">{t("friends.needAccount")}</p>
      </section>
    );
  }
  const me = app.state.me?.player_id ?? "";
  const mine = Object.values(app.state.tables)
    .filter((x) => x.state && !x.spectating)
    .map((x) => ({ id: x.id, status: x.state!.status, seats: x.state!.seats as { kind?: string; player_id?: string }[] }));

  const add = async (h: string) => {
    setBusy(true);
    setError("");
    setNote("");
    try {
      const f = await api.addFriend(h.trim());
      setHandle("");
      setNote(f.mutual ? t("friends.nowFriends", { handle: f.handle }) : t("friends.added", { handle: f.handle }));
      await load();
    } catch (e) {
      setError((e as AccountError).message);
    } finally {
      setBusy(false);
    }
  };
  const invite = async (table: string, h: string) => {
    setError("");
    try {
      const r = await app.conn.request({ type: "invite_friend", table, handle: h });
      setNote(t(r.online ? "friends.inviteSent" : "friends.inviteKept", { handle: r.handle }));
    } catch (e) {
      setError((e as { message?: string }).message ?? String(e));
    }
  };
  const friends = sortFriends(list?.friends ?? []);
  return (
    <section class="friends" aria-labelledby="friends-title">
      <h2 id="friends-title">{t("friends.title")}</h2>
      <form
        class="friend-add"
        onSubmit={(e) => {
          e.preventDefault();
          if (handle.trim()) void add(handle);
        }}
      >
        <label>
          {t("friends.handle")}{" "}
          <input name="friend-handle" required maxLength={64} autoComplete="off" value={handle} onInput={(e) => setHandle((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" disabled={busy}>
          {t("friends.add")}
        </button>
      </form>
      {error ? <p class="error" role="alert">{error}</p> : null}
      {note ? <p class="note" role="status">{note}</p> : null}
      {list && !friends.length ? <p class="muted">{t("friends.none")}</p> : null}
      <ul class="friend-list">
        {friends.map((f) => {
          const tables = invitableTables(mine, me, f.player_id);
          return (
            <li key={f.player_id} class={`friend ${f.mutual ? (f.online ? "online" : "offline") : "pending"}`} data-handle={f.handle}>
              <span class="friend-name">
                <span class="dot" aria-hidden="true" /> <strong>{f.handle || f.name}</strong>{" "}
                <span class="muted">
                  {!f.mutual ? t("friends.pending") : f.online ? t("friends.online") : t("friends.offline")}
                </span>
              </span>
              <span class="friend-actions">
                {f.mutual
                  ? tables.map((table) => (
                      <button key={table} type="button" class="primary invite" onClick={() => void invite(table, f.handle)}>
                        {tables.length > 1 ? t("friends.inviteTo", { table }) : t("friends.invite")}
                      </button>
                    ))
                  : null}
                <button
                  type="button"
                  class="link remove"
                  aria-label={t("friends.removeLabel", { handle: f.handle })}
                  onClick={() =>
                    api
                      .removeFriend(f.handle)
                      .then(() => load())
                      .catch((e: AccountError) => setError(e.message))
                  }
                >
                  {t("friends.remove")}
                </button>
              </span>
              {f.mutual && f.tables?.length ? (
                <span class="friend-tables">
                  {f.tables.map((x) => (
                    <a
                      key={x.table}
                      href={`/table/${x.table}`}
                      onClick={(e) => {
                        e.preventDefault();
                        app.navigate(`/table/${x.table}`);
                      }}
                    >
                      {t("friends.atTable", { game: gameTitle(x.game), status: statusWord(x.status) })}
                    </a>
                  ))}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {list?.requests.length ? (
        <div class="friend-requests">
          <h3>{t("friends.requests")}</h3>
          <ul>
            {list.requests.map((r) => (
              <li key={r.player_id}>
                <strong>{r.handle}</strong>{" "}
                <button type="button" onClick={() => void add(r.handle)}>
                  {t("friends.addBack")}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

/** At a waiting table this player sits at: a button per friend (both ways), online
 *  ones first, that invites them to it. Nothing for a player without friends. */
export function InviteFriends({ app, table, api = new AccountApi() }: { app: App; table: string; api?: AccountApi }) {
  const [friends, setFriends] = useState<FriendsList["friends"]>([]);
  const [note, setNote] = useState("");
  useEffect(() => {
    api
      .friends()
      .then((l) => setFriends(sortFriends(l.friends.filter((f) => f.mutual))))
      .catch(() => setFriends([]));
  }, [table]);
  if (!friends.length) return null;
  return (
    <div class="invite-friends">
      {t("friends.inviteHere")}{" "}
      {friends.map((f) => (
        <button
          key={f.player_id}
          type="button"
          class={`invite-friend ${f.online ? "online" : "offline"}`}
          data-handle={f.handle}
          onClick={() =>
            app.conn
              .request({ type: "invite_friend", table, handle: f.handle })
              .then((r) => setNote(t(r.online ? "friends.inviteSent" : "friends.inviteKept", { handle: r.handle })))
              .catch((e) => app.fail(e))
          }
        >
          <span class="dot" aria-hidden="true" /> {f.handle}
        </button>
      ))}
      {note ? <span class="note" role="status"> {note}</span> : null}
    </div>
  );
}
