# syntax=docker/dockerfile:1
# The service as an image: compiled in a build stage, run with production dependencies only,
# as a non-root user, under tini (so SIGTERM reaches Node and the graceful shutdown runs).
# Build: docker build -t headless-cms .    Run: see docs/production.md

FROM node:20.20.2-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src src
COPY commands commands
COPY queries queries
COPY projections projections
COPY infra infra
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20.20.2-bookworm-slim AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir /data && chown node:node /data
ENV NODE_ENV=production PORT=8080 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
# `npm start` and `npm run cms` in the container run the shipped build (there are no sources).
COPY scripts/run-built.js scripts/build-if-stale.js scripts/
# The embedded store, the generated master key and the file-system blobs live here.
VOLUME /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health/ready`).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/main.js"]
