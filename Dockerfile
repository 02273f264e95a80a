# syntax=docker/dockerfile:1
# SPDX-License-Identifier: AGPL-3.0-or-later
# casa-server, the casa client and the web client in a small Debian 12 image.
#   docker build -t casa-server .
#   docker run -d -p 8080:8080 -v casa-data:/data casa-server
# See docs/self-hosting.md (also: building with podman, and without an image registry).

# ---- build: the toolchain and -dev packages, a Release build of the two binaries ----
FROM debian:12 AS build
WORKDIR /src
# The package list lives in scripts/deps.sh (the same one a bare-metal build uses);
# copied alone first so this layer is reused until the list changes.
COPY scripts/deps.sh scripts/deps.sh
RUN scripts/deps.sh && rm -rf /var/lib/apt/lists/*
COPY . .
# The compiler cache is a build cache mount (BuildKit, podman/buildah): a rebuild
# after a small change recompiles only what changed. CCACHE_DIR may point elsewhere
# (podman build -v HOST_DIR:/ccache --build-arg CCACHE_DIR=/ccache keeps it in a
# directory of the host).
ARG CCACHE_DIR=/root/.cache/ccache
RUN --mount=type=cache,target=/root/.cache/ccache \
    CCACHE_DIR="$CCACHE_DIR" CCACHE_MAXSIZE=2G docker/build.sh /src /build \
 && strip /build/server/casa-server /build/clients/cli/casa

# ---- wasm: the replay checks and the game review with the rules engine as --------
# WebAssembly, for the web client's replay page (scripts/build-wasm.sh): Debian's
# clang 14 for wasm32-wasi.
FROM debian:12 AS wasm
WORKDIR /src
COPY scripts/deps.sh scripts/deps.sh
RUN scripts/deps.sh wasm && rm -rf /var/lib/apt/lists/*
COPY CMakeLists.txt ./
COPY cmake/ cmake/
COPY engine/ engine/
COPY protocol/ protocol/
COPY verify/ verify/
COPY review/ review/
COPY scripts/build-wasm.sh scripts/build-wasm.sh
ARG CCACHE_DIR=/root/.cache/ccache
RUN --mount=type=cache,target=/root/.cache/ccache \
    CCACHE_DIR="$CCACHE_DIR" scripts/build-wasm.sh

# ---- web: the browser client (clients/web), built with Debian's Node.js 18 and npm ----
# (Vite 6: docs/dependencies.md, "Node.js").
FROM debian:12 AS web
WORKDIR /src/clients
COPY clients/ ./
# The replay page links to how deals are proved fair (clients/web/scripts/docs.mjs).
COPY docs/fair-play.md /src/docs/fair-play.md
# The page's message types are generated from the protocol's schemas (npm run gen).
COPY protocol/schemas/ /src/protocol/schemas/
COPY --from=wasm /src/clients/web/src/wasm/ web/src/wasm/
# Without clients/web/package.json there is nothing to build and /out stays empty.
# NPM_CAFILE: a CA bundle (mounted into the build) for networks whose proxy
# re-signs TLS, e.g. podman build -v /etc/ssl/certs/ca-certificates.crt:/host-ca.pem:ro
# --build-arg NPM_CAFILE=/host-ca.pem (see docs/self-hosting.md).
ARG NPM_CAFILE=
RUN mkdir -p /out \
 && if [ -f web/package.json ]; then \
      apt-get update \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs npm \
      && cd web \
      && npm ci --no-audit --no-fund ${NPM_CAFILE:+--cafile "$NPM_CAFILE"} \
      && npm run build && cp -a dist/. /out/ ; \
    fi

# ---- runtime: only the shared libraries the binaries need ----
FROM debian:12-slim AS runtime
# The image's labels (OCI annotations). scripts/test-image.sh passes the version of
# CMakeLists.txt's project(), the commit and the repository's address:
#   docker build --build-arg CASA_VERSION=1.0.0 --build-arg CASA_REVISION=$(git rev-parse HEAD) \
#     --build-arg CASA_SOURCE=https://your.git.host/casa-server .
ARG CASA_VERSION=unknown
ARG CASA_REVISION=unknown
ARG CASA_SOURCE=unknown
LABEL org.opencontainers.image.title="casa-server" \
      org.opencontainers.image.description="La Casa table server: a self-hostable multiplayer card-game server with its browser client" \
      org.opencontainers.image.version="$CASA_VERSION" \
      org.opencontainers.image.revision="$CASA_REVISION" \
      org.opencontainers.image.source="$CASA_SOURCE" \
      org.opencontainers.image.licenses="AGPL-3.0-or-later"
COPY docker/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
 && grep -v '^#' /tmp/runtime-packages.txt \
    | sed 's/#.*//' | xargs env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log \
    /tmp/runtime-packages.txt \
 && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home casa \
 && mkdir -p /data && chown casa:casa /data
COPY --from=build /build/server/casa-server /build/clients/cli/casa /usr/local/bin/
COPY docker/healthcheck.sh /usr/local/bin/casa-healthcheck
COPY --from=web /out/ /usr/share/casa/web/
# The licence, and the notices of the third-party code compiled into the files above.
COPY LICENSE THIRD-PARTY-NOTICES /usr/share/doc/casa-server/

# Every flag of casa-server also reads CASA_<FLAG> (casa-server --help lists them).
ENV CASA_ADDRESS=0.0.0.0 \
    CASA_PORT=8080 \
    CASA_DB=/data/casa.db \
    CASA_LOG_LEVEL=info \
    CASA_WEB_DIR=/usr/share/casa/web
# The database (and its -wal file while the server runs; no -shm) lives on this volume.
VOLUME ["/data"]
WORKDIR /data
USER casa
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["casa-healthcheck"]
ENTRYPOINT ["casa-server"]
