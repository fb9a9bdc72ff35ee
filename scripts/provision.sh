#!/usr/bin/env bash
# Provisions the local infrastructure binaries once, into a cache outside the clone
# (default ~/.cache/quartermaster), and links them into ./.tools. Idempotent: a second
# run finds everything built and returns at once.
# Usage: provision.sh [all|nats|postgres|ferretdb|keycloak|helm|k6|chromium|schemathesis|zipkin|kubernetes]
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
oci_image() { # name tag dir command out: an image of dir's files running command (JSON), as an OCI archive
  local c; c=$(buildah from scratch)
  buildah copy "$c" "$3" / >/dev/null
  buildah config --entrypoint "$4" --cmd '[]' "$c"
  buildah commit -q --rm "$c" "localhost/qm/$1:$2" >/dev/null
  buildah push -q "localhost/qm/$1:$2" "oci-archive:$5:localhost/qm/$1:$2"
  buildah rmi -f "localhost/qm/$1:$2" >/dev/null
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

what=${1:-all}
case "$what" in
  all) nats; postgres; ferretdb; keycloak ;;
  chromium) install_chromium ;;
  nats|postgres|ferretdb|keycloak|helm|k6|schemathesis|zipkin|kubernetes) "$what" ;;
  *) echo "usage: provision.sh [all|nats|postgres|ferretdb|keycloak|helm|k6|chromium|schemathesis|zipkin|kubernetes]" >&2; exit 2 ;;
esac
