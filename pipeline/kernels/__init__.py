"""The kernel layer: every numba kernel, each behind a small public function that checks
its arguments. `feedback` and `partition` keep their compiled code in `*_jit` modules,
imported only when a job is big enough to pay numba's start-up; each search is a
subpackage (`opener_search`, `optimal_search`) with its kernels beside its public face and
one module of tuning constants."""
