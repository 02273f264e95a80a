// SPDX-License-Identifier: AGPL-3.0-or-later
// Server settings: every flag has an environment variable (CASA_<FLAG> in upper
// case with '_' for '-', e.g. --max-frame-bytes / CASA_MAX_FRAME_BYTES) and a key
// of the same name in the configuration file (--config PATH / CASA_CONFIG, TOML,
// docs/casa-server.example.toml). Flags win over the environment, which wins
// over the file, which wins over the defaults below.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace casa::server {

struct Config {
  std::string address = "0.0.0.0";
  int port = 8080;  // 0: any free port (tests)
  std::string db = "./casa.db";
  std::string web_dir;  // "": the default places (see find_web_dir in server/http/http.h); "off": none
  // "full": a commit is fsync'd before anyone hears of it (survives a power
  // cut). "normal": not fsync'd (survives kill -9, not a power cut).
  std::string durability = "full";
  // SQLite: the WAL's size in 4 KB pages at which it is copied into the
  // database file (server/store/store.h, WalLimits).
  int wal_checkpoint_pages = 1000;
  std::string log_level = "info";
  std::string log_format = "text";  // "text": spdlog's lines; "json": one object per line (server/ops/log.h)
  std::string tls_cert;  // both set: serve wss:// and https:// only
  std::string tls_key;
  int threads = 2;

  // Limits.
  std::size_t max_frame_bytes = 64 * 1024;
  double rate_per_second = 20;  // token bucket refill
  double rate_burst = 40;       // token bucket size
  std::size_t max_write_queue = 1024;  // queued outgoing messages per connection
  // Bytes queued for one connection and not yet taken by its socket (messages,
  // pongs, pings, close frames): past this the connection is dropped.
  std::size_t max_write_bytes = 1024 * 1024;
  int write_timeout_seconds = 30;  // a write the peer does not take for this long drops it
  // Origins a browser's WebSocket upgrade may come from ("https://host:port",
  // exactly). Empty: only the server's own host (Origin's host:port == Host).
  std::vector<std::string> allowed_origins;
  // Passkeys (docs/accounts.md#passkeys): the WebAuthn relying party id (a
  // registrable domain, e.g. "casa.example.org") and the exact origins whose
  // pages may register and use them. Empty: the request's host name, and
  // https:// on the request's Host (http:// too for localhost).
  std::string passkey_rp_id;
  std::vector<std::string> passkey_origins;
  int idle_timeout_seconds = 300;
  int handshake_timeout_seconds = 10;
  // SIGTERM (or SIGINT) drains: /healthz answers 503, new WebSocket sessions are
  // refused, the commits in flight finish, every client is told to reconnect,
  // and the process exits 0 once its sockets are closed, or after this bound.
  int drain_seconds = 10;
  int max_connections_per_address = 64;
  // Every table a player makes the server open counts here: create_table,
  // rematch, and each table of their duplicate events (docs/security.md).
  int max_tables_per_player = 8;
  // Duplicate events: boards per event, and the games (boards x tables) of a
  // player's unfinished events not played yet.
  int max_event_boards = 32;
  int max_event_games_per_player = 64;
  // New players (hello without a token) per client address per hour.
  int players_per_address_per_hour = 30;
  // Wrong invite codes per client address per minute, then no invite is
  // looked up for that address until the bucket refills.
  int invite_guesses_per_minute = 20;
  // How long an invitation to a rated event waits for its answer.
  int invitation_seconds = 600;
  int finished_table_ttl_seconds = 600;  // finished tables kept in memory for rematch

  // Dead tables (closed with table_closed). 0 turns a rule off.
  int creator_gone_seconds = 600;   // a waiting table whose creator is away this long
  int abandoned_table_seconds = 3600;  // a started table whose every human is away this long

  // Peers whose X-Forwarded-For / Forwarded header names the client's address
  // (for the per-address connection limit and the logs). Exact addresses.
  std::vector<std::string> trusted_proxies;
  // Searching bots ("strong"): they think on their own threads, never on a
  // table's or the network's. bot_threads bounds their CPU (0: none, "strong"
  // then plays as "robot"); when every thread is busy and bot_queue searches
  // wait, a bot plays the robot's move instead of waiting.
  int bot_threads = 1;
  int bot_queue = 4;
  int strong_ms = 200;  // thinking time per decision

  // Recompute every rating from the stored results, print a summary, exit
  // (docs/ratings.md). Run it with the server stopped.
  bool rebuild_ratings = false;

  // The admin API (/api/admin/..., docs/operations.md): off while both are
  // empty. The token file's first line is the token.
  std::string admin_token;
  std::string admin_token_file;
  // GET /metrics: open when empty, else only with "Authorization: Bearer <token>".
  std::string metrics_token;

  // Notifications outside the page (docs/server.md, "Notifications").
  // Operator webhooks: "json:URL" or "ntfy:URL", each gets every player's
  // notifications, signed with webhook_secret (required with them).
  std::vector<std::string> webhooks;
  std::string webhook_secret;
  // Networks (CIDR) a player's webhook may reach although they are loopback,
  // private, link-local or otherwise not public. None by default.
  std::vector<std::string> webhook_allow_networks;
  int max_webhooks_per_player = 5;  // 0: players configure none
  int webhook_queue = 100;          // deliveries waiting per receiver; past it new ones are dropped
  int webhook_attempts = 8;         // tries of one delivery before it is given up
  int webhook_backoff_ms = 1000;    // the first retry's delay, doubled after each failure (at most 1 h)
  int webhook_timeout_seconds = 10;  // connect, TLS, send and answer of one attempt
  std::string webhook_ca_file;       // PEM CAs for https webhooks; empty: the system's
  // The address players open the site at (https://casa.example.org): the links
  // notifications carry. Empty: links are paths (/table/ID).
  std::string public_url;

  std::string config_file;  // the file the settings were read from, if any
  // Cluster mode (docs/cluster.md): several nodes on one PostgreSQL database.
  // Empty: a single node. "auto": hostname-pid-xxxx.
  std::string node_id;
  int lease_seconds = 8;  // a table's lease; a dead node's tables move within it + 1 s

  bool testing = false;  // accept the engine's `deck` option and a `seed` on create_table
};

// Parses argv (after the environment). Returns an error sentence, or nullopt.
// Sets `help` when --help was given.
std::optional<std::string> parse_config(int argc, char** argv, Config& config, bool& help);
std::string config_usage();
// Every setting's name (the flag without "--"; the configuration file's key).
std::vector<std::string> config_names();
// Applies a TOML configuration file (every key a flag name). Returns an error
// naming the file and line, or nullopt.
std::optional<std::string> apply_config_file(const std::string& path, Config& config);
// Whether `db` names a PostgreSQL database (postgres:// or postgresql://).
bool is_postgres_uri(const std::string& db);

}  // namespace casa::server
