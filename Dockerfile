# syntax=docker/dockerfile:1
# One image for every process of the EU VAT service. The command args choose the mode:
#   docker run IMAGE                 -> gateway (default)
#   docker run IMAGE calculation     -> one service (calculation|classification|compliance-reports|thresholds|ledger)
#   docker run IMAGE all             -> everything in one process (embedded PGlite unless DATABASE_URL is set)
FROM node:24-slim

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/app/data \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false

WORKDIR /app
RUN chown node:node /app
# The image's built-in unprivileged user (uid 1000).
USER node

# Manifests first so the dependency layer is cached until a package.json or the lockfile changes.
# Every npm workspace listed in package.json must be present for `npm ci`.
COPY --chown=node:node package.json package-lock.json ./
COPY --chown=node:node gen/package.json gen/
COPY --chown=node:node platform/package.json platform/
COPY --chown=node:node services/calculation/package.json services/calculation/
COPY --chown=node:node services/classification/package.json services/classification/
COPY --chown=node:node services/compliance-reports/package.json services/compliance-reports/
COPY --chown=node:node services/thresholds/package.json services/thresholds/
COPY --chown=node:node services/ledger/package.json services/ledger/
COPY --chown=node:node gateway/package.json gateway/
COPY --chown=node:node seeds/package.json seeds/
COPY --chown=node:node deploy/package.json deploy/
COPY --chown=node:node dashboard/package.json dashboard/
# Dev dependencies are installed too: esbuild compiles the entry points, tsx runs the build scripts.
RUN npm ci --include=dev && npm cache clean --force

COPY --chown=node:node . .
# What postinstall could not build before the sources were here: the compiled entry points (deploy/dist),
# the dashboard's bundle, and the embedded database's template clusters (initdb, and migrated and seeded).
RUN node deploy/bundle.mjs \
 && npx tsx dashboard/scripts/build.ts \
 && mkdir -p /app/data && node deploy/bin/embedded-template.mjs
# Node's code cache of the compiled entry points, kept in the image (the root file system may be read-only).
# (Loading each bundle once writes it: `--help` prints the usage and exits.)
RUN node deploy/bin/main.mjs --help >/dev/null 2>&1; node deploy/bin/admin.mjs --help >/dev/null 2>&1; true

# Gateway HTTP; service RPC ports 9101-9105 and their health ports 10101-10105.
EXPOSE 8080 9101 9102 9103 9104 9105 10101 10102 10103 10104 10105

# node (the image's Node 24) is PID 1 and receives SIGTERM directly; main.ts shuts down gracefully. The V8 heap
# cap comes from NODE_OPTIONS (docker-compose.yml, deploy/k8s: half the container's memory limit).
ENTRYPOINT ["node", "deploy/bin/main.mjs"]
CMD ["gateway"]
