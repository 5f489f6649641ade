#!/usr/bin/env bash
# Builds the Dockerfile with buildah and checks the image end to end:
#   1. base images made locally with debootstrap from Debian's packages (no
#      registry is reachable): debian:bookworm-slim (minbase) and
#      golang:1.26-bookworm (minbase + gcc + this machine's Go toolchain,
#      modules served from this machine's module cache), both cached;
#   2. buildah bud of the Dockerfile as it is (storage driver vfs);
#   3. the image run as its non-root user (uid 10001) with the data
#      directory on a volume (a host directory), JOIND_USERS set;
#   4. psql from outside the container connects with SCRAM-SHA-256 (a wrong
#      password is refused), creates and fills a table;
#   5. the container is stopped (SIGTERM) and run again on the same volume:
#      the rows are still there.
# Needs root, buildah, debootstrap, psql. Containers run with chroot isolation:
# crun cannot create cgroups on a hybrid cgroup host (CI's).
# Cache: $JOIND_IMAGE_CACHE
# (default /var/cache/joind-image); storage under it too, so reruns reuse
# the base images. Port: $JOIND_IMAGE_PORT (default 56399).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH

cache="${JOIND_IMAGE_CACHE:-/var/cache/joind-image}"
port="${JOIND_IMAGE_PORT:-56399}"
mkdir -p "$cache"
# vfs: works without overlay support (nested containers, CI).
bah=(buildah --storage-driver vfs --root "$cache/storage" --runroot "$cache/run")
start=$(date +%s)
step() { echo "== [$(($(date +%s) - start))s] $*"; }

for tool in buildah debootstrap psql go; do
	command -v "$tool" >/dev/null || { echo "image-test: $tool is missing" >&2; exit 1; }
done

# rootfs DIR [PACKAGES]: a debootstrapped Debian bookworm, made once.
rootfs() {
	local dir="$1" include="${2:-}"
	if [ ! -f "$dir/.complete" ]; then
		rm -rf "$dir"
		debootstrap --variant=minbase ${include:+--include="$include"} bookworm "$dir" http://deb.debian.org/debian >"$dir.log" 2>&1 ||
			{ tail -20 "$dir.log"; exit 1; }
		rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
		touch "$dir/.complete"
	fi
}

# image NAME DIR [ENV...]: the rootfs DIR committed as image NAME.
image() {
	local name="$1" dir="$2"
	shift 2
	if "${bah[@]}" inspect --type image "$name" >/dev/null 2>&1; then return; fi
	local ctr mnt
	ctr=$("${bah[@]}" from scratch)
	mnt=$("${bah[@]}" mount "$ctr")
	cp -a "$dir"/. "$mnt"/
	rm -f "$mnt/.complete"
	"${bah[@]}" umount "$ctr" >/dev/null
	for e in "$@"; do "${bah[@]}" config --env "$e" "$ctr"; done
	"${bah[@]}" config --cmd /bin/bash "$ctr"
	"${bah[@]}" commit -q "$ctr" "$name" >/dev/null
	"${bah[@]}" rm "$ctr" >/dev/null
}

step "base images (debootstrap, cached in $cache)"
rootfs "$cache/bookworm" &
p1=$!
rootfs "$cache/bookworm-build" gcc,libc6-dev,ca-certificates,git &
p2=$!
wait $p1
wait $p2
image debian:bookworm-slim "$cache/bookworm"
if ! "${bah[@]}" inspect --type image golang:1.26-bookworm >/dev/null 2>&1; then
	# The build stage's Go: this machine's toolchain; its modules: this
	# machine's module cache as a file proxy (go.sum still verifies them).
	go mod download
	rm -rf "$cache/bookworm-build/usr/local/go" "$cache/bookworm-build/opt/goproxy"
	cp -a "$(go env GOROOT)" "$cache/bookworm-build/usr/local/go"
	mkdir -p "$cache/bookworm-build/opt"
	cp -a "$(go env GOMODCACHE)/cache/download" "$cache/bookworm-build/opt/goproxy"
	image golang:1.26-bookworm "$cache/bookworm-build" \
		PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		GOPATH=/go GOPROXY=file:///opt/goproxy GOSUMDB=off GOTOOLCHAIN=local
fi

step "buildah bud (the Dockerfile as it is)"
"${bah[@]}" bud --pull=never --network host --isolation chroot --layers -q -t joind:test \
	--build-arg VERSION="$(git describe --always --dirty 2>/dev/null || echo dev)" . >/dev/null

vol="$cache/volume"
rm -rf "$vol"
mkdir -p "$vol"
chown 10001:10001 "$vol"
ctr=$("${bah[@]}" from --pull=never joind:test)
trap '"${bah[@]}" rm "$ctr" >/dev/null 2>&1 || true; kill "${server:-}" 2>/dev/null || true' EXIT

uid=$("${bah[@]}" run --isolation chroot "$ctr" -- id -u)
[ "$uid" = 10001 ] || { echo "image-test: the image runs as uid $uid, not 10001" >&2; exit 1; }

serve() {
	"${bah[@]}" run --isolation chroot --network host -v "$vol:/var/lib/joind" \
		--env JOIND_LISTEN="127.0.0.1:$port" --env JOIND_USERS=app:secret \
		--env JOIND_HBA="host all all 0.0.0.0/0 scram-sha-256" \
		"$ctr" -- /usr/local/bin/joind >"$cache/server.log" 2>&1 &
	server=$!
	for _ in $(seq 100); do
		if PGPASSWORD=secret psql -X -h 127.0.0.1 -p "$port" -U app -d app -Atc "SELECT 1" >/dev/null 2>&1; then return; fi
		sleep 0.2
	done
	cat "$cache/server.log"
	echo "image-test: joind in the container did not answer" >&2
	exit 1
}
stop() {
	kill -TERM "$server"
	wait "$server" || true
}
sql() { PGPASSWORD=secret psql -X -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U app -d app -Atc "$1"; }

step "run as uid $uid, data on a volume; psql with SCRAM from outside"
serve
if PGPASSWORD=wrong psql -X -h 127.0.0.1 -p "$port" -U app -d app -Atc "SELECT 1" >/dev/null 2>"$cache/wrong.err"; then
	echo "image-test: a wrong password was accepted" >&2
	exit 1
fi
grep -q 'password authentication failed for user "app"' "$cache/wrong.err"
sql "CREATE TABLE image_t (id int, name text)"
sql "INSERT INTO image_t SELECT g, 'row ' || g FROM generate_series(1, 1000) g"
[ "$(sql "SELECT count(*) FROM image_t")" = 1000 ]
owner=$(stat -c %u "$vol/MANIFEST")
[ "$owner" = 10001 ] || { echo "image-test: data written as uid $owner" >&2; exit 1; }

step "restart on the same volume"
stop
serve
got=$(sql "SELECT count(*), sum(id) FROM image_t")
[ "$got" = "1000|500500" ] || { echo "image-test: after restart: $got" >&2; exit 1; }
stop
step "ok: image built, served psql with SCRAM as uid 10001, kept its data across a restart"
