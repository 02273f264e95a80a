# SPDX-License-Identifier: AGPL-3.0-or-later
# PostgreSQL 15 from Debian's packages, for docker/compose.cluster.yaml: one
# database (casa) that every casa-server node shares. Data in /var/lib/casa-pg.
FROM debian:12-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/*
COPY docker/postgres-entrypoint.sh /usr/local/bin/casa-postgres
USER postgres
VOLUME /var/lib/casa-pg
EXPOSE 5432
ENTRYPOINT ["/usr/local/bin/casa-postgres"]
