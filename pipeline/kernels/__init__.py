"""The kernel layer: every numba kernel, each behind a small public function that checks
its arguments. Modules ending in `_jit` hold the compiled code; the others import them
only when a job is big enough to pay numba's start-up."""
