# Tab Whisperer. `make run` and `make test` do all set-up on a fresh machine:
# they install what is missing (wasm target, wasm-bindgen-cli at the version
# in Cargo.lock, geckodriver, Firefox ESR, web-ext) and skip what is there.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := xpi

# Tools built once per machine live outside the clone, so a fresh clone
# does not rebuild them (wasm-bindgen-cli alone takes ~8 minutes).
TOOLS ?= $(HOME)/.cache/tab-whisperer/tools
export PATH := $(TOOLS)/bin:$(TOOLS)/node/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export GECKODRIVER ?= $(TOOLS)/bin/geckodriver

WASM_TARGET := wasm32-unknown-unknown
# `make WASM_PROFILE=dev` for quick debug builds of the wasm.
WASM_PROFILE ?= wasm-release
WASM_DIR := target/$(WASM_TARGET)/$(if $(filter dev,$(WASM_PROFILE)),debug,$(WASM_PROFILE))
WASM_CRATES := ext_core ext_popup ext_worker
WASM_BINDGEN_VERSION = $(shell sed -n '/^name = "wasm-bindgen"$$/{n;s/^version = "\(.*\)"$$/\1/p;}' Cargo.lock)
GECKODRIVER_VERSION := 0.37.1
WEB_EXT_VERSION := 10.7.0
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

STAGE := target/xpi
XPI := dist/tab-whisperer.xpi

.PHONY: model xpi run test test-wasm lint bench fuzz build-tools test-tools wasm-target wasm-bindgen geckodriver firefox web-ext clean

## Build dist/tab-whisperer.xpi.
xpi: build-tools
	cargo build --target $(WASM_TARGET) --profile $(WASM_PROFILE) $(addprefix -p ,$(subst _,-,$(WASM_CRATES)))
	rm -rf $(STAGE)/pkg
	for c in $(WASM_CRATES); do \
	  wasm-bindgen --target web --no-typescript --out-dir $(STAGE)/pkg $(WASM_DIR)/$$c.wasm; \
	done
	cargo run --quiet -p tab-whisperer --bin pack -- --pkg $(STAGE)/pkg --dir $(STAGE)/ext --xpi $(XPI)

## Fetch a Whisper model from the Hugging Face hub into static/models/ so
## that `make` bundles it in the .xpi (MODEL=tiny.en, tiny, base.en, base).
## QUANTIZE=1 keeps it as q8_0 GGUF: a quarter of the size.
MODEL ?= tiny.en
QUANTIZE ?=
HUB = https://huggingface.co/openai/whisper-$(MODEL)/resolve/main
model:
	mkdir -p static/models/$(MODEL)
	cd static/models/$(MODEL) && for f in config.json tokenizer.json model.safetensors; do \
	  [ -s $$f ] || { curl -fL --retry 3 -o $$f.part $(HUB)/$$f && mv $$f.part $$f; }; \
	done
	if [ -n "$(QUANTIZE)" ]; then \
	  cargo run --quiet --release -p ext-worker --bin quantize -- \
	    --model static/models/$(MODEL) --type q8_0 --out static/models/$(MODEL) && \
	  rm static/models/$(MODEL)/model.safetensors; \
	fi

## Build, then start Firefox ESR with the add-on in a fresh profile (headless
## with a scripted demo and a popup screenshot where there is no display).
run: xpi test-tools
	cargo run --quiet -p tab-whisperer --bin demo

## Figures, measured side by side in one run (no thresholds, nothing asserted):
## the interpreter; the popup; the voice pipeline in Firefox (latency, idle
## CPU, worker memory); Whisper natively, ours next to candle-transformers'; and
## Whisper as wasm in a Firefox worker. BENCH_SIZES="tiny" skips base.
BENCH_SIZES ?= tiny base
bench: xpi test-tools
	cargo bench -p ext-core --bench interpret
	cargo run --quiet --release -p tab-whisperer --bin popup_bench
	cargo run --quiet --release -p tab-whisperer --bin voice_bench
	TW_BENCH_SIZES="$(BENCH_SIZES)" cargo bench -p ext-worker --bench whisper
	for size in $(BENCH_SIZES); do \
	  TW_BENCH_SIZE=$$size WASM_BINDGEN_TEST_TIMEOUT=900 \
	  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	    cargo test --release --target $(WASM_TARGET) -p ext-worker --test worker_bench -- --nocapture; \
	done

## Fuzz the interpreter and the message API (FUZZ_SECONDS each; stable
## Rust, so RUSTC_BOOTSTRAP lets cargo-fuzz pass its flags).
FUZZ_SECONDS ?= 120
fuzz:
	@command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --root $(TOOLS)
	cd crates/ext-core && for t in interpret messages; do \
	  RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none $$t -- -max_total_time=$(FUZZ_SECONDS) -max_len=4096; \
	done

## Every test: native unit tests, lints, the speech engine in wasm in a
## Firefox worker, then end-to-end in headless Firefox.
test: xpi test-tools
	cargo test --workspace
	@# The corpus again, quickly, to print its accuracy per intent.
	cargo test --quiet -p ext-core --test corpus -- --nocapture
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory test-wasm
	cargo test -p tab-whisperer --features e2e --test e2e -- --test-threads=1

## The Whisper engine compiled to wasm, run by wasm-bindgen-test in headless
## Firefox inside a dedicated worker, checked against the original's tokens.
test-wasm: build-tools test-tools
	WASM_BINDGEN_TEST_TIMEOUT=300 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	  cargo test --target $(WASM_TARGET) -p ext-worker --test worker

lint: web-ext
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --features tab-whisperer/e2e -- -D warnings
	cargo clippy --target $(WASM_TARGET) $(addprefix -p ,$(subst _,-,$(WASM_CRATES))) -- -D warnings
	web-ext lint --source-dir $(STAGE)/ext --warnings-as-errors

build-tools: wasm-target wasm-bindgen
test-tools: geckodriver firefox web-ext

wasm-target:
	@rustup target list --installed | grep -qx $(WASM_TARGET) || rustup target add $(WASM_TARGET)

wasm-bindgen:
	@test -f Cargo.lock || cargo generate-lockfile
	@if [ "$$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $(WASM_BINDGEN_VERSION)" ]; then \
	  echo "Installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION) into $(TOOLS) (once per machine, ~8 minutes)"; \
	  cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION) --root $(TOOLS); \
	fi

geckodriver:
	@if ! "$(GECKODRIVER)" --version 2>/dev/null | grep -q "geckodriver $(GECKODRIVER_VERSION)"; then \
	  echo "Installing geckodriver $(GECKODRIVER_VERSION) into $(TOOLS) (once per machine, ~5 minutes)"; \
	  cargo install geckodriver --version $(GECKODRIVER_VERSION) --locked --root $(TOOLS); \
	fi

firefox:
	@command -v firefox-esr >/dev/null || command -v firefox >/dev/null || { \
	  echo "Installing Firefox ESR"; \
	  $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y firefox-esr; }

web-ext:
	@[ -x $(TOOLS)/node/node_modules/.bin/web-ext ] || { \
	  echo "Installing web-ext $(WEB_EXT_VERSION) into $(TOOLS)/node"; \
	  npm install --prefix $(TOOLS)/node --no-audit --no-fund --loglevel=error web-ext@$(WEB_EXT_VERSION); }

clean:
	cargo clean
	rm -rf dist
