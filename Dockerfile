# One build of the whole workspace, then one small image per service:
#
#   docker build --target gateway            -t business-messaging/gateway .
#   docker build --target messaging          -t business-messaging/messaging .
#   docker build --target webhook-ingress    -t business-messaging/webhook-ingress .
#   docker build --target campaign           -t business-messaging/campaign .
#   docker build --target webhook-dispatcher -t business-messaging/webhook-dispatcher .
#   docker build --target upstream-sandbox   -t business-messaging/upstream-sandbox .
#   docker build --target migrate            -t business-messaging/migrate .
#
# Every service image runs `node services/<name>/dist/start.js` as uid 1000 and also holds that service's
# migrations (`node services/<name>/dist/migrate.js`); the migrate image runs every service's migrations in turn.
# The build stage is shared, so building several targets compiles the workspace once.

# The official Node.js image, pinned by tag to the version CI tests on (.node-version; validate-deploy checks that
# they agree).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
ENV CI=true
WORKDIR /repo
# pnpm at exactly the version pinned by packageManager (the same install .ci/run does).
COPY package.json ./
RUN npm install --global --no-fund --no-audit \
      "pnpm@$(node -p "require('./package.json').packageManager.split('@')[1]")" \
 && npm cache clean --force
# Dependencies first, keyed on the lockfile alone, so a source change does not download them again.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline \
 && pnpm build
# A self-contained directory per service: its dist, the workspace libraries it uses (with their dist) and its
# production dependencies only. Sources, tests and type declarations are dropped.
RUN set -eu; \
    for dir in services/*/; do \
      name="$(basename "$dir")"; \
      [ -f "services/$name/dist/start.js" ] || continue; \
      pnpm --filter "./services/$name" deploy --prod "/out/$name"; \
      rm -rf "/out/$name/src" "/out/$name/test" "/out/$name/tsconfig.json"; \
      find "/out/$name/dist" \( -name '*.d.ts' -o -name '*.map' -o -name '.tsbuildinfo' \) -delete; \
      if [ -f "/out/$name/dist/migrate.js" ]; then \
        mkdir -p /migrate/services && cp -al "/out/$name" "/migrate/services/$name"; \
      fi; \
    done

FROM ${NODE_IMAGE} AS runtime
ARG NODE_IMAGE
LABEL org.opencontainers.image.base.name="${NODE_IMAGE}"
ENV NODE_ENV=production
# The services need node alone: the package managers the base image carries are removed.
RUN rm -rf /usr/local/lib/node_modules /opt/yarn-* \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg
WORKDIR /app
# The code stays owned by root and read-only to the process; the process runs as the image's `node` user,
# given by number so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000

FROM runtime AS messaging
COPY --from=build /out/messaging /app/services/messaging
EXPOSE 3001
CMD ["node", "services/messaging/dist/start.js"]

FROM runtime AS webhook-ingress
COPY --from=build /out/webhook-ingress /app/services/webhook-ingress
EXPOSE 3002
CMD ["node", "services/webhook-ingress/dist/start.js"]

FROM runtime AS campaign
COPY --from=build /out/campaign /app/services/campaign
EXPOSE 3003
CMD ["node", "services/campaign/dist/start.js"]

FROM runtime AS webhook-dispatcher
COPY --from=build /out/webhook-dispatcher /app/services/webhook-dispatcher
EXPOSE 3004
CMD ["node", "services/webhook-dispatcher/dist/start.js"]

FROM runtime AS upstream-sandbox
COPY --from=build /out/upstream-sandbox /app/services/upstream-sandbox
EXPOSE 4010
CMD ["node", "services/upstream-sandbox/dist/start.js"]

# Every service that has migrations, one after another; each takes its own schema's advisory lock.
FROM runtime AS migrate
COPY --from=build /migrate /app
CMD ["sh", "-c", "set -e; for m in services/*/dist/migrate.js; do echo \"running $m\"; node \"$m\"; done"]

# Last, so that a plain `docker build .` gives the gateway.
FROM runtime AS gateway
COPY --from=build /out/gateway /app/services/gateway
# The dashboard's static build, served by the gateway under /dashboard (DASHBOARD_DIR's default path).
COPY --from=build /repo/services/dashboard/dist /app/services/dashboard/dist
EXPOSE 3000
CMD ["node", "services/gateway/dist/start.js"]
