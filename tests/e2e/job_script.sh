#!/bin/bash
# job_script.sh PROGRAM [ARGS...]: a job script around an MPI program, as
# `mpirun job.sh` starts one per rank. The commands before and after the
# program are traced too (LD_PRELOAD is inherited), each a process of the
# launcher's rank that never calls MPI_Init: none may take the program's
# rank from it, whichever exits last.
set -u
scratch=$(mktemp -d)
ls -l "$(dirname "$0")" > "$scratch/listing"
"$@"
status=$?
cat "$scratch/listing" > /dev/null
rm -rf "$scratch"
exit $status
