// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/ops/config.h"
#include "server/ops/command_line.h"

#include <toml++/toml.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace casa::server {

namespace {

struct Flag {
  const char* name;  // without "--"
  const char* help;
  std::function<void(Config&, const std::string&)> set;
};

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  for (char ch : s + ",") {
    if (ch == ',') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else if (ch != ' ') {
      item += ch;
    }
  }
  return out;
}

int to_int(const std::string& s) {
  std::size_t used = 0;
  const int v = std::stoi(s, &used);
  if (used != s.size()) throw std::invalid_argument(s);
  return v;
}

const std::vector<Flag>& flags() {
  static const std::vector<Flag> all = {
      {"address", "listen address (0.0.0.0)", [](Config& c, const std::string& v) { c.address = v; }},
      {"port", "listen port, 0 for any (8080)", [](Config& c, const std::string& v) { c.port = to_int(v); }},
      {"db", "the database: a SQLite file path, or postgres://user@host:port/name for PostgreSQL "
             "(./casa.db)", [](Config& c, const std::string& v) { c.db = v; }},
      {"web-dir", "built web client to serve at / (off: none; default: ../share/casa/web beside the binary, "
                  "else ./clients/web/dist)",
       [](Config& c, const std::string& v) { c.web_dir = v; }},
      {"durability", "full: fsync every commit before acknowledging it; normal: survive a crash of "
                     "the process, not a power cut (full)",
       [](Config& c, const std::string& v) {
         if (v != "full" && v != "normal") throw std::invalid_argument(v);
         c.durability = v;
       }},
      {"wal-checkpoint-pages", "SQLite: the write-ahead log's size in 4 KB pages at which it is copied into "
                               "the database file; larger: fewer pauses, more disk, a longer start after a crash (1000)",
       [](Config& c, const std::string& v) { c.wal_checkpoint_pages = to_int(v); }},
      {"log-level", "trace|debug|info|warn|error (info)", [](Config& c, const std::string& v) { c.log_level = v; }},
      {"log-format", "text: plain lines; json: one JSON object per line with time, level, message, "
                     "and table and player when the line is about one (text)",
       [](Config& c, const std::string& v) {
         if (v != "text" && v != "json") throw std::invalid_argument(v);
         c.log_format = v;
       }},
      {"tls-cert", "PEM certificate chain: serve TLS only", [](Config& c, const std::string& v) { c.tls_cert = v; }},
      {"tls-key", "PEM private key", [](Config& c, const std::string& v) { c.tls_key = v; }},
      {"threads", "network threads, each its own event loop with its share of connections and tables (2)", [](Config& c, const std::string& v) { c.threads = to_int(v); }},
      {"max-frame-bytes", "largest WebSocket message (65536)",
       [](Config& c, const std::string& v) { c.max_frame_bytes = static_cast<std::size_t>(to_int(v)); }},
      {"rate-per-second", "messages per second per connection (20)",
       [](Config& c, const std::string& v) { c.rate_per_second = std::stod(v); }},
      {"rate-burst", "message burst per connection (40)",
       [](Config& c, const std::string& v) { c.rate_burst = std::stod(v); }},
      {"max-write-queue", "queued outgoing messages before a slow reader is dropped (1024)",
       [](Config& c, const std::string& v) { c.max_write_queue = static_cast<std::size_t>(to_int(v)); }},
      {"max-write-bytes", "bytes queued for one connection (messages, pongs) before it is dropped (1048576)",
       [](Config& c, const std::string& v) { c.max_write_bytes = static_cast<std::size_t>(to_int(v)); }},
      {"write-timeout-seconds", "drop a connection that takes none of its queued bytes for this long (30)",
       [](Config& c, const std::string& v) { c.write_timeout_seconds = to_int(v); }},
      {"allowed-origins", "comma-separated Origins (scheme://host[:port]) browsers may open WebSockets from; "
                          "none: the server's own host only",
       [](Config& c, const std::string& v) { c.allowed_origins = split_list(v); }},
      {"passkey-rp-id", "the domain passkeys belong to (WebAuthn rpId); unset: the request's host name",
       [](Config& c, const std::string& v) { c.passkey_rp_id = v; }},
      {"passkey-origins", "comma-separated origins (scheme://host[:port]) whose pages may use passkeys; "
                          "unset: https:// on the request's Host (and http:// for localhost)",
       [](Config& c, const std::string& v) { c.passkey_origins = split_list(v); }},
      {"idle-timeout-seconds", "close silent connections after (300)",
       [](Config& c, const std::string& v) { c.idle_timeout_seconds = to_int(v); }},
      {"handshake-timeout-seconds", "time allowed for the upgrade and hello (10)",
       [](Config& c, const std::string& v) { c.handshake_timeout_seconds = to_int(v); }},
      {"drain-seconds", "on SIGTERM, the longest wait for clients to go before exiting (10)",
       [](Config& c, const std::string& v) { c.drain_seconds = to_int(v); }},
      {"max-connections-per-address", "open connections per client address (64)",
       [](Config& c, const std::string& v) { c.max_connections_per_address = to_int(v); }},
      {"max-tables-per-player", "unfinished tables one player may create (8)",
       [](Config& c, const std::string& v) { c.max_tables_per_player = to_int(v); }},
      {"max-event-boards", "boards one duplicate event may have (32)",
       [](Config& c, const std::string& v) { c.max_event_boards = to_int(v); }},
      {"max-event-games-per-player", "games of one player's unfinished events not played yet (64)",
       [](Config& c, const std::string& v) { c.max_event_games_per_player = to_int(v); }},
      {"players-per-address-per-hour", "new players one client address may register per hour (30)",
       [](Config& c, const std::string& v) { c.players_per_address_per_hour = to_int(v); }},
      {"invite-guesses-per-minute", "wrong invite codes one client address may try per minute (20)",
       [](Config& c, const std::string& v) { c.invite_guesses_per_minute = to_int(v); }},
      {"invitation-seconds", "how long an invitation to a rated event waits for its answer (600)",
       [](Config& c, const std::string& v) { c.invitation_seconds = to_int(v); }},
      {"finished-table-ttl-seconds",
       "keep finished tables loaded for rematch, resync and players owed the game_over, also "
       "across a restart (600)",
       [](Config& c, const std::string& v) { c.finished_table_ttl_seconds = to_int(v); }},
      {"creator-gone-seconds", "close a waiting table whose creator left or is away this long; 0 = never (600)",
       [](Config& c, const std::string& v) { c.creator_gone_seconds = to_int(v); }},
      {"abandoned-table-seconds", "close a started table whose every human is away this long; 0 = never (3600)",
       [](Config& c, const std::string& v) { c.abandoned_table_seconds = to_int(v); }},
      {"trusted-proxies", "comma-separated proxy addresses whose X-Forwarded-For / Forwarded is believed (none)",
       [](Config& c, const std::string& v) { c.trusted_proxies = split_list(v); }},
      {"bot-threads", "threads for searching bots such as strong; 0: none (1)",
       [](Config& c, const std::string& v) { c.bot_threads = to_int(v); }},
      {"bot-queue", "searches that may wait for a bot thread before bots play robot (4)",
       [](Config& c, const std::string& v) { c.bot_queue = to_int(v); }},
      {"strong-ms", "thinking time of the strong bot per decision, ms (200)",
       [](Config& c, const std::string& v) { c.strong_ms = to_int(v); }},
      {"rebuild-ratings", "recompute every rating from the stored results, then exit (true|false)",
       [](Config& c, const std::string& v) { c.rebuild_ratings = v == "1" || v == "true" || v.empty(); }},
      {"config", "TOML file of settings, each under its flag name (docs/casa-server.example.toml)",
       [](Config& c, const std::string& v) { c.config_file = v; }},
      {"admin-token", "bearer token of the admin API /api/admin/...; unset: the admin API is off",
       [](Config& c, const std::string& v) { c.admin_token = v; }},
      {"admin-token-file", "file whose first line is the admin token (instead of --admin-token)",
       [](Config& c, const std::string& v) { c.admin_token_file = v; }},
      {"metrics-token", "bearer token GET /metrics asks for; unset: /metrics is open",
       [](Config& c, const std::string& v) { c.metrics_token = v; }},
      {"webhooks", "comma-separated operator webhooks json:URL or ntfy:URL, each told every "
                   "notification (none)",
       [](Config& c, const std::string& v) { c.webhooks = split_list(v); }},
      {"webhook-secret", "HMAC-SHA256 key the operator webhooks' deliveries are signed with",
       [](Config& c, const std::string& v) { c.webhook_secret = v; }},
      {"webhook-allow-networks", "comma-separated CIDR networks players' webhooks may reach although "
                                 "not public, e.g. 127.0.0.0/8 (none)",
       [](Config& c, const std::string& v) { c.webhook_allow_networks = split_list(v); }},
      {"max-webhooks-per-player", "webhooks one player may configure; 0: none (5)",
       [](Config& c, const std::string& v) { c.max_webhooks_per_player = to_int(v); }},
      {"webhook-queue", "deliveries waiting per webhook before new ones are dropped (100)",
       [](Config& c, const std::string& v) { c.webhook_queue = to_int(v); }},
      {"webhook-attempts", "tries of one delivery before it is given up (8)",
       [](Config& c, const std::string& v) { c.webhook_attempts = to_int(v); }},
      {"webhook-backoff-ms", "delay before a delivery's first retry, doubled after each failure up to 1 h (1000)",
       [](Config& c, const std::string& v) { c.webhook_backoff_ms = to_int(v); }},
      {"webhook-timeout-seconds", "time one delivery attempt may take (10)",
       [](Config& c, const std::string& v) { c.webhook_timeout_seconds = to_int(v); }},
      {"webhook-ca-file", "PEM certificate authorities https webhooks are checked against; unset: the system's",
       [](Config& c, const std::string& v) { c.webhook_ca_file = v; }},
      {"public-url", "the address players open the site at, for the links in notifications (none: paths only)",
       [](Config& c, const std::string& v) { c.public_url = v; }},
      {"node-id", "this node's id in a cluster on PostgreSQL (letters, digits, - and _; auto: "
                  "hostname-pid-xxxx); empty: a single node",
       [](Config& c, const std::string& v) { c.node_id = v; }},
      {"lease-seconds", "a table's lease in a cluster: a dead node's tables move to another within it (8)",
       [](Config& c, const std::string& v) { c.lease_seconds = to_int(v); }},
      {"testing", "accept stacked decks and fixed seeds (true|false)",
       [](Config& c, const std::string& v) { c.testing = v == "1" || v == "true" || v.empty(); }},
  };
  return all;
}

std::string env_name(const std::string& flag) {
  std::string out = "CASA_";
  for (char ch : flag) out += ch == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return out;
}

bool is_switch(const std::string& name) { return name == "testing" || name == "rebuild-ratings"; }

const Flag* find_flag(const std::string& name) {
  for (const auto& f : flags()) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

// A TOML value as the text a flag would carry: strings as they are, numbers and
// booleans spelled out, an array of strings joined with commas (trusted-proxies).
std::optional<std::string> toml_text(const toml::node& v) {
  if (auto s = v.as_string()) return s->get();
  if (auto i = v.as_integer()) return std::to_string(i->get());
  if (auto f = v.as_floating_point()) {
    std::ostringstream out;
    out << f->get();
    return out.str();
  }
  if (auto b = v.as_boolean()) return b->get() ? "true" : "false";
  if (auto a = v.as_array()) {
    std::string out;
    for (const auto& item : *a) {
      auto s = item.as_string();
      if (!s) return std::nullopt;
      if (!out.empty()) out += ",";
      out += s->get();
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> config_names() {
  std::vector<std::string> out;
  for (const auto& f : flags()) out.emplace_back(f.name);
  return out;
}

std::optional<std::string> apply_config_file(const std::string& path, Config& config) {
  toml::table table;
  try {
    table = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    if (e.source().begin.line == 0) return path + ": cannot read: " + std::string(e.description());
    return path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description());
  }
  for (const auto& [key, value] : table) {
    const std::string name(key.str());
    const std::string where = path + ":" + std::to_string(key.source().begin.line) + ": ";
    const Flag* flag = find_flag(name);
    if (!flag) return where + "unknown setting '" + name + "'";
    if (name == "config") return where + "'config' names the file itself; it cannot be set inside one";
    const auto text = toml_text(value);
    if (!text) return where + "'" + name + "' needs a string, number or boolean";
    if (is_switch(name) && *text != "true" && *text != "false") {
      return where + "'" + name + "' is true or false";
    }
    try {
      flag->set(config, *text);
    } catch (const std::exception&) {
      return where + "bad value for '" + name + "': " + *text;
    }
  }
  config.config_file = path;
  return std::nullopt;
}

namespace {

constexpr const char* kUsageFooter =
    "usage: casa-server [--flag value]...\n"
    "       casa-server backup OUT.db [--db PATH]   (online copy of the SQLite database)\n"
    "       casa-server --version                   (prints casa-server VERSION (COMMIT))\n"
    "Settings come from the file (--config, or $CASA_CONFIG), then the environment\n"
    "(CASA_ and the flag's name, as shown), then the flags: a later one wins.";

// The command line: one option per setting, each keeping its text (`values`, in the
// order of flags()) for the setters to read once the file and the environment are in.
struct CommandLine {
  CLI::App app{"The La Casa table server (docs/server.md).", "casa-server"};
  std::vector<std::string> values;
  std::vector<CLI::Option*> given;
  CLI::App* backup = nullptr;
  std::string backup_out;
  bool version = false;

  CommandLine() {
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.footer(kUsageFooter);
    app.allow_extras();
    values.resize(flags().size());
    for (std::size_t i = 0; i < flags().size(); ++i) {
      const Flag& f = flags()[i];
      const std::string name = "--" + std::string(f.name);
      const std::string help = std::string(f.help) + "  [" + env_name(f.name) + "]";
      given.push_back(is_switch(f.name) ? app.add_flag(name, values[i], help)
                                        : app.add_option(name, values[i], help));
    }
    app.add_flag("--version", version, "print casa-server VERSION (COMMIT) and exit");
    // The flags of the server come after OUT.db too: --db, --config.
    backup = app.add_subcommand("backup", "an online copy of the SQLite database, checked")
                 ->fallthrough();
    backup->allow_extras();
    backup->add_option("OUT", backup_out, "the copy to write (OUT.db)");
  }
};

}  // namespace

std::string config_usage() {
  CommandLine line;
  return line.app.help();
}

std::optional<std::string> parse_config(int argc, char** argv, Config& config, bool& help) {
  ServerCommand command;
  auto err = parse_command_line(argc, argv, config, command);
  help = command.help;
  return err;
}

std::optional<std::string> parse_command_line(int argc, char** argv, Config& config,
                                              ServerCommand& command) {
  CommandLine line;
  try {
    line.app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    command.help = true;
    command.help_text = line.app.help();
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    return std::string(e.what());
  }
  for (const CLI::App* a : {line.backup, &line.app}) {
    const auto left = a->remaining();
    if (left.empty()) continue;
    if (left.front().rfind("-", 0) == 0) return "unknown flag " + left.front();
    return "unexpected argument " + left.front();
  }
  command.version = line.version;
  command.backup = line.backup->parsed();
  command.backup_out = line.backup_out;
  if (line.version) return std::nullopt;
  // The file first (the lowest of the three), named by --config or else CASA_CONFIG.
  std::string file;
  if (const char* v = std::getenv("CASA_CONFIG")) file = v;
  for (std::size_t i = 0; i < flags().size(); ++i) {
    if (std::string(flags()[i].name) == "config" && line.given[i]->count() > 0)
      file = line.values[i];
  }
  if (!file.empty()) {
    if (auto err = apply_config_file(file, config)) return err;
  }
  for (const auto& f : flags()) {
    if (std::string(f.name) == "config") continue;
    const std::string var = env_name(f.name);
    const char* v = std::getenv(var.c_str());
    if (!v) continue;
    try {
      f.set(config, v);
    } catch (const std::exception&) {
      return "bad value in the environment: " + var + "=" + v;
    }
  }
  // Then the flags, over both.
  for (std::size_t i = 0; i < flags().size(); ++i) {
    const Flag& f = flags()[i];
    if (line.given[i]->count() == 0 || std::string(f.name) == "config") continue;
    try {
      f.set(config, line.values[i]);
    } catch (const std::exception&) {
      return "bad value for --" + std::string(f.name) + ": " + line.values[i];
    }
  }
  if (config.admin_token.empty() && !config.admin_token_file.empty()) {
    std::ifstream in(config.admin_token_file);
    std::string line;
    if (!in || !std::getline(in, line)) return "cannot read the admin token file " + config.admin_token_file;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty()) return "the admin token file " + config.admin_token_file + " starts with an empty line";
    config.admin_token = line;
  }
  if (config.tls_cert.empty() != config.tls_key.empty()) return "--tls-cert and --tls-key go together";
  if (config.threads < 1) config.threads = 1;
  if (config.bot_threads < 0 || config.bot_threads > 256) return "--bot-threads must be from 0 to 256";
  if (config.wal_checkpoint_pages < 100 || config.wal_checkpoint_pages > 1000000)
    return "--wal-checkpoint-pages must be from 100 to 1000000";
  if (config.drain_seconds < 0 || config.drain_seconds > 3600) return "--drain-seconds must be from 0 to 3600";
  if (config.max_write_bytes < 4096) return "--max-write-bytes must be at least 4096";
  if (config.write_timeout_seconds < 1) return "--write-timeout-seconds must be 1 or more";
  if (config.invitation_seconds < 1) return "--invitation-seconds must be 1 or more";
  if (config.bot_queue < 0) return "--bot-queue must be 0 or more";
  if (config.strong_ms < 1 || config.strong_ms > 60000) return "--strong-ms must be from 1 to 60000";
  if (config.lease_seconds < 2 || config.lease_seconds > 3600) return "--lease-seconds must be from 2 to 3600";
  if (!config.node_id.empty()) {
    if (!is_postgres_uri(config.db)) return "--node-id needs a PostgreSQL --db (postgres://...)";
    if (config.node_id != "auto") {
      bool ok = config.node_id.size() <= 40;
      for (char ch : config.node_id) ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_');
      if (!ok) return "--node-id: 1 to 40 letters, digits, - or _";
    }
  }
  return std::nullopt;
}

bool is_postgres_uri(const std::string& db) {
  return db.rfind("postgres://", 0) == 0 || db.rfind("postgresql://", 0) == 0;
}

}  // namespace casa::server
