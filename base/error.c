#include "error.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

static char fp_error_text[1024];

int fp_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fp_error_text, sizeof fp_error_text, fmt, ap);
    va_end(ap);
    return FP_ERR;
}

int fp_fail_mpi(int code, const char *call, const char *file, int line)
{
    char text[MPI_MAX_ERROR_STRING] = "unknown MPI error";
    int len = 0;
    MPI_Error_string(code, text, &len);
    return fp_fail("%s failed at %s:%d: %s", call, file, line, text);
}

const char *fp_error_message(void)
{
    return fp_error_text[0] ? fp_error_text : "unknown error";
}
