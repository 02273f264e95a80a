// SPDX-License-Identifier: AGPL-3.0-or-later
// Accounts, sessions per device and device link codes (docs/accounts.md), on a
// real server: the HTTP API under /api/account, and what the WebSocket side
// does with several sessions of one player.
#include <doctest/doctest.h>

#include <boost/asio/connect.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <map>
#include <thread>
#include <set>

#include "server/lobby/lobby.h"
#include "server/store/account_rows.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;
namespace http = boost::beast::http;

namespace {

struct Answer {
  int status = 0;
  json body;
  std::map<std::string, std::string> headers;
};

// One HTTP request to the account API, with extra headers.
Answer call(unsigned short port, http::verb verb, const std::string& target, const std::string& token = "",
            const json& body = nullptr, const std::map<std::string, std::string>& headers = {}) {
  namespace beast = boost::beast;
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  stream.expires_after(std::chrono::seconds(30));
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
  for (const auto& [k, v] : headers) req.set(k, v);
  if (!body.is_null()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body.dump();
  }
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  Answer a;
  a.status = static_cast<int>(res.result_int());
  a.body = json::parse(res.body(), nullptr, false);
  for (const auto& f : res) a.headers[std::string(f.name_string())] = std::string(f.value());
  return a;
}

Answer post(unsigned short port, const std::string& target, const std::string& token, const json& body = json::object(),
            const std::map<std::string, std::string>& headers = {}) {
  return call(port, http::verb::post, target, token, body, headers);
}
Answer get(unsigned short port, const std::string& target, const std::string& token) {
  return call(port, http::verb::get, target, token);
}

// The stored accounts row of a player, read through the server's own store.
std::optional<casa::server::account_rows::Account> stored_account(TestServer& ts, const std::string& player) {
  std::optional<casa::server::account_rows::Account> found;
  ts.server->lobby().store().read([&](casa::server::Db& db) { found = casa::server::account_rows::by_player(db, player); });
  return found;
}

}  // namespace

TEST_CASE("accounts: a guest claims a handle and keeps their player, tables and history") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  REQUIRE(a.hello("ann")["type"] == "welcome");
  REQUIRE(b.hello("bob")["type"] == "welcome");
  const std::string player = a.player_id;
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 2}}}})["table"];
  b.call({{"type", "join"}, {"table", table}});
  play_out({&a, &b}, table);

  // A guest: no handle.
  Answer me = get(ts.port(), "/api/account", a.token());
  REQUIRE(me.status == 200);
  CHECK(me.body["guest"] == true);
  CHECK(me.body["handle"].is_null());
  CHECK(me.body["player_id"] == player);
  CHECK(get(ts.port(), "/api/account", "").status == 401);
  CHECK(get(ts.port(), "/api/account", std::string(64, 'f')).status == 401);

  Answer claimed = post(ts.port(), "/api/account/claim", a.token(), {{"handle", "Annika"}, {"password", "correct horse"}});
  REQUIRE_MESSAGE(claimed.status == 200, claimed.body.dump());
  CHECK(claimed.body["player_id"] == player);
  CHECK(claimed.body["handle"] == "Annika");
  CHECK(claimed.body["guest"] == false);
  CHECK(claimed.body["has_password"] == true);
  CHECK(claimed.body["is_bot"] == false);
  // Claimed once only.
  CHECK(post(ts.port(), "/api/account/claim", a.token(), {{"handle", "Other"}}).body["error"] == "already_claimed");

  // The Argon2id parameters docs/accounts.md names, read back from the stored hash.
  const auto account = stored_account(ts, player);
  REQUIRE(account);
  CHECK(account->password_hash.rfind("$argon2id$v=19$m=65536,t=2,p=1$", 0) == 0);
  CHECK(account->password_hash.find("correct horse") == std::string::npos);
  CHECK(account->handle_key == "annika");

  // Sign in elsewhere: a new token for the same player, whose profile still
  // holds the game played as a guest, under the handle now.
  Answer signed_in = post(ts.port(), "/api/account/signin", "", {{"handle", "ANNIKA"}, {"password", "correct horse"}});
  REQUIRE_MESSAGE(signed_in.status == 200, signed_in.body.dump());
  CHECK(signed_in.body["player_id"] == player);
  CHECK(signed_in.body["name"] == "Annika");
  const std::string token2 = signed_in.body["token"];
  CHECK(token2.size() == 64);
  CHECK(token2 != a.token());
  WsClient a2(ts.port());
  const json w = a2.hello("", token2);
  CHECK(w["resumed"] == true);
  CHECK(w["player_id"] == player);
  CHECK(w["name"] == "Annika");
  const json profile = get_json(ts.port(), "/api/players/" + player, 200);
  CHECK(profile["name"] == "Annika");
  CHECK(profile["recent"].size() == 1);
  // The first device still works beside the second.
  CHECK(a.call({{"type", "ping"}})["type"] == "pong");
}

TEST_CASE("accounts: handles are unique without regard to case, and look-alikes are refused") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  a.hello("a");
  b.hello("b");
  REQUIRE(post(ts.port(), "/api/account/claim", a.token(), {{"handle", "coco"}}).status == 200);
  REQUIRE(post(ts.port(), "/api/account/claim", a.token(), {{"handle", "xyz"}}).body["error"] == "already_claimed");
  auto claim = [&](const std::string& handle) { return post(ts.port(), "/api/account/claim", b.token(), {{"handle", handle}}); };
  CHECK(claim("COCO").body["error"] == "handle_taken");
  CHECK(claim("ｃｏｃｏ").body["error"] == "handle_taken");  // fullwidth: the same after NFKC
  // Cyrillic с and о throughout: one script, the same skeleton as "coco".
  CHECK(claim("\xd1\x81\xd0\xbe\xd1\x81\xd0\xbe").body["error"] == "handle_confusable");
  CHECK(claim("c0co").body["error"] == "handle_confusable");  // a zero for an o
  // Latin with a Cyrillic а: mixed scripts are no handle at all.
  CHECK(claim("\xd0\xb0nna").body["error"] == "bad_handle");
  CHECK(claim("ab").body["error"] == "bad_handle");
  CHECK(claim("a b c").body["error"] == "bad_handle");
  CHECK(claim("_abc").body["error"] == "bad_handle");
  CHECK(claim(std::string(25, 'a')).body["error"] == "bad_handle");
  CHECK(claim("ann\xe2\x80\x8b" "a").body["error"] == "bad_handle");  // a zero-width space
  CHECK(post(ts.port(), "/api/account/claim", b.token(), {{"handle", "bobby"}, {"password", "short"}}).body["error"] ==
        "bad_password");
  // Nothing was stored by the refusals.
  CHECK(get(ts.port(), "/api/account", b.token()).body["guest"] == true);
  // And a guest may no longer call themselves by the claimed handle, or a look-alike.
  WsClient c(ts.port());
  CHECK(c.hello("Coco")["code"] == "name_taken");
  CHECK(c.hello("\xd1\x81\xd0\xbe\xd1\x81\xd0\xbe")["code"] == "name_taken");
  CHECK(c.hello("cocoa")["type"] == "welcome");
}

TEST_CASE("accounts: every device of a player gets every message of their tables, in the same bytes") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  REQUIRE(post(ts.port(), "/api/account/claim", a.token(), {{"handle", "annie"}, {"password", "password1"}}).status == 200);
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 4}}}})["table"];
  b.call({{"type", "join"}, {"table", table}});
  const json first = a.expect("request");

  // The phone signs in with the password and comes in mid-game.
  const std::string token2 = post(ts.port(), "/api/account/signin", "", {{"handle", "annie"}, {"password", "password1"}})
                                 .body["token"];
  WsClient phone(ts.port());
  REQUIRE(phone.hello("", token2)["resumed"] == true);
  // Its own table_state and request; the laptop is not replaced and gets no second table_state.
  const json state = phone.expect("table_state");
  const std::int64_t from = state["seq"];
  phone.expect("request");
  CHECK(!a.find([](const json& m) { return m["type"] == "error" || m["type"] == "table_state"; }, 300ms));

  // The laptop plays (the first request, then the rest); the phone sees it all.
  a.send({{"type", "action"}, {"table", table}, {"seq", first["seq"]}, {"action", first["legal"][0]}});
  play_out({&a, &b}, table);
  REQUIRE(phone.find([&](const json& m) { return m["type"] == "game_over"; }, 5s));
  auto table_frames = [&](const WsClient& c) {
    std::vector<std::string> out;
    for (const auto& [dir, text] : c.transcript) {
      if (dir != "<<") continue;
      const json m = json::parse(text);
      if ((m["type"] == "event" || m["type"] == "game_over") && m.value("seq", std::int64_t{0}) > from) out.push_back(text);
    }
    return out;
  };
  const auto laptop = table_frames(a);
  CHECK(!laptop.empty());
  CHECK(table_frames(phone) == laptop);
  check_schemas(phone);
}

TEST_CASE("accounts: sessions are listed and revoked; a revoked device is closed and refused") {
  TestServer ts;
  WsClient a(ts.port());
  a.hello("ann");
  REQUIRE(post(ts.port(), "/api/account/claim", a.token(), {{"handle", "ann_s"}, {"password", "password1"}}).status == 200);
  const std::string token2 =
      post(ts.port(), "/api/account/signin", "", {{"handle", "ann_s"}, {"password", "password1"}, {"label", "phone"}})
          .body["token"];
  WsClient phone(ts.port());
  REQUIRE(phone.hello("", token2)["type"] == "welcome");

  Answer list = get(ts.port(), "/api/account/sessions", a.token());
  REQUIRE(list.status == 200);
  REQUIRE(list.body["sessions"].size() == 2);
  std::string phone_id;
  for (const auto& s : list.body["sessions"]) {
    CHECK(s["connected"] == true);
    CHECK(s["id"].get<std::string>().size() == 16);
    if (s["current"] == true) {
      CHECK(s["label"] == "first device");
    } else {
      CHECK(s["label"] == "phone");
      phone_id = s["id"];
    }
  }
  REQUIRE(!phone_id.empty());
  // Another player cannot revoke it.
  WsClient eve(ts.port());
  eve.hello("eve");
  CHECK(call(ts.port(), http::verb::delete_, "/api/account/sessions/" + phone_id, eve.token()).status == 404);

  Answer revoked = call(ts.port(), http::verb::delete_, "/api/account/sessions/" + phone_id, a.token());
  REQUIRE(revoked.status == 200);
  CHECK(phone.expect("error")["code"] == "session_revoked");
  CHECK(phone.wait_closed(5s));
  WsClient again(ts.port());
  CHECK(again.hello("", token2)["code"] == "bad_token");
  CHECK(get(ts.port(), "/api/account", token2).status == 401);
  CHECK(get(ts.port(), "/api/account/sessions", a.token()).body["sessions"].size() == 1);
  // The laptop stays.
  CHECK(a.call({{"type", "ping"}})["type"] == "pong");

  // Signing out revokes the session that asks.
  CHECK(post(ts.port(), "/api/account/signout", a.token()).status == 200);
  CHECK(a.wait_closed(5s));
  CHECK(get(ts.port(), "/api/account", a.token()).status == 401);
}

TEST_CASE("accounts: a device link code signs in another device once, and not after it expired") {
  TestServer ts;
  WsClient a(ts.port());
  a.hello("ann");
  // A guest has one device.
  CHECK(post(ts.port(), "/api/account/device-codes", a.token()).body["error"] == "not_claimed");
  REQUIRE(post(ts.port(), "/api/account/claim", a.token(), {{"handle", "ann_code"}}).status == 200);
  Answer code = post(ts.port(), "/api/account/device-codes", a.token());
  REQUIRE(code.status == 200);
  const std::string shown = code.body["code"];
  REQUIRE(shown.size() == 9);
  CHECK(shown[4] == '-');
  CHECK(code.body["expires_in"] == 300);
  for (char c : shown) CHECK(std::string("ABCDEFGHJKMNPQRSTUVWXYZ23456789-").find(c) != std::string::npos);

  // Typed in lower case without the dash.
  std::string typed;
  for (char c : shown) {
    if (c != '-') typed += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  Answer redeemed = post(ts.port(), "/api/account/device-codes/redeem", "", {{"code", typed}, {"label", "tablet"}});
  REQUIRE_MESSAGE(redeemed.status == 200, redeemed.body.dump());
  CHECK(redeemed.body["player_id"] == a.player_id);
  WsClient tablet(ts.port());
  CHECK(tablet.hello("", redeemed.body["token"].get<std::string>())["player_id"] == a.player_id);
  // Single use.
  CHECK(post(ts.port(), "/api/account/device-codes/redeem", "", {{"code", shown}}).body["error"] == "bad_code");
  CHECK(post(ts.port(), "/api/account/device-codes/redeem", "", {{"code", "nonsense"}}).status == 401);

  // A code past its time: the server's own expiry check refuses it.
  const std::string old_code = "ABCDEFGH";
  const std::int64_t now = casa::server::Store::now();
  std::atomic<bool> stored{false};
  ts.server->lobby().store().write(
      [&](casa::server::Db& db) {
        casa::server::account_rows::add_device_code(db, casa::sha256_hex(old_code), a.player_id, now - 400, now - 100);
      },
      [&](bool ok) { stored = ok; });
  for (int i = 0; i < 1000 && !stored; ++i) std::this_thread::sleep_for(10ms);
  REQUIRE(stored);
  CHECK(post(ts.port(), "/api/account/device-codes/redeem", "", {{"code", old_code}}).body["error"] == "bad_code");
}

TEST_CASE("accounts: sign-in and code attempts are rate limited per handle and per address, handles not told") {
  TestServer ts([](casa::server::Config& c) { c.trusted_proxies = {"127.0.0.1"}; });
  WsClient a(ts.port());
  a.hello("ann");
  REQUIRE(post(ts.port(), "/api/account/claim", a.token(), {{"handle", "ann_rl"}, {"password", "password1"}}).status == 200);
  auto from = [](const std::string& address) { return std::map<std::string, std::string>{{"X-Forwarded-For", address}}; };

  // An unknown handle and a wrong password: the same answer.
  Answer unknown = post(ts.port(), "/api/account/signin", "", {{"handle", "nobody_here"}, {"password", "password1"}},
                        from("10.0.0.1"));
  Answer wrong = post(ts.port(), "/api/account/signin", "", {{"handle", "ann_rl"}, {"password", "password2"}},
                      from("10.0.0.2"));
  CHECK(unknown.status == 401);
  CHECK(unknown.body == wrong.body);

  // Per address: ten handles (existing or not), then the address waits.
  for (int i = 1; i < 10; ++i) {
    CHECK(post(ts.port(), "/api/account/signin", "", {{"handle", "h" + std::to_string(100 + i)}, {"password", "password1"}},
               from("10.0.0.1"))
              .status == 401);
  }
  Answer by_address =
      post(ts.port(), "/api/account/signin", "", {{"handle", "fresh_one"}, {"password", "password1"}}, from("10.0.0.1"));
  CHECK(by_address.status == 429);
  CHECK(by_address.body["error"] == "rate_limited");
  CHECK(std::stoi(by_address.headers["Retry-After"]) > 0);

  // Per handle: ten attempts from ten addresses, then even the right password waits.
  for (int i = 1; i < 10; ++i) {
    CHECK(post(ts.port(), "/api/account/signin", "", {{"handle", "ann_rl"}, {"password", "nope-nope"}},
               from("10.1.0." + std::to_string(i)))
              .status == 401);
  }
  Answer limited = post(ts.port(), "/api/account/signin", "", {{"handle", "Ann_RL"}, {"password", "password1"}},
                        from("10.2.0.1"));
  CHECK(limited.status == 429);
  CHECK(limited.body["error"] == "rate_limited");
  // Another handle from that address is not held up.
  CHECK(post(ts.port(), "/api/account/signin", "", {{"handle", "other_one"}, {"password", "password1"}}, from("10.2.0.1"))
            .status == 401);

  // Redeem attempts per address.
  for (int i = 0; i < 10; ++i) {
    CHECK(post(ts.port(), "/api/account/device-codes/redeem", "", {{"code", "AAAA-AAAA"}}, from("10.3.0.1")).status == 401);
  }
  CHECK(post(ts.port(), "/api/account/device-codes/redeem", "", {{"code", "AAAA-AAAA"}}, from("10.3.0.1")).status == 429);
  // Another address is not held up.
  CHECK(post(ts.port(), "/api/account/device-codes/redeem", "", {{"code", "AAAA-AAAA"}}, from("10.3.0.2")).status == 401);
}

TEST_CASE("accounts: a ban closes every device of the account and keeps its name from new guests") {
  TestServer ts([](casa::server::Config& c) { c.admin_token = "admin-secret-token"; });
  WsClient a(ts.port());
  a.hello("mal");
  REQUIRE(post(ts.port(), "/api/account/claim", a.token(), {{"handle", "Mallory"}, {"password", "password1"}}).status == 200);
  const std::string token2 =
      post(ts.port(), "/api/account/signin", "", {{"handle", "mallory"}, {"password", "password1"}}).body["token"];
  WsClient phone(ts.port());
  REQUIRE(phone.hello("", token2)["type"] == "welcome");

  Answer banned = post(ts.port(), "/api/admin/accounts/MALLORY/ban", "admin-secret-token", {{"reason", "cheating"}});
  REQUIRE_MESSAGE(banned.status == 200, banned.body.dump());
  CHECK(banned.body["player_id"] == a.player_id);
  CHECK(a.expect("error")["code"] == "banned");
  CHECK(phone.expect("error")["code"] == "banned");
  CHECK(a.wait_closed(5s));
  CHECK(phone.wait_closed(5s));
  WsClient back(ts.port());
  CHECK(back.hello("", token2)["code"] == "banned");
  CHECK(get(ts.port(), "/api/account", a.token()).status == 403);
  CHECK(post(ts.port(), "/api/account/signin", "", {{"handle", "mallory"}, {"password", "password1"}}).status == 403);
  CHECK(post(ts.port(), "/api/admin/accounts/nobody/ban", "admin-secret-token", {{"reason", "x"}}).status == 404);

  // A banned guest's name (or a look-alike) is taken by no new guest.
  WsClient g(ts.port());
  g.hello("trudy");
  REQUIRE(post(ts.port(), "/api/admin/players/" + g.player_id + "/ban", "admin-secret-token", {{"reason", "spam"}}).status ==
          200);
  WsClient n(ts.port());
  CHECK(n.hello("Trudy")["code"] == "name_taken");
  CHECK(n.hello("trudence")["type"] == "welcome");
  WsClient n2(ts.port());
  CHECK(n2.hello("trudy")["code"] == "name_taken");
  // Lifted: the name is free again.
  REQUIRE(call(ts.port(), http::verb::delete_, "/api/admin/players/" + g.player_id + "/ban", "admin-secret-token").status ==
          200);
  CHECK(n2.hello("trudy")["type"] == "welcome");
}

TEST_CASE("accounts: a bot account is flagged as a bot") {
  TestServer ts;
  WsClient a(ts.port());
  a.hello("botty");
  Answer claimed = post(ts.port(), "/api/account/claim", a.token(), {{"handle", "deep_casa"}, {"bot", true}});
  REQUIRE(claimed.status == 200);
  CHECK(claimed.body["is_bot"] == true);
  CHECK(get(ts.port(), "/api/account", a.token()).body["is_bot"] == true);
  CHECK(post(ts.port(), "/api/account/claim", a.token(), {{"handle", "x"}, {"bot", "yes"}}).status == 400);
}

TEST_CASE("accounts: sessions survive a restart; the guest's first token is a session") {
  TestServer ts;
  std::string token, token2, player;
  {
    WsClient a(ts.port());
    a.hello("ann");
    token = a.token();
    player = a.player_id;
    REQUIRE(post(ts.port(), "/api/account/claim", token, {{"handle", "ann_rs"}, {"password", "password1"}}).status == 200);
    token2 = post(ts.port(), "/api/account/signin", "", {{"handle", "ann_rs"}, {"password", "password1"}}).body["token"];
  }
  ts.restart();
  WsClient a(ts.port()), b(ts.port());
  CHECK(a.hello("", token)["player_id"] == player);
  CHECK(b.hello("", token2)["player_id"] == player);
  CHECK(get(ts.port(), "/api/account", token2).body["handle"] == "ann_rs");
  WsClient c(ts.port());
  CHECK(c.hello("Ann_RS")["code"] == "name_taken");
}
