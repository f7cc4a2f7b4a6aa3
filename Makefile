# The version is the commit, plus a hash of the sources when the tree has
# uncommitted or untracked changes, so every rebuild after an edit makes the
# CLI restart an older daemon.
VERSION := $(shell git rev-parse --short HEAD 2>/dev/null || echo dev)$(shell test -z "$$(git status --porcelain 2>/dev/null)" || echo "-dirty-$$(git ls-files -co --exclude-standard -z | xargs -0 cat 2>/dev/null | sha1sum | cut -c1-8)")
LDFLAGS := -s -w -X github.com/browsehq/browse/internal/version.Version=$(VERSION)
BIN := bin/browse
export CGO_ENABLED := 0

.PHONY: build demo test bench fuzz docs chromium clean bench-peers

# bin/browse (the fast path agents run) and bin/browse-core (the full CLI and
# the daemon, which browse hands everything else to) go together.
build:
	go build -trimpath -ldflags '$(LDFLAGS)' -o bin/ ./cmd/browse ./cmd/browse-core

chromium:
	./scripts/ensure-chromium.sh

# Sets up everything and drives a real page end to end.
demo: chromium build
	./scripts/demo.sh

# The CI command: vet, race-checked unit and end-to-end tests on real Chromium.
test: chromium
	test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); echo 'gofmt needed' >&2; exit 1)
	go vet ./...
	CGO_ENABLED=1 go test -race -count=1 ./...

# End-to-end latency of the real CLI (a fresh process per command), the
# screenshot and PDF commands against agent-browser (installed from npm into
# ~/.cache; skipped when that fails), then the in-process hot paths.
bench: chromium build
	go run ./bench -bin $(BIN) -agent-browser "$$(./scripts/install-agent-browser.sh || true)"
	go test -run XXX -bench . ./internal/...

# A short run of every fuzz target.
fuzz:
	go test ./internal/commands -run XXX -fuzz '^FuzzParse$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzNormalizeURL$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzWrapAwait$$' -fuzztime 20s
	go test ./internal/daemon -run XXX -fuzz '^FuzzParseRequest$$' -fuzztime 20s
	go test ./internal/safepath -run XXX -fuzz '^FuzzCheck$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzSnapshotFlags$$' -fuzztime 20s
	go test ./internal/snapshot -run XXX -fuzz '^FuzzDiff$$' -fuzztime 20s
	go test ./internal/browser -run XXX -fuzz '^FuzzParseWalk$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzScreenshotArgs$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzParseClip$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzParseDimension$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzParsePDFPayload$$' -fuzztime 20s
	go test ./internal/browser -run XXX -fuzz '^FuzzImageSize$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzSafeFileName$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzParseDataURL$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzCompactJSON$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzParseChain$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzParseCookieImport$$' -fuzztime 20s
	go test ./internal/commands -run XXX -fuzz '^FuzzParseHeader$$' -fuzztime 20s
	go test ./internal/ssrf -run XXX -fuzz '^FuzzParseHostIP$$' -fuzztime 20s
	go test ./internal/auth -run XXX -fuzz '^FuzzBearerToken$$' -fuzztime 20s
	go test ./internal/auth -run XXX -fuzz '^FuzzCookieValue$$' -fuzztime 20s
	go test ./internal/envelope -run XXX -fuzz '^FuzzWrap$$' -fuzztime 20s
	go test ./internal/envelope -run XXX -fuzz '^FuzzEscape$$' -fuzztime 20s
	go test ./internal/browser -run XXX -fuzz '^FuzzHiddenWarnings$$' -fuzztime 20s

# docs/commands.md is generated from the command registry.
docs: build
	$(BIN) help --markdown > docs/commands.md
	go generate ./internal/hotpath

clean:
	rm -rf bin

# browse against agent-browser, interleaved: cold start, the everyday warm
# commands, a bare process as the floor, and snapshot -i over the largest
# pages of Debian's Python docs (python3-doc, installed with apt if missing).
# The peer and the corpus live outside the repository; a part that cannot run
# prints "skipped: ...". Extra flags: make bench-peers PEERS_FLAGS='-n 30'.
bench-peers: chromium build
	go run ./bench/peerbench -bin bin/browse \
		-agent-browser "$$(./scripts/install-agent-browser.sh || true)" \
		-corpus "$$(./scripts/install-corpus.sh || true)" $(PEERS_FLAGS)
