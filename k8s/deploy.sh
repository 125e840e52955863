#!/usr/bin/env bash
# Releases one overlay: the migration Job first (applied, awaited, its logs shown if it fails), then
# webhook-dispatcher (awaited), messaging (awaited), then the rest of the application, then waits for every Deployment's rollout. Needs kubectl and a context on the target cluster.
#   k8s/deploy.sh dev|production
# MIGRATE_TIMEOUT (seconds, default 900) and ROLLOUT_TIMEOUT (default 10m) bound the waits.
set -euo pipefail

overlay="${1:?usage: k8s/deploy.sh dev|production}"
dir="$(cd "$(dirname "$0")" && pwd)/overlays/$overlay"
[ -d "$dir/migrate" ] || { echo "no overlay $dir (with a migrate/ folder)" >&2; exit 2; }

migrate_manifests="$(kubectl kustomize "$dir/migrate")"
ns="$(printf '%s\n' "$migrate_manifests" | awk '$1 == "namespace:" { print $2; exit }')"
[ -n "$ns" ] || { echo "could not tell the namespace of $dir/migrate" >&2; exit 2; }

# An overlay that does not generate the Secret (production) expects it to exist already.
if ! printf '%s\n' "$migrate_manifests" | grep -q '^kind: Secret$'; then
  if ! kubectl -n "$ns" get secret bm-secrets >/dev/null 2>&1; then
    echo "Secret bm-secrets missing in namespace $ns: create it first (k8s/overlays/production/secret.example.yaml)" >&2
    exit 1
  fi
fi

# A Job's pod template cannot be changed: the previous release's Job goes first.
if kubectl get namespace "$ns" >/dev/null 2>&1; then
  kubectl -n "$ns" delete job migrate --ignore-not-found --wait=true
fi
printf '%s\n' "$migrate_manifests" | kubectl apply -f -

echo "waiting for the migrations (job/migrate in $ns)"
deadline=$((SECONDS + ${MIGRATE_TIMEOUT:-900}))
while :; do
  state="$(kubectl -n "$ns" get job migrate \
    -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type} {end}')"
  case "$state" in
    *Complete*) echo "migrations applied"; break ;;
    *Failed*)
      kubectl -n "$ns" logs job/migrate --all-containers --prefix --tail=200 >&2 || true
      echo "migrations failed: the application was not touched" >&2
      exit 1
      ;;
  esac
  if [ "$SECONDS" -ge "$deadline" ]; then
    kubectl -n "$ns" logs job/migrate --all-containers --prefix --tail=200 >&2 || true
    echo "migrations did not finish in time: the application was not touched" >&2
    exit 1
  fi
  sleep 3
done

# Consumers before producers: webhook-dispatcher binds and reads every routing key the other services may start
# publishing in this release (message.status_updated.direct, say), and messaging every key webhook-ingress may
# (inbound.statuses, its receipts in batches), so their new pods replace the old ones before any producer's new
# pod publishes such a key. To roll back, go the other way: the producers first.
for first in webhook-dispatcher messaging; do
  kubectl apply -k "$dir" -l "app.kubernetes.io/name=$first"
  for deployment in $(kubectl -n "$ns" get deployments -l "app.kubernetes.io/name=$first" -o name); do
    kubectl -n "$ns" rollout status "$deployment" --timeout="${ROLLOUT_TIMEOUT:-10m}"
  done
done
kubectl apply -k "$dir"
for deployment in $(kubectl -n "$ns" get deployments -l app.kubernetes.io/part-of=business-messaging -o name); do
  kubectl -n "$ns" rollout status "$deployment" --timeout="${ROLLOUT_TIMEOUT:-10m}"
done
echo "released $overlay to namespace $ns"
