#!/usr/bin/env bash
# A stand-in for a cluster's submit command (sbatch, qsub) for the cluster-generic executor:
# it starts the job script as a process of its own, in the background, and prints a job id.
# Jobs share nothing with Snakemake but files, exactly as on a cluster.
set -euo pipefail
jobscript="${*: -1}"
nohup bash "$jobscript" > "$jobscript.out" 2>&1 < /dev/null &
echo "$!"
