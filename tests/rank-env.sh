#!/bin/sh
# Usage: rank-env.sh PROGRAM [ARGS...], as the program of an MPI job: exports the variables kept
# in $FP_ENV_DIR/all/ and $FP_ENV_DIR/rank.R/ (R: this rank; one file per variable, the file name
# its name, the content its value byte for byte), then runs PROGRAM. Values that a launcher could
# not forward intact (newlines, any byte) reach each rank as they are.
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-}}}
for file in "$FP_ENV_DIR"/all/* "$FP_ENV_DIR/rank.$rank"/*; do
    [ -f "$file" ] || continue
    # The x keeps trailing newlines, which command substitution would drop.
    value=$(cat "$file" && echo x)
    export "${file##*/}=${value%x}"
done
exec "$@"
