# syntax=docker/dockerfile:1
# joind container image.
#   docker build -t joind --build-arg VERSION=$(git describe --always) .
#   docker run -p 5433:5433 -v joind-data:/var/lib/joind -e JOIND_USERS=app:secret joind
#   psql "host=127.0.0.1 port=5433 user=app password=secret"
# Clients reach a container from outside its network namespace, so they are
# remote to joind: with no users configured joind trusts only local clients
# and refuses them. Set JOIND_USERS (SCRAM-SHA-256 by default) or, knowingly,
# JOIND_HBA="host all all 0.0.0.0/0 trust".
# Settings: flags after the image name (docker run joind --partitions 8) or
# JOIND_* environment variables (-e JOIND_MEMORY_LIMIT=4GiB); see --help.

FROM golang:1.26-bookworm AS build
WORKDIR /src
# Dependencies first, so source edits do not re-download modules.
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
ARG VERSION=dev
# cgo is required: pg_query_go embeds PostgreSQL's parser (C).
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=1 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X main.version=${VERSION}" \
      -o /out/joind ./cmd/joind

FROM debian:bookworm-slim
# A fixed non-root uid/gid, so volume ownership is predictable.
RUN groupadd --system --gid 10001 joind \
 && useradd --system --uid 10001 --gid joind --home-dir /var/lib/joind --shell /usr/sbin/nologin joind \
 && mkdir -p /var/lib/joind \
 && chown joind:joind /var/lib/joind
COPY --from=build /out/joind /usr/local/bin/joind
USER joind
VOLUME /var/lib/joind
EXPOSE 5433
# The defaults live in the environment rather than in CMD, so that extra
# flags given to `docker run` add to them instead of replacing them (flags
# still override them, -e overrides them too).
ENV JOIND_DATA_DIR=/var/lib/joind \
    JOIND_LISTEN=0.0.0.0:5433
# joind handles SIGTERM itself: running queries are cancelled and clients
# told 57P01 within --shutdown-timeout (docker stop waits 10s by default).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/joind"]
