#!/bin/bash
# A Slurm job array: 3 tasks, each one shard of the evaluation.
#   sbatch slurm.sh
# then, when every array task has finished:
#   scaleout merge -out "$RESULTS"
#SBATCH --job-name=adaptbench-eval
#SBATCH --array=0-2
#SBATCH --cpus-per-task=2
#SBATCH --mem=8G
#SBATCH --time=02:00:00
#SBATCH --requeue
set -euo pipefail
RESULTS=${RESULTS:-$HOME/adaptbench-results}
mkdir -p "$RESULTS"
# adapt.ShardFromEnv reads SLURM_ARRAY_TASK_ID, _MIN, _MAX, _COUNT and
# _STEP: the shard count comes from the array itself. A requeued task
# resumes from its journal.
exec scaleout run -out "$RESULTS"
