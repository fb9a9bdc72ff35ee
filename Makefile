# Quartermaster entry points. `make help` lists the targets.
SHELL := bash
.DEFAULT_GOAL := help
QM_CACHE ?= $(HOME)/.cache/quartermaster

.PHONY: help
help: ## list the targets
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{ printf "  \033[36m%-14s\033[0m %s\n", $$1, $$2 }'

## ---- local stack -----------------------------------------------------------------------------

.PHONY: dev
dev: ## provision, install and start everything (app on http://localhost:8080); Ctrl-C stops it
	node scripts/dev.mjs

.PHONY: infra
infra: ## start only NATS, FerretDB, Keycloak and maildev
	node scripts/dev.mjs --infra-only

.PHONY: clean
clean: ## remove local data (.data/) and built dist/ folders; keeps the tools cache
	rm -rf .data
	rm -rf packages/*/dist gateway/dist services/*/dist frontends/*/dist

.PHONY: clean-tools
clean-tools: ## remove the provisioned tools cache (~/.cache/quartermaster or $QM_CACHE) and .tools
	rm -rf "$(QM_CACHE)" .tools

## ---- kubernetes --------------------------------------------------------------------------------

.PHONY: chart-test
chart-test: ## helm lint + render charts/quartermaster per values file, validate every object against the Kubernetes schemas
	node scripts/chart-test.mjs
