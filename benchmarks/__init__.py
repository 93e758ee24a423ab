"""The benchmark command: `python -m benchmarks` (speed and memory, beside baselines)."""
