#!/usr/bin/env bash
# A single-node Kubernetes on this machine (docs/adr/030), in a network and mount namespace of its own.
#   cluster.sh up           provision (first run builds it) and start it; Ctrl-C stops it and frees everything
#   cluster.sh kubectl ...  kubectl against it (as its administrator)
#   cluster.sh helm ...     helm against it (the provisioned helm)
#   cluster.sh smoke        a pod serving HTTP behind a Service, found through cluster DNS by another pod;
#                           every object of the chart admitted by the API server (a server-side dry run)
#   cluster.sh test         make cluster-test: the chart installed, used, upgraded and removed (cluster-test.mjs)
#   cluster.sh wait         until a cluster that is starting is up
#   cluster.sh down         stop a cluster started in another terminal
# CLUSTER_DATA (default .data/cluster) holds its state: certificates, etcd, images, logs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DATA=$(mkdir -p "${CLUSTER_DATA:-$ROOT/.data/cluster}" && cd "${CLUSTER_DATA:-$ROOT/.data/cluster}" && pwd)
K8S=$ROOT/.tools/kubernetes

running() { [ -f "$DATA/cluster.pid" ] && kill -0 "$(cat "$DATA/cluster.pid")" 2>/dev/null; }
in_cluster() {
  running || { echo "no cluster is running (make cluster)" >&2; exit 1; }
  nsenter -t "$(cat "$DATA/cluster.pid")" -n -m --wd="$PWD" "$@"
}
kubectl() { in_cluster "$K8S/bin/kubectl" --kubeconfig "$DATA/kubeconfig/super-admin.conf" "$@"; }
# Until the cluster that is starting says it is up (node.sh writes `ready` last), at most 3 minutes.
wait_up() {
  for _ in $(seq 1 180); do
    [ -f "$DATA/ready" ] && running && return 0
    sleep 1
  done
  echo "the cluster did not come up (logs: $DATA/logs)" >&2
  return 1
}

case "${1:-up}" in
  up)
    running && { echo "a cluster is already running on $DATA" >&2; exit 1; }
    [ "$(id -u)" = 0 ] || { echo "make cluster needs root (namespaces, mounts, iptables)" >&2; exit 1; }
    bash "$ROOT/scripts/provision.sh" kubernetes
    exec unshare -n -m --propagation private bash "$ROOT/scripts/cluster/node.sh" "$DATA" "$K8S"
    ;;
  wait) wait_up ;;
  test) shift; exec node "$ROOT/scripts/cluster/cluster-test.mjs" "$@" ;;
  kubectl) shift; kubectl "$@" ;;
  helm)
    shift
    # Provisioning talks on stderr: stdout is helm's alone (cluster.sh smoke pipes a template into kubectl).
    bash "$ROOT/scripts/provision.sh" helm >&2
    in_cluster "$ROOT/.tools/bin/helm" --kubeconfig "$DATA/kubeconfig/super-admin.conf" "$@"
    ;;
  down) running && kill "$(cat "$DATA/cluster.pid")"; for _ in $(seq 1 20); do running || exit 0; sleep 0.5; done; exit 1 ;;
  smoke)
    wait_up
    t0=$(date +%s)
    kubectl delete -f "$ROOT/scripts/cluster/smoke.yaml" --ignore-not-found --wait >/dev/null
    kubectl apply -f "$ROOT/scripts/cluster/smoke.yaml" >/dev/null
    kubectl wait --for=condition=Ready pod/smoke-web --timeout=60s >/dev/null
    kubectl wait --for=jsonpath='{.status.phase}'=Succeeded pod/smoke-client --timeout=60s >/dev/null
    out=$(kubectl logs smoke-client)
    grep -q '^Name:.*smoke-web.default.svc.cluster.local' <<<"$out" || { echo "smoke: cluster DNS did not answer: $out" >&2; exit 1; }
    grep -qx 'hello from smoke-web' <<<"$out" || { echo "smoke: the Service did not answer: $out" >&2; exit 1; }
    kubectl delete -f "$ROOT/scripts/cluster/smoke.yaml" --wait >/dev/null
    echo "smoke: a pod served HTTP behind a Service, found through cluster DNS by another pod ($(($(date +%s) - t0)) s)"
    # Every object of the chart, as the API server would admit it (schemas, defaults, admission).
    t0=$(date +%s)
    # (helm install --dry-run=server only lets the chart look things up; kubectl's sends every object.)
     "$0" helm template qm-smoke "$ROOT/charts/quartermaster" --validate | kubectl apply --dry-run=server -f - >"$DATA/smoke-chart.txt"
    echo "smoke: the API server admits all $(wc -l <"$DATA/smoke-chart.txt") objects of charts/quartermaster ($(($(date +%s) - t0)) s)"
    ;;
  *) sed -n '2,11p' "$0" >&2; exit 2 ;;
esac
