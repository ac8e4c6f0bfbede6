# syntax=docker/dockerfile:1
# imagine-bot: multi-stage build on Debian slim (sqlite3 compiles from source; alpine makes that harder).

ARG NODE_IMAGE=node:22-bookworm-slim

# Production dependencies only, compiled natively (sqlite3) with the toolchain that stays in this stage.
FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# The TypeScript build.
FROM deps AS build
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# The runtime: no compiler, no dev dependencies, no secrets, not root.
FROM ${NODE_IMAGE} AS runtime
# jemalloc instead of glibc's malloc: glibc's per-thread arenas keep what libvips' and libuv's threads free, so a bot
# that decodes images (Vary, Zoom out, /describe) grows for hours; with jemalloc its RSS stays flat (sharp's own
# recommendation; docs/benchmarks.md, "Soak"). Linked under one name for every architecture Debian builds.
# Fonts for /usage's chart (librsvg draws its text through fontconfig, and the slim image has none): DejaVu for Latin,
# Greek and Cyrillic, Droid Sans Fallback for Chinese, Japanese and Korean (7 MB, against 90 MB for Noto CJK).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ca-certificates libjemalloc2 fonts-dejavu-core fonts-droid-fallback \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s "$(dpkg -L libjemalloc2 | grep '/libjemalloc.so.2$')" /usr/local/lib/libjemalloc.so.2
# HTTP_HOST: inside a container loopback is unreachable from Prometheus or the orchestrator; what is published is
# decided by the container's network. HTTP_PORT: the image always listens for /healthz, /readyz and /metrics (README,
# Operations), so the HEALTHCHECK below means something with a plain `docker run`.
ENV NODE_ENV=production \
    LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
    MALLOC_CONF=background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0 \
    NODE_OPTIONS=--enable-source-maps \
    HTTP_HOST=0.0.0.0 \
    HTTP_PORT=9464
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
# SQLite lives here by default (STORAGE_URL=sqlite://data/bot.sqlite); mount a volume to keep it.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
# tini is PID 1 so SIGTERM reaches Node and the bot shuts down gracefully. The bot needs SHUTDOWN_GRACE_MS (30 s)
# to finish in-flight jobs, longer than docker stop's default 10 s: run with `--stop-timeout 40` (`docker stop -t 40`,
# compose `stop_grace_period: 40s`); a Dockerfile cannot set that itself.
STOPSIGNAL SIGTERM
# /healthz of the operator's listener (the image has no curl: Node's fetch does it); an operator who empties
# HTTP_PORT gets the default port asked, and an unhealthy container, never a check that passes by default.
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HTTP_PORT||'9464')+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# --heap-growing-percent=200 lets V8's old generation grow to 3x its live size before a full collection, which avoids
# one 15-30 ms collection per image job (docs/benchmarks.md). --max-semi-space-size=8 keeps the young generation small
# at rest (idle RSS, docs/benchmarks.md "Light at rest"). --flush-baseline-code lets V8 drop the baseline (Sparkplug)
# code of functions not run for a while, as it drops their bytecode, so compiled code follows what the bot runs now
# instead of piling up over days (the soak, docs/benchmarks.md). --expose-gc lets the memory budget have the garbage
# it cannot see collected before it admits more (src/garbage.ts). They must be on the command line: Node refuses the
# first in NODE_OPTIONS, and the bot no longer changes V8 flags at run time.
CMD ["node", "--heap-growing-percent=200", "--max-semi-space-size=8", "--flush-baseline-code", "--expose-gc", "dist/cli.js"]
