# Side-by-side benchmarks in real OBS (owned by the benchmark work).
.PHONY: bench
bench:
