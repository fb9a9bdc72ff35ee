# Quartermaster entry points. `make help` lists the targets.
SHELL := bash
.DEFAULT_GOAL := help
QM_CACHE ?= $(HOME)/.cache/quartermaster

.PHONY: help
help: ## list the targets
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{ printf "  \033[36m%-14s\033[0m %s\n", $$1, $$2 }'

## ---- local stack -----------------------------------------------------------------------------

.PHONY: dev
dev: ## provision, install and start everything (app on http://localhost:8080; TRACES=1 adds the trace viewer; REPLICAS=2 two of every service and gateway; STORE_ENGINE=mongodb the chart's path, no PostgreSQL URL); Ctrl-C stops it
	node scripts/dev.mjs $(if $(filter 1 true yes,$(TRACES)),--traces) $(if $(REPLICAS),--replicas $(REPLICAS)) $(if $(STORE_ENGINE),--store-engine $(STORE_ENGINE))

.PHONY: infra
infra: ## start only NATS, PostgreSQL + FerretDB, Keycloak and maildev
	node scripts/dev.mjs --infra-only

.PHONY: clean
clean: ## remove local data (.data/) and built dist/ folders; keeps the tools cache
	rm -rf .data
	rm -rf packages/*/dist gateway/dist services/*/dist frontends/*/dist

.PHONY: clean-tools
clean-tools: ## remove the provisioned tools cache (~/.cache/quartermaster or $QM_CACHE) and .tools
	rm -rf "$(QM_CACHE)" .tools

## ---- kubernetes --------------------------------------------------------------------------------

.PHONY: cluster
cluster: ## a single-node Kubernetes on this machine (root; the first run builds it, docs/adr/030); Ctrl-C stops it and frees everything
	bash scripts/cluster/cluster.sh up

.PHONY: cluster-smoke
cluster-smoke: ## on a running `make cluster`: pods, a Service and cluster DNS at work, and the chart admitted by its API server
	bash scripts/cluster/cluster.sh smoke

.PHONY: cluster-test
cluster-test: deps ## on a running `make cluster` with `make cluster-images` built: helm install the chart, wait for ready, helm test, a purchase through the gateway, an upgrade under requests with none failing, uninstall (docs/kubernetes.md)
	bash scripts/cluster/cluster.sh test

.PHONY: cluster-images
cluster-images: deps ## the chart's images for `make cluster` as OCI archives, which the node imports: a Debian base with Node, each service, NATS, maildev, Keycloak, FerretDB with PostgreSQL where the chart runs MongoDB (docs/adr/030); rebuilt only when their inputs change
	bash scripts/provision.sh images

.PHONY: chart-test
chart-test: ## helm lint + render charts/quartermaster per values file, validate every object against the Kubernetes schemas
	node scripts/chart-test.mjs

## ---- build, test, measure -----------------------------------------------------------------------

.PHONY: deps
deps: ## install npm dependencies when node_modules is missing or older than the lockfile
	@[ -f node_modules/.package-lock.json ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm install --no-audit --no-fund

.PHONY: test
test: deps ## everything CI checks: static checks, unit, integration on the real stack, browser journeys, chart
	node scripts/ci-test.mjs

.PHONY: build
build: deps ## production builds: the frontends and one bundle per service and the gateway
	npm run build:frontends
	node scripts/bundle.mjs all

.PHONY: seed
seed: deps ## demo accounts and products through the API (the stack must be running: make dev)
	npm run seed --silent

.PHONY: e2e
e2e: deps ## browser journeys in headless Chromium against the running stack (BASE_URL, default http://localhost:8080)
	bash scripts/provision.sh chromium
	@set -e; for j in e2e/*.e2e.mjs; do node "$$j"; done

.PHONY: fuzz
fuzz: deps ## schemathesis against the running stack's OpenAPI document, as every role (BASE_URL, default http://localhost:8080)
	bash scripts/provision.sh schemathesis
	node e2e/api-fuzz.mjs

.PHONY: budgets
budgets: deps ## frontend budgets on the production stack (node scripts/dev.mjs --prod): landing-page JS ≤ 150 KiB gzip, Lighthouse through HTTPS and HTTP/2 (ADR 036)
	node load/landing-js.mjs
	node load/lighthouse.mjs --budget --http2

.PHONY: chaos
chaos: deps ## Jepsen-style run: every role under load while processes are SIGKILLed, then no money, stock, order or event lost or duplicated (CHAOS_VUS=100 CHAOS_DURATION=10m CHAOS_KILL_EVERY=10s REPLICAS=1 STORE_ENGINE=ferretdb-postgresql)
	bash scripts/provision.sh k6
	node scripts/chaos.mjs $(if $(STORE_ENGINE),--store-engine $(STORE_ENGINE))

.PHONY: cost
cost: deps ## the cost budgets (docs/architecture.md §8) on a running stack (AUTH_RATE_LIMIT_SCALE=100): CPU per transfer and purchase in bare-update equivalents (and a card top-up's, which has no budget), then 120 transfers at once (docs/adr/026), then the ledger check
	node load/transfer-cost.mjs 100 --later --pairs=20; t=$$?; node load/purchase-cost.mjs 15; p=$$?; node load/topup-cost.mjs 20; node load/transfer-burst.mjs; b=$$?; npx tsx load/ledger-check.ts && exit $$((t || p || b))

.PHONY: bench
bench: deps ## database scaling to 1 M rows (ADR 004), then gateway → gRPC → database vs bare Express (stack running and seeded)
	npx tsx load/db-scaling.ts
	node load/bench.mjs
