# syntax=docker/dockerfile:1
# casa-server and the casa client in a small Debian 12 image.
#   docker build -t casa-server .
#   docker run -d -p 8080:8080 -v casa-data:/data casa-server
# See docs/self-hosting.md. docker/check.sh runs the same build steps without Docker.

# ---- build: the toolchain and -dev packages, a Release build of the two binaries ----
FROM debian:12 AS build
WORKDIR /src
# The package list lives in scripts/deps.sh (the same one a bare-metal build uses);
# copied alone first so this layer is reused until the list changes.
COPY scripts/deps.sh scripts/deps.sh
RUN scripts/deps.sh && rm -rf /var/lib/apt/lists/*
COPY . .
# The ccache directory is a BuildKit cache: rebuilds after a small change are quick.
RUN --mount=type=cache,target=/root/.cache/ccache \
    docker/build.sh /src /build \
 && strip /build/server/casa-server /build/clients/cli/casa

# ---- runtime: only the shared libraries the binaries need ----
FROM debian:12-slim AS runtime
COPY docker/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
 && grep -v '^#' /tmp/runtime-packages.txt \
    | xargs env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
 && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt \
 && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home casa \
 && mkdir -p /data && chown casa:casa /data
COPY --from=build /build/server/casa-server /build/clients/cli/casa /usr/local/bin/
COPY docker/healthcheck.sh /usr/local/bin/casa-healthcheck

# Every flag of casa-server also reads CASA_<FLAG> (casa-server --help lists them).
ENV CASA_ADDRESS=0.0.0.0 \
    CASA_PORT=8080 \
    CASA_DB=/data/casa.db \
    CASA_LOG_LEVEL=info
# The database (and its -wal / -shm files) live on this volume.
VOLUME ["/data"]
WORKDIR /data
USER casa
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["casa-healthcheck"]
ENTRYPOINT ["casa-server"]
