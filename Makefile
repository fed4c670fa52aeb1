# Colony: see README.md. `make play` and `make test` work on a fresh machine with Go 1.26.
GO      ?= go
BIN     := bin
GAMES   ?= 20
CLOCK   ?= 10s
ENGINE  ?= nnab
OPP     ?= alphabeta
A       ?= nnab
B       ?= alphabeta

.PHONY: all build pgo deps test test-long test-s3 play match bench speed perft fuzz vet clean tidy-check report

all: build

# The binaries use the AVX2/FMA inference kernel (Go's experimental simd/archsimd) when this
# toolchain builds it and its parity tests against the portable path pass on this machine;
# otherwise the portable build. `make build SIMD=` forces the portable build.
SIMD ?= $(shell echo "make: checking the AVX2 inference build (GOEXPERIMENT=simd parity tests of ./nn)..." >&2; \
	if GOEXPERIMENT=simd $(GO) test -count=1 -run 'SIMDMatchesPortable|ForwardMatchesReference|BatchEqualsSingles' ./nn >/dev/null 2>&1; \
	then echo "make: AVX2 build passes its parity tests: using it" >&2; echo simd; \
	else echo "make: no AVX2 build here: using the portable build" >&2; fi)

build:
	GOEXPERIMENT=$(SIMD) $(GO) build -o $(BIN)/ ./cmd/...

# The agent's and selfplay's builds are profile-guided: go build applies cmd/agent/default.pgo
# and cmd/selfplay/default.pgo (one profile, checked in), a CPU profile of whole games of the
# search at 20,000 nodes a move (nnab's BenchmarkGame). `make pgo` records it again, after a
# change to the search or the net's code; docs/house.md has what it buys.
pgo:
	@mkdir -p $(BIN)
	GOEXPERIMENT=$(SIMD) $(GO) test -run '^$$' -bench '^BenchmarkGame$$' -benchtime 8x -pgo=off \
		-o $(BIN)/nnab.test -cpuprofile $(BIN)/game.pgo ./game/ataxx/nnab
	cp $(BIN)/game.pgo cmd/agent/default.pgo
	cp $(BIN)/game.pgo cmd/selfplay/default.pgo

# What the tests drive besides Go: g++ (the C++ export's parity tests) and Chromium (the replay
# viewer's browser tests). Installed with apt-get when missing and this user may, without the
# packages they only recommend (no avahi, cups or desktop helpers: headless Chromium and g++
# need none of them); otherwise those tests skip, saying so.
deps:
	@need=""; command -v g++ >/dev/null || need="$$need g++"; command -v chromium >/dev/null || need="$$need chromium"; \
	if [ -n "$$need" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then apt-get update && apt-get install -y --no-install-recommends $$need; \
		else echo "make: missing$$need (install them, or their tests skip)" >&2; fi; \
	fi

# The default test run: short mode, well under 10 minutes on 2 cores.
test: deps
	$(GO) vet ./...
	$(GO) test -short -timeout 9m ./...
	GOEXPERIMENT=simd $(GO) test -short -timeout 5m ./nn/...

# The tests against a real S3 server (docs/cluster.md): versitygw serving a temporary folder
# on 127.0.0.1, installed from the Go module proxy into $(TOOLS) when it is not there (2-3 min
# once), then two local self-play pods and the trainer through it, a SIGKILLed worker and a
# 30 s outage of the store.
VERSITYGW_VERSION := v1.8.0
TOOLS   ?= $(CURDIR)/tools/bin
$(TOOLS)/versitygw:
	GOBIN=$(TOOLS) $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)

test-s3: $(TOOLS)/versitygw
	COLONY_VERSITYGW=$(TOOLS)/versitygw $(GO) test -count=1 -run 'TestS3' -timeout 15m -v ./cluster/kube

# Everything, including the deep perft levels and long checks.
test-long:
	$(GO) test -timeout 60m ./...

# A match of the shipped agent (nnab on the embedded nnue net) against Colony's classical
# alpha-beta engine on the judge's clock (ENGINE=, OPP=, GAMES=, CLOCK= to change it), from
# 2-ply random openings worth playing: arena draws again any that its opening search finds
# already decided (-opening-max-score, on by default), so no game is over in a few moves.
# Its replays and run view: runs/play-*/index.html (bin/view).
play: build
	@mkdir -p runs
	run=runs/play-$$(date +%Y%m%d-%H%M%S); \
	$(BIN)/arena -game bacteria-war -games $(GAMES) -clock $(CLOCK) -parallel 2 -openings 2 -out $$run \
		-a '$(BIN)/agent -game bacteria-war -engine $(ENGINE) -seed {seed}' \
		-b '$(BIN)/agent -game bacteria-war -engine $(OPP) -seed {seed}' && \
	$(BIN)/view $$run

# The acceptance matches (tens of minutes on 2 cores): A vs B over GAMES games at the judge clock.
match: build
	@mkdir -p runs
	$(BIN)/arena -game bacteria-war -games $(GAMES) -clock $(CLOCK) -parallel 2 -openings 2 -json -out runs/match-$$(date +%Y%m%d-%H%M%S) \
		-a '$(BIN)/agent -game bacteria-war -engine $(A) -seed {seed}' \
		-b '$(BIN)/agent -game bacteria-war -engine $(B) -seed {seed}'

bench:
	$(GO) test -run '^$$' -bench . -cpu 1 ./game/... ./mcts/... ./nn/...
	GOEXPERIMENT=simd $(GO) test -run '^$$' -bench . -cpu 1 ./nn

perft: build
	$(BIN)/agent -game bacteria-war -perft 6

# The Go engine's speed against the C++ export's on the same searches: the C++ file's
# --bench searches (agent -bench) in the agent's AVX2 build (GOEXPERIMENT=simd) and its
# portable one, both with the agent's PGO profile as make build, and the C++ file built as the
# judge builds it; SPEEDN runs of each, alternating (cmd/speed). It prints each one's median
# nodes per CPU-second and its ratio to the C++ file's.
SPEEDN  ?= 9
speed:
	@mkdir -p $(BIN)/speedcmp
	GOEXPERIMENT=simd $(GO) build -o $(BIN)/speedcmp/agent-avx2 ./cmd/agent
	GOEXPERIMENT= $(GO) build -o $(BIN)/speedcmp/agent-portable ./cmd/agent
	$(GO) build -o $(BIN)/speedcmp/speed ./cmd/speed
	$(GO) run ./cmd/export -game bacteria-war -lang cpp -o $(BIN)/speedcmp/Main.cpp
	cd $(BIN)/speedcmp && g++ -std=c++17 -O2 -o cpp Main.cpp
	$(BIN)/speedcmp/speed -n $(SPEEDN) '$(BIN)/speedcmp/agent-avx2 -bench' '$(BIN)/speedcmp/agent-portable -bench' '$(BIN)/speedcmp/cpp --bench'

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzJudgeProtocol -fuzztime 60s ./judge

# The shipped Bacteria War nets' training report (docs/training-report.html), made from what is
# committed beside the nets: provenance.tsv (one row per shipped net) and the NNNNNN-train.log
# files. Run it after a net ships; pipeline's TestCommittedReport fails until it is.
report:
	$(GO) run ./cmd/loop -game bacteria-war -report docs/training-report.html

# go.mod and go.sum are tidy: this prints nothing when they are (it may download the test
# dependencies of dependencies once).
tidy-check:
	$(GO) mod tidy -diff

clean:
	rm -rf $(BIN)

# The play page (docs/viewer.md, "The play page"): the engine compiled to WebAssembly, its nets
# and the page in $(BIN)/web; open $(BIN)/web/index.html, or serve it: bin/play -serve 127.0.0.1:8080.
.PHONY: web
web:
	GOOS=js GOARCH=wasm $(GO) build -o $(BIN)/colony.wasm ./web/wasm
	$(GO) run ./cmd/play -wasm $(BIN)/colony.wasm -wasm-exec "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" -o $(BIN)/web

# One self-contained Go file (package main, standard library only) for the ALPHANO judge,
# generated from the agent's packages and checked the way the judge builds it (README, "Ship to the judge"):
# `make export` writes bin/Main.go; `make export ENGINE=alphabeta EXPORT=ab.go`, `make export MODEL=m.model`.
EXPORT  ?= $(BIN)/Main.go
MODEL   ?=
.PHONY: export ship
export:
	$(GO) run ./cmd/export -game bacteria-war -engine $(ENGINE) $(if $(MODEL),-model $(MODEL)) -o $(EXPORT) -check

# The file to submit to the ALPHANO judge: `make ship GAME=bacteria-war` (or catch-the-mouse)
# writes bin/<game>/Main.cpp with the game's shipped engine and net, builds it as the judge does
# in an empty folder and checks that it answers READY; `LANG=go` writes the Go file instead
# (LANG is read as the language only when it says go or cpp: a locale such as C.UTF-8 means cpp).
GAME    ?= bacteria-war
SHIPLANG := $(if $(filter go,$(LANG)),go,cpp)
SHIPEXT  := $(if $(filter go,$(SHIPLANG)),go,cpp)
# bin/go.mod makes bin/ a module of its own, so that `go vet ./...` and `go test ./...` (make
# test) pass over the files written here (a Main.go beside a Main.cpp is no Go package).
ship:
	@mkdir -p $(BIN)/$(GAME)
	@test -f $(BIN)/go.mod || printf 'module colony/bin\n\ngo 1.26\n' > $(BIN)/go.mod
	$(GO) run ./cmd/export -game $(GAME) -lang $(SHIPLANG) $(if $(MODEL),-model $(MODEL)) -o $(BIN)/$(GAME)/Main.$(SHIPEXT) -check
	@echo "make: submit $(BIN)/$(GAME)/Main.$(SHIPEXT); the judge builds it with: $(if $(filter go,$(SHIPLANG)),go build Main.go,g++ -std=c++17 -O2 Main.cpp)"
