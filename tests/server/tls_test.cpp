// SPDX-License-Identifier: AGPL-3.0-or-later
// TLS: with a certificate and key the server speaks only wss:// and https://.
// The test makes a throw-away self-signed certificate with the openssl command.
#include <doctest/doctest.h>

#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>

#include <cstdlib>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

// Writes cert.pem and key.pem into `dir`; false when openssl failed.
bool make_certificate(const std::filesystem::path& dir) {
  const std::string command = "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost -keyout '" +
                              (dir / "key.pem").string() + "' -out '" + (dir / "cert.pem").string() +
                              "' >/dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

// A client context that trusts exactly the test's certificate.
ssl::context client_context(const std::filesystem::path& dir) {
  ssl::context ctx(ssl::context::tls_client);
  ctx.load_verify_file((dir / "cert.pem").string());
  ctx.set_verify_mode(ssl::verify_peer);
  return ctx;
}

}  // namespace

TEST_CASE("TLS: wss:// carries the protocol, https:// the health check, plain ws:// is refused") {
  const auto certs = temp_dir("tls");
  REQUIRE_MESSAGE(make_certificate(certs), "openssl could not make a test certificate");
  TestServer ts([&](casa::server::Config& c) {
    c.tls_cert = (certs / "cert.pem").string();
    c.tls_key = (certs / "key.pem").string();
  });
  const auto endpoint = tcp::endpoint(asio::ip::make_address("127.0.0.1"), ts.port());

  SUBCASE("a WebSocket over TLS says hello and gets a welcome") {
    asio::io_context io;
    ssl::context ctx = client_context(certs);
    beast::websocket::stream<beast::ssl_stream<beast::tcp_stream>> ws(io, ctx);
    beast::get_lowest_layer(ws).connect(endpoint);
    ws.next_layer().handshake(ssl::stream_base::client);
    ws.handshake("localhost", "/ws");
    ws.text(true);
    ws.write(asio::buffer(json{{"type", "hello"}, {"version", 1}, {"name", "tess"}}.dump()));
    beast::flat_buffer buffer;
    ws.read(buffer);
    const json welcome = json::parse(beast::buffers_to_string(buffer.data()));
    CHECK(welcome["type"] == "welcome");
    CHECK_FALSE(welcome["token"].get<std::string>().empty());
  }

  SUBCASE("GET /healthz over https answers 200") {
    asio::io_context io;
    ssl::context ctx = client_context(certs);
    beast::ssl_stream<beast::tcp_stream> stream(io, ctx);
    beast::get_lowest_layer(stream).connect(endpoint);
    stream.handshake(ssl::stream_base::client);
    beast::http::request<beast::http::empty_body> req{beast::http::verb::get, "/healthz", 11};
    req.set(beast::http::field::host, "localhost");
    beast::http::write(stream, req);
    beast::flat_buffer buffer;
    beast::http::response<beast::http::string_body> res;
    beast::http::read(stream, buffer, res);
    CHECK(res.result_int() == 200);
    CHECK(json::parse(res.body())["status"] == "ok");
  }

  SUBCASE("a plain WebSocket upgrade to the TLS port fails") {
    CHECK_THROWS(WsClient(ts.port()));
  }

  std::error_code ec;
  std::filesystem::remove_all(certs, ec);
}
