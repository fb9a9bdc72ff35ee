#!/usr/bin/env bash
# The single-node cluster's processes (docs/adr/030), run by cluster.sh inside a network and mount
# namespace of their own: its interfaces, routes, iptables rules, ports and mounts exist only there,
# and vanish with its last process. Usage: node.sh <data dir> <kubernetes tools dir>
set -euo pipefail
DATA=$1 K8S=$2
# stop() kills every process of this mount namespace: never the host's.
[ "$(readlink /proc/self/ns/mnt)" != "$(readlink /proc/1/ns/mnt)" ] || { echo "node.sh: run it through cluster.sh" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/scripts/versions.env"
export PATH=$K8S/bin:$PATH
P=$DATA/pki KC=$DATA/kubeconfig LOGS=$DATA/logs
# The node's address: pods reach the API server and cluster DNS here (127.0.0.1 is each pod's own).
NODE_IP=10.99.0.1
t0=$(date +%s)
say() { printf '\033[36m[cluster]\033[0m %s (%s s)\n' "$*" "$(($(date +%s) - t0))"; }

# Everything in this mount namespace, this script too, goes on any exit: the namespaces go with it.
stop() {
  trap - EXIT INT TERM
  say "stopping"
  local me; me=$(readlink /proc/self/ns/mnt)
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = $$ ] && continue
    [ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$me" ] && kill -9 "${p#/proc/}" 2>/dev/null || true
  done
  # Pods' cgroups are the host's (cgroup v1 is not namespaced): remove what the kubelet made.
  find /sys/fs/cgroup/*/kubepods -depth -type d -exec rmdir {} + 2>/dev/null || true
  rm -f "$DATA/cluster.pid" "$DATA/ready"
  exit 0
}
trap stop EXIT INT TERM

mkdir -p "$DATA/config/cni" "$LOGS"
# cluster.sh enters the namespaces through this process (kubectl, smoke) and stops it (down).
echo $$ > "$DATA/cluster.pid"
rm -f "$DATA/ready"
render() { sed -e "s|@DATA@|$DATA|g" -e "s|@KUBERNETES_VERSION@|$KUBERNETES_VERSION|g" "$ROOT/scripts/cluster/config/$1" > "$DATA/config/$2"; }
render containerd.toml containerd.toml
render cni.conflist cni/10-qm.conflist
render kubelet.yaml kubelet.yaml
render kube-proxy.yaml kube-proxy.yaml
render Corefile Corefile
render kubeadm.yaml kubeadm.yaml
echo "nameserver $NODE_IP" > "$DATA/config/resolv.conf"
# Certificates and kubeconfigs once per data directory, by kubeadm's own phases (no kubeadm init:
# it would run the control plane as static pods from images this machine cannot pull).
if [ ! -f "$KC/super-admin.conf" ]; then
  kubeadm init phase certs all --config "$DATA/config/kubeadm.yaml" >/dev/null
  kubeadm init phase kubeconfig all --config "$DATA/config/kubeadm.yaml" --kubeconfig-dir "$KC" >/dev/null
fi

ip link set lo up
ip link add qm0 type bridge && ip addr add "$NODE_IP/24" dev qm0 && ip link set qm0 up
# Services' ClusterIPs from the node itself (make cluster-test's requests), as a node's default route
# allows: kube-proxy's rules then send them on to a pod.
ip route add 10.96.0.0/16 dev qm0 src "$NODE_IP"
sysctl -qw net.ipv4.ip_forward=1

# Disowned: stop() ends them, and the shell need not report each.
start() { local name=$1; shift; "$@" >"$LOGS/$name.log" 2>&1 & disown; }
wait_for() {
  local what=$1; shift
  for _ in $(seq 1 120); do "$@" >/dev/null 2>&1 && { say "$what ready"; return 0; }; sleep 1; done
  say "$what did not become ready (log: $LOGS)"; return 1
}
kubectl() { command kubectl --kubeconfig "$KC/super-admin.conf" "$@"; }
ctr() { command ctr --address "$DATA/containerd.sock" -n k8s.io "$@"; }

start etcd etcd --name qm --data-dir "$DATA/etcd" \
  --listen-client-urls https://127.0.0.1:2379 --advertise-client-urls https://127.0.0.1:2379 \
  --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
  --initial-cluster qm=http://127.0.0.1:2380 --listen-metrics-urls http://127.0.0.1:2381 \
  --cert-file "$P/etcd/server.crt" --key-file "$P/etcd/server.key" --trusted-ca-file "$P/etcd/ca.crt" \
  --client-cert-auth
wait_for etcd curl -sf http://127.0.0.1:2381/health

start kube-apiserver kube-apiserver --advertise-address=$NODE_IP --secure-port=6443 \
  --etcd-servers=https://127.0.0.1:2379 --etcd-cafile="$P/etcd/ca.crt" \
  --etcd-certfile="$P/apiserver-etcd-client.crt" --etcd-keyfile="$P/apiserver-etcd-client.key" \
  --client-ca-file="$P/ca.crt" --tls-cert-file="$P/apiserver.crt" --tls-private-key-file="$P/apiserver.key" \
  --kubelet-client-certificate="$P/apiserver-kubelet-client.crt" \
  --kubelet-client-key="$P/apiserver-kubelet-client.key" --kubelet-preferred-address-types=InternalIP \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$P/sa.pub" --service-account-signing-key-file="$P/sa.key" \
  --service-cluster-ip-range=10.96.0.0/16 --authorization-mode=Node,RBAC \
  --enable-admission-plugins=NodeRestriction --allow-privileged=true \
  --proxy-client-cert-file="$P/front-proxy-client.crt" --proxy-client-key-file="$P/front-proxy-client.key" \
  --requestheader-client-ca-file="$P/front-proxy-ca.crt" --requestheader-allowed-names=front-proxy-client \
  --requestheader-extra-headers-prefix=X-Remote-Extra- --requestheader-group-headers=X-Remote-Group \
  --requestheader-username-headers=X-Remote-User
wait_for kube-apiserver kubectl get --raw /readyz
# What kubeadm init would bind: the API server may read pods' logs and exec into them through kubelets.
kubectl create clusterrolebinding qm:apiserver-kubelet --clusterrole=system:kubelet-api-admin \
  --user=kube-apiserver-kubelet-client --dry-run=client -o yaml | kubectl apply -f - >/dev/null

start kube-controller-manager kube-controller-manager --kubeconfig="$KC/controller-manager.conf" \
  --authentication-kubeconfig="$KC/controller-manager.conf" --authorization-kubeconfig="$KC/controller-manager.conf" \
  --cluster-signing-cert-file="$P/ca.crt" --cluster-signing-key-file="$P/ca.key" --root-ca-file="$P/ca.crt" \
  --service-account-private-key-file="$P/sa.key" --use-service-account-credentials=true \
  --controllers='*,bootstrapsigner,tokencleaner' --service-cluster-ip-range=10.96.0.0/16 \
  --bind-address=127.0.0.1
start kube-scheduler kube-scheduler --kubeconfig="$KC/scheduler.conf" \
  --authentication-kubeconfig="$KC/scheduler.conf" --authorization-kubeconfig="$KC/scheduler.conf" \
  --bind-address=127.0.0.1

start containerd containerd --config "$DATA/config/containerd.toml"
wait_for containerd ctr version
# No registry is reachable: every image is built here and imported under the name it was built
# with (docs/adr/030): images/<name>_<tag>.oci.tar holds localhost/qm/<name>:<tag>. The chart's images
# (make cluster-images) are in .tools/images when built. Importing them all takes most of a minute on a
# fresh data directory, so one this containerd already holds with the same manifest is left as it is.
have=$(ctr images ls | awk 'NR > 1 { print $1 "@" $3 }')
for image in "$K8S"/images/*.oci.tar "$DATA"/images/*.oci.tar "$ROOT"/.tools/images/*.oci.tar; do
  [ -f "$image" ] || continue
  ref=${image##*/}; ref=${ref%.oci.tar}; ref=localhost/qm/${ref%%_*}:${ref#*_}
  digest=$(tar -xOf "$image" --occurrence=1 index.json | grep -m1 -o 'sha256:[0-9a-f]\{64\}') || true
  grep -qxF "$ref@$digest" <<<"$have" || ctr images import "$image" >/dev/null
done
say "images: $(ctr images ls -q | grep -v '@\|^sha256:' | tr '\n' ' ')"

start kubelet kubelet --kubeconfig="$KC/kubelet.conf" --config="$DATA/config/kubelet.yaml" \
  --node-ip=$NODE_IP --hostname-override=qm-node --root-dir="$DATA/kubelet"
start kube-proxy kube-proxy --config="$DATA/config/kube-proxy.yaml" --hostname-override=qm-node
start coredns coredns -conf "$DATA/config/Corefile"
node_ready() { [ "$(kubectl get node qm-node -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" = True ]; }
wait_for "node qm-node" node_ready
# A new cluster's controllers make each namespace's default service account a moment later; pods wait for it.
wait_for "service accounts" kubectl get serviceaccount default -n default
touch "$DATA/ready"
say "Kubernetes $KUBERNETES_VERSION is up: scripts/cluster/cluster.sh kubectl get nodes; Ctrl-C stops it"
# Until a signal: a read that never returns (a FIFO this process holds both ends of).
rm -f "$DATA/.hold" && mkfifo "$DATA/.hold"
read -r _ <>"$DATA/.hold" || true
