// SPDX-License-Identifier: AGPL-3.0-or-later
// Passkeys over HTTP (docs/accounts.md#passkeys) against a live server, on
// SQLite and, under ctest server_passkeys_postgres, PostgreSQL: a claimed
// player registers a passkey made by the test's authenticator, another device
// signs in with it as the same player; challenges are single use and belong to
// one ceremony and one player; every refusal leaves nothing behind.
#include <doctest/doctest.h>

#include <future>
#include <string>

#include "server/accounts/webauthn.h"
#include "server/store/passkey_rows.h"
#include "tests/server/support.h"
#include "tests/server/webauthn_authenticator.h"

using namespace casa::testing;
using nlohmann::json;
namespace http = boost::beast::http;
namespace wa = casa::server::webauthn;
namespace wt = casa::testing::webauthn;

namespace {

const std::string kAdminToken = "passkeys-admin-token-0123456789";

// A server whose relying party is the authenticator's (casa.example).
struct PasskeyServer : TestServer {
  PasskeyServer()
      : TestServer([](casa::server::Config& c) {
          c.passkey_rp_id = wt::kRpId;
          c.passkey_origins = {wt::kOrigin};
          c.admin_token = kAdminToken;
        }) {}
};

struct Answer {
  int status;
  json body;
};
Answer call(unsigned short port, http::verb verb, const std::string& target, const std::string& token = "",
            const json& body = nullptr) {
  auto [status, text] = http_call(port, verb, target, token, body.is_null() ? "" : body.dump());
  json parsed = json::parse(text, nullptr, false);
  return {status, parsed.is_discarded() ? json(text) : parsed};
}
Answer post(unsigned short port, const std::string& target, const std::string& token, const json& body = json::object()) {
  return call(port, http::verb::post, target, token, body);
}

// A guest who claimed `handle`: its WebSocket (kept open) and token.
struct Player {
  std::unique_ptr<WsClient> ws;
  std::string token, id;
};
Player claimed(unsigned short port, const std::string& handle) {
  Player p{std::make_unique<WsClient>(port), "", ""};
  auto welcome = p.ws->hello(handle);
  REQUIRE(welcome["type"] == "welcome");
  p.token = p.ws->token();
  p.id = p.ws->player_id;
  auto claim = post(port, "/api/account/claim", p.token, {{"handle", handle}});
  REQUIRE_MESSAGE(claim.status == 200, claim.body.dump());
  return p;
}

std::string b64(const std::string& bytes) { return wa::base64url_encode(bytes); }

// The challenge (raw bytes) of a ceremony's options.
std::string challenge_of(const Answer& options) {
  REQUIRE_MESSAGE(options.status == 200, options.body.dump());
  auto raw = wa::base64url_decode(options.body["publicKey"]["challenge"].get<std::string>());
  REQUIRE(raw);
  CHECK(raw->size() >= 16);
  return *raw;
}

json registration_body(const wt::Authenticator& a, const std::string& challenge, const std::string& label = "laptop",
                       const std::string& origin = wt::kOrigin) {
  auto reg = a.create(challenge, "none", origin);
  return {{"id", b64(a.credential_id)},
          {"label", label},
          {"response", {{"clientDataJSON", b64(reg.client)}, {"attestationObject", b64(reg.object)}}}};
}

json signin_body(const wt::Authenticator& a, const std::string& challenge, const std::string& user_handle) {
  auto got = a.get(challenge);
  return {{"id", b64(a.credential_id)},
          {"label", "phone"},
          {"response",
           {{"clientDataJSON", b64(got.client)},
            {"authenticatorData", b64(got.auth)},
            {"signature", b64(got.signature)},
            {"userHandle", b64(user_handle)}}}};
}

// Registers `a` for `p`; returns the answer.
Answer register_passkey(unsigned short port, const Player& p, const wt::Authenticator& a,
                        const std::string& label = "laptop") {
  auto challenge = challenge_of(post(port, "/api/account/passkeys/register/options", p.token));
  return post(port, "/api/account/passkeys/register", p.token, registration_body(a, challenge, label));
}

Answer sign_in(unsigned short port, const wt::Authenticator& a, const std::string& user_handle) {
  auto challenge = challenge_of(post(port, "/api/account/passkeys/signin/options", ""));
  return post(port, "/api/account/passkeys/signin", "", signin_body(a, challenge, user_handle));
}

}  // namespace

TEST_CASE("Passkeys: registered on one device, a passkey signs in another as the same player") {
  PasskeyServer ts;
  auto anna = claimed(ts.port(), "anna");

  auto options = post(ts.port(), "/api/account/passkeys/register/options", anna.token);
  REQUIRE_MESSAGE(options.status == 200, options.body.dump());
  const json& o = options.body["publicKey"];
  CHECK(o["rp"]["id"] == wt::kRpId);
  CHECK(o["user"]["id"] == b64(anna.id));
  CHECK(o["user"]["name"] == "anna");
  CHECK(o["attestation"] == "none");
  CHECK(o["authenticatorSelection"]["residentKey"] == "required");
  std::vector<int> algs;
  for (const auto& p : o["pubKeyCredParams"]) algs.push_back(p["alg"].get<int>());
  CHECK(algs == std::vector<int>{-7, -8, -257});

  for (int alg : wa::kAlgorithms) {
    CAPTURE(alg);
    wt::Authenticator laptop(alg, "laptop-" + std::to_string(alg));
    laptop.counter = 1;
    auto challenge = challenge_of(post(ts.port(), "/api/account/passkeys/register/options", anna.token));
    auto added = post(ts.port(), "/api/account/passkeys/register", anna.token,
                      registration_body(laptop, challenge, "laptop " + std::to_string(alg)));
    REQUIRE_MESSAGE(added.status == 200, added.body.dump());
    CHECK(added.body["passkey"]["id"] == b64(laptop.credential_id));
    CHECK(added.body["passkey"]["algorithm"] == alg);
    CHECK(added.body["passkey"]["last_used_at"] == 0);

    // Another device, signed in as no one: options with no account named.
    laptop.counter = 2;
    auto signin_options = post(ts.port(), "/api/account/passkeys/signin/options", "");
    CHECK(signin_options.body["publicKey"]["rpId"] == wt::kRpId);
    CHECK(signin_options.body["publicKey"]["allowCredentials"].empty());
    auto signed_in = post(ts.port(), "/api/account/passkeys/signin", "",
                          signin_body(laptop, challenge_of(signin_options), anna.id));
    REQUIRE_MESSAGE(signed_in.status == 200, signed_in.body.dump());
    CHECK(signed_in.body["player_id"] == anna.id);
    CHECK(signed_in.body["name"] == "anna");
    const std::string token = signed_in.body["token"];
    CHECK(token.size() == 64);
    CHECK(token != anna.token);

    // The new session says hello as anna, while the first device stays on.
    WsClient phone(ts.port());
    auto welcome = phone.hello("", token);
    REQUIRE(welcome["type"] == "welcome");
    CHECK(welcome["player_id"] == anna.id);
    auto account = call(ts.port(), http::verb::get, "/api/account", token);
    CHECK(account.body["handle"] == "anna");
    CHECK(call(ts.port(), http::verb::get, "/api/account", anna.token).status == 200);
  }

  // The list, with the counter and time of the last sign-in kept.
  auto list = call(ts.port(), http::verb::get, "/api/account/passkeys", anna.token);
  REQUIRE(list.status == 200);
  REQUIRE(list.body["passkeys"].size() == 3);
  for (const auto& p : list.body["passkeys"]) CHECK(p["last_used_at"].get<std::int64_t>() > 0);
  auto sessions = call(ts.port(), http::verb::get, "/api/account/sessions", anna.token);
  CHECK(sessions.body["sessions"].size() == 4);  // the first device and three sign-ins
}

TEST_CASE("Passkeys: a challenge is used once, for its own ceremony and player") {
  PasskeyServer ts;
  auto anna = claimed(ts.port(), "anna");
  auto bruno = claimed(ts.port(), "bruno");
  wt::Authenticator key(wa::kEs256, "anna-key");

  // The same registration twice: the second finds its challenge gone.
  auto challenge = challenge_of(post(ts.port(), "/api/account/passkeys/register/options", anna.token));
  auto body = registration_body(key, challenge);
  CHECK(post(ts.port(), "/api/account/passkeys/register", anna.token, body).status == 200);
  auto again = post(ts.port(), "/api/account/passkeys/register", anna.token, body);
  CHECK(again.status == 400);
  CHECK(again.body["error"] == "bad_challenge");

  // Anna's challenge finished by Bruno: refused, and used up for Anna too.
  wt::Authenticator other(wa::kEs256, "other-key");
  challenge = challenge_of(post(ts.port(), "/api/account/passkeys/register/options", anna.token));
  CHECK(post(ts.port(), "/api/account/passkeys/register", bruno.token, registration_body(other, challenge))
            .body["error"] == "bad_challenge");
  CHECK(post(ts.port(), "/api/account/passkeys/register", anna.token, registration_body(other, challenge))
            .body["error"] == "bad_challenge");

  // A registration challenge does not sign in, nor a sign-in challenge register.
  key.counter = 5;
  challenge = challenge_of(post(ts.port(), "/api/account/passkeys/register/options", anna.token));
  auto wrong = post(ts.port(), "/api/account/passkeys/signin", "", signin_body(key, challenge, anna.id));
  CHECK(wrong.body["error"] == "bad_challenge");
  challenge = challenge_of(post(ts.port(), "/api/account/passkeys/signin/options", ""));
  CHECK(post(ts.port(), "/api/account/passkeys/register", anna.token, registration_body(other, challenge))
            .body["error"] == "bad_challenge");

  // A sign-in replayed: the first gets a session, the copy nothing.
  key.counter = 6;
  challenge = challenge_of(post(ts.port(), "/api/account/passkeys/signin/options", ""));
  auto signin = signin_body(key, challenge, anna.id);
  CHECK(post(ts.port(), "/api/account/passkeys/signin", "", signin).status == 200);
  auto replay = post(ts.port(), "/api/account/passkeys/signin", "", signin);
  CHECK(replay.status == 400);
  CHECK(replay.body["error"] == "bad_challenge");

  // A challenge nobody issued.
  key.counter = 7;
  auto made_up = post(ts.port(), "/api/account/passkeys/signin", "", signin_body(key, std::string(32, 'x'), anna.id));
  CHECK(made_up.body["error"] == "bad_challenge");
}

TEST_CASE("Passkeys: refusals say why and change nothing") {
  PasskeyServer ts;
  auto anna = claimed(ts.port(), "anna");
  wt::Authenticator key(wa::kEs256, "anna-key");
  key.counter = 10;
  REQUIRE(register_passkey(ts.port(), anna, key).status == 200);

  SUBCASE("a page of another origin, an authenticator of another domain") {
    wt::Authenticator more(wa::kEs256, "more");
    auto challenge = challenge_of(post(ts.port(), "/api/account/passkeys/register/options", anna.token));
    auto evil = post(ts.port(), "/api/account/passkeys/register", anna.token,
                     registration_body(more, challenge, "x", "https://evil.example"));
    CHECK(evil.status == 400);
    CHECK(evil.body["error"] == "passkey_refused");
    CHECK(evil.body["reason"] == "wrong_origin");
    more.rp_id = "evil.example";
    auto elsewhere = register_passkey(ts.port(), anna, more);
    CHECK(elsewhere.body["reason"] == "wrong_rp_id");
    CHECK(call(ts.port(), http::verb::get, "/api/account/passkeys", anna.token).body["passkeys"].size() == 1);
  }
  SUBCASE("a counter that does not go up, a forged signature, an unknown passkey") {
    key.counter = 9;
    auto behind = sign_in(ts.port(), key, anna.id);
    CHECK(behind.status == 401);
    CHECK(behind.body["reason"] == "counter_went_back");
    wt::Authenticator impostor(wa::kEs256, "anna-key");  // the same id, another key
    impostor.counter = 11;
    CHECK(sign_in(ts.port(), impostor, anna.id).body["reason"] == "bad_signature");
    wt::Authenticator stranger(wa::kEs256, "nobody's");
    CHECK(sign_in(ts.port(), stranger, anna.id).body["reason"] == "unknown_passkey");
    key.counter = 11;
    CHECK(sign_in(ts.port(), key, "someone else").body["reason"] == "wrong_user");
    // None of them moved the stored counter: 11 still signs in.
    auto good = sign_in(ts.port(), key, anna.id);
    CHECK_MESSAGE(good.status == 200, good.body.dump());
  }
  SUBCASE("only a signed-in player with a handle registers") {
    CHECK(post(ts.port(), "/api/account/passkeys/register/options", "").status == 401);
    CHECK(post(ts.port(), "/api/account/passkeys/register/options", std::string(64, 'a')).status == 401);
    WsClient guest(ts.port());
    guest.hello("guest");
    auto options = post(ts.port(), "/api/account/passkeys/register/options", guest.token());
    CHECK(options.status == 409);
    CHECK(options.body["error"] == "not_claimed");
    CHECK(call(ts.port(), http::verb::get, "/api/account/passkeys").status == 401);
  }
  SUBCASE("malformed requests") {
    CHECK(post(ts.port(), "/api/account/passkeys/signin", "", json::array()).body["error"] == "bad_request");
    CHECK(post(ts.port(), "/api/account/passkeys/signin", "", {{"id", "!!"}, {"response", json::object()}})
              .body["error"] == "bad_request");
    auto not_json = post(ts.port(), "/api/account/passkeys/signin", "",
                         {{"id", "AA"},
                          {"response", {{"clientDataJSON", b64("{")}, {"authenticatorData", ""}, {"signature", ""}}}});
    CHECK(not_json.body["reason"] == "bad_client_data");
    auto garbage = post(ts.port(), "/api/account/passkeys/register", anna.token,
                        {{"id", "AA"}, {"response", {{"clientDataJSON", "AA"}, {"attestationObject", "AA"}}}});
    CHECK(garbage.status == 400);
    CHECK(call(ts.port(), http::verb::get, "/api/account/passkeys/signin").status == 405);
  }
  SUBCASE("removed, a passkey signs no one in; another player cannot remove it") {
    auto bruno = claimed(ts.port(), "bruno");
    const std::string id = b64(key.credential_id);
    CHECK(call(ts.port(), http::verb::delete_, "/api/account/passkeys/" + id, bruno.token).status == 404);
    auto removed = call(ts.port(), http::verb::delete_, "/api/account/passkeys/" + id, anna.token);
    CHECK(removed.status == 200);
    CHECK(removed.body["removed"] == true);
    CHECK(call(ts.port(), http::verb::get, "/api/account/passkeys", anna.token).body["passkeys"].empty());
    key.counter = 12;
    CHECK(sign_in(ts.port(), key, anna.id).body["reason"] == "unknown_passkey");
  }
  SUBCASE("a banned player's passkey opens no session") {
    auto ban = call(ts.port(), http::verb::post, "/api/admin/players/" + anna.id + "/ban", kAdminToken,
                    json{{"reason", "test"}});
    REQUIRE(ban.status == 200);
    key.counter = 12;
    auto refused = sign_in(ts.port(), key, anna.id);
    CHECK(refused.status == 403);
    CHECK(refused.body["error"] == "banned");
  }
  SUBCASE("the same passkey twice") {
    auto twice = register_passkey(ts.port(), anna, key);
    CHECK(twice.status == 409);
    CHECK(twice.body["error"] == "passkey_exists");
  }
}

TEST_CASE("Passkeys: without passkey settings, the relying party is the request's host") {
  TestServer ts;  // no passkey-rp-id: the Host header (127.0.0.1) names it
  auto anna = claimed(ts.port(), "anna");
  auto options = post(ts.port(), "/api/account/passkeys/register/options", anna.token);
  REQUIRE(options.status == 200);
  CHECK(options.body["publicKey"]["rp"]["id"] == "127.0.0.1");
  // The page's origin must then be https:// on that host: the test's
  // casa.example authenticator is refused.
  wt::Authenticator key(wa::kEs256, "k");
  auto refused = post(ts.port(), "/api/account/passkeys/register", anna.token,
                      registration_body(key, challenge_of(options)));
  CHECK(refused.body["reason"] == "wrong_origin");
}

TEST_CASE("Passkeys: an expired challenge is refused and forgotten (store)") {
  auto dir = temp_dir("passkey-rows");
  {
    casa::server::Store store(test_db(dir));
    namespace rows = casa::server::passkey_rows;
    auto write = [&](const std::function<void(casa::server::Db&)>& job) {
      std::promise<bool> done;
      store.write(job, [&](bool ok) { done.set_value(ok); });
      REQUIRE(done.get_future().get());
    };
    write([](casa::server::Db& db) {
      rows::add_challenge(db, "old", {"signin", "", 100}, 50);
      rows::add_challenge(db, "fresh", {"signin", "", 1000}, 50);
    });
    // Taken once, with its expiry for the caller to judge; then gone.
    std::optional<rows::Challenge> taken, again;
    write([&](casa::server::Db& db) {
      taken = rows::take_challenge(db, "fresh");
      again = rows::take_challenge(db, "fresh");
    });
    REQUIRE(taken);
    CHECK(taken->expires_at == 1000);
    CHECK_FALSE(again);
    // A new challenge at time 200 forgets the one that expired at 100.
    std::int64_t count = -1;
    write([&](casa::server::Db& db) { rows::add_challenge(db, "new", {"register", "p", 500}, 200); });
    store.read([&](casa::server::Db& db) { count = rows::challenge_count(db); });
    CHECK(count == 1);
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
