# syntax=docker/dockerfile:1
# One image per deployable, all from this file:
#   docker build --build-arg TARGET=gateway  -t quartermaster/gateway .    (also carries the built frontends)
#   docker build --build-arg TARGET=identity -t quartermaster/identity .   (catalog, assistant, wallet, ...)
# Stages: manifests (package.json files only, for caching) -> deps (all dependencies) -> build (esbuild
# bundle <target>/dist/main.js, and the frontends for the gateway) | prod-deps (the target's production
# dependencies only) -> runtime (node, non-root, no npm).

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
WORKDIR /src

# Only the lockfile and every workspace's package.json: later stages stay cached until dependencies change.
FROM base AS manifests
COPY . /tmp/context
RUN cd /tmp/context \
 && find . -name node_modules -prune -o -name package.json -print | xargs -I{} cp --parents {} /src/ \
 && cp package-lock.json /src/ \
 && if [ -f .npmrc ]; then cp .npmrc /src/; fi

# npm ci insists that the lockfile lists every platform's optional binaries; a lockfile written where the
# registry serves only this platform's lacks them, so fall back to npm install, which keeps the locked
# versions (--no-save: the lockfile is not rewritten). Install scripts stay off, as in development.
FROM base AS deps
COPY --from=manifests /src /src
RUN --mount=type=cache,target=/root/.npm \
    npm ci --ignore-scripts \
 || npm install --ignore-scripts --no-save

FROM deps AS build
ARG TARGET
COPY . .
RUN test -n "$TARGET" || { echo 'build with --build-arg TARGET=gateway|identity|catalog|...' >&2; exit 1; }
RUN node scripts/bundle.mjs --strict "$TARGET"
RUN set -e; \
    dir=$([ "$TARGET" = gateway ] && echo gateway || echo "services/$TARGET"); \
    mkdir -p "/out/app/$TARGET/dist"; \
    cp "$dir/dist/main.js" "$dir/dist/main.js.map" "/out/app/$TARGET/dist/"; \
    if [ "$TARGET" = gateway ]; then \
      npm run build:frontends; \
      for d in frontends/*/; do \
        name=$(basename "$d"); \
        if [ -d "$d/dist" ]; then mkdir -p "/out/app/frontends/$name" && cp -r "$d/dist" "/out/app/frontends/$name/dist"; fi; \
      done; \
      test -d /out/app/frontends/shell/dist || { echo 'build:frontends made no frontends/shell/dist' >&2; exit 1; }; \
    fi

# The target's production dependencies: the hoisted ones in /app/node_modules, the target's own
# (version conflicts, e.g. express 5 beside a dev tool's express 4) in /app/<target>/node_modules, so
# dist/main.js resolves them exactly as in the repo.
FROM base AS prod-deps
ARG TARGET
COPY --from=manifests /src /src
RUN --mount=type=cache,target=/root/.npm \
    set -e; \
    dir=$([ "$TARGET" = gateway ] && echo gateway || echo "services/$TARGET"); \
    flags="--omit=dev --workspace $dir --include-workspace-root=false --ignore-scripts"; \
    npm ci $flags || npm install $flags --no-save; \
    rm -rf node_modules/@qm node_modules/.package-lock.json; \
    mkdir -p "/out/app/$TARGET"; \
    mv node_modules /out/app/node_modules; \
    if [ -d "$dir/node_modules" ]; then mv "$dir/node_modules" "/out/app/$TARGET/node_modules"; fi

FROM ${NODE_IMAGE} AS runtime
ARG TARGET
LABEL org.opencontainers.image.title="quartermaster-${TARGET}" \
      org.opencontainers.image.description="Quartermaster ${TARGET}"
# The app needs node only: drop npm, npx, corepack and yarn, and add the unprivileged user.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack /opt/yarn* \
           /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg \
 && groupadd --system --gid 10001 qm \
 && useradd --system --uid 10001 --gid qm --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin qm
COPY --from=prod-deps /out/app /app
COPY --from=build /out/app /app
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    FRONTEND_DIST=/app/frontends
WORKDIR /app/${TARGET}
USER 10001:10001
CMD ["node", "dist/main.js"]
