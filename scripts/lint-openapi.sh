#!/usr/bin/env bash
# Lints the OpenAPI document the gateway serves at /api/openapi.json with Redocly's linter (its recommended
# rules, redocly.yaml) and exits non-zero on any error or warning. The document is built from the compiled
# contracts, so run `pnpm build` first. The linter is installed once, pinned, into $BM_LINT_TOOLS (default
# ~/.cache/business-messaging/lint-tools).
set -euo pipefail
cd "$(dirname "$0")/.."

export BM_LINT_TOOLS="${BM_LINT_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/business-messaging/lint-tools}"
NPM_TOOLS=(@redocly/cli@2.77.0)
if [ "$(cat "$BM_LINT_TOOLS/.installed" 2>/dev/null || true)" != "${NPM_TOOLS[*]}" ]; then
  mkdir -p "$BM_LINT_TOOLS"
  npm install --prefix "$BM_LINT_TOOLS" --no-fund --no-audit --loglevel=error "${NPM_TOOLS[@]}"
  echo "${NPM_TOOLS[*]}" >"$BM_LINT_TOOLS/.installed"
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
node -e "
  const { buildOpenApiDocument } = require('./libs/contracts/dist');
  require('node:fs').writeFileSync(process.argv[1], JSON.stringify(buildOpenApiDocument(), null, 2));
" "$WORK/openapi.json"
# No telemetry and no update check: CI has no business calling out.
REDOCLY_SUPPRESS_UPDATE_NOTICE=true REDOCLY_TELEMETRY=off \
  "$BM_LINT_TOOLS/node_modules/.bin/redocly" lint "$WORK/openapi.json" --config redocly.yaml --max-problems 50
