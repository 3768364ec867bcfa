# Patron's image: `docker build -t patron .`, then `docker run patron serve` (docs/deploy.md).
# Three stages: `build` compiles the server and the admin UI with the dev dependencies,
# `prod-deps` installs the production dependencies and compiles better-sqlite3's native
# module, and the runtime stage takes only their results, run by a user without privileges.
#
# BASE_IMAGE: any Debian-based Node.js 20.19+ image with node and npm under /usr/local (the
# layout of the official images); a stand-in is built where Docker Hub cannot be reached
# (test/docker/standin/build.sh).
ARG BASE_IMAGE=node:20-bookworm-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /app
# Install scripts are skipped: the package's `prepare` would build before the sources are
# copied, and the native modules are not needed to compile (esbuild's script only checks
# its binary, which vite finds without it).
COPY package.json package-lock.json .npmrc ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY web ./web
RUN npm run build

FROM ${BASE_IMAGE} AS prod-deps
# better-sqlite3 has no prebuilt binary to fetch on every network, hence the compilers.
# They stay in this stage; the runtime image has none.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The node headers come with the image (nodedir), so node-gyp downloads nothing. Of the
# compile only the module stays: its sources and objects are some 27 MB.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")" npm rebuild better-sqlite3 \
  && cd node_modules/better-sqlite3 \
  && rm -rf deps src build/deps build/Release/obj build/Release/obj.target build/Release/test_extension.node build/Release/*.a \
  && cd /app \
  && node -e 'new (require("better-sqlite3"))(":memory:").prepare("select 1").get()' \
  && npm cache clean --force

FROM ${BASE_IMAGE}
ENV PATRON_DATA_DIR=/var/lib/patron \
    PORT=8080 \
    HOST=0.0.0.0
# A fixed uid, so that a volume or a bind mount can be given to it ahead of time.
RUN groupadd --system --gid 10001 patron \
  && useradd --system --uid 10001 --gid patron --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin patron \
  && mkdir -p /var/lib/patron \
  && chown patron:patron /var/lib/patron \
  && chmod 700 /var/lib/patron
WORKDIR /app
# Owned by root: the process can read its code but not change it.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
USER patron
# The SQLite database and the secret key file when no DATABASE_URL and PATRON_SECRET_KEY are set.
VOLUME ["/var/lib/patron"]
EXPOSE 8080
# /health, not /ready: Docker's check is a liveness check (Swarm replaces an unhealthy task),
# and a node must not be replaced because the database is away or because it is draining.
# Routing follows /ready, checked by the balancer. `patron worker` serves no HTTP: its
# containers turn the check off (deploy/compose.yaml).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health',{signal:AbortSignal.timeout(2500)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# What the drain answers (docs/shutdown.md); give `docker stop` time for it (--time 40).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/cli.js"]
CMD ["serve"]
