/* Status returns and check macros: low levels record what failed, only the top level exits. */
#ifndef FP_ERROR_H
#define FP_ERROR_H

#include <stddef.h>

enum { FP_OK = 0, FP_ERR = -1 };

/* Records a message (printf-style) as the current error and returns FP_ERR. */
int fp_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Records "CALL failed at FILE:LINE: <MPI_Error_string>" and returns FP_ERR. */
int fp_fail_mpi(int code, const char *call, const char *file, int line);
const char *fp_error_message(void);

#define FP_MPI_CHECK(call)                                                                         \
    do {                                                                                           \
        int fp_rc_ = (call);                                                                       \
        if (fp_rc_ != 0) /* MPI_SUCCESS */                                                         \
            return fp_fail_mpi(fp_rc_, #call, __FILE__, __LINE__);                                 \
    } while (0)

#define FP_CHECK(expr)                                                                             \
    do {                                                                                           \
        if ((expr) != FP_OK)                                                                       \
            return FP_ERR;                                                                         \
    } while (0)

#endif
