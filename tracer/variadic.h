/* variadic.h: how wrappers fetch the arguments that C variadics pass
 * through "...". One macro per function whose table entry has a VA
 * argument: RT_VA_<name>(last_named_parameter, variable). */
#ifndef RECORDER_VARIADIC_H
#define RECORDER_VARIADIC_H

#include <fcntl.h>
#include <stdarg.h>

/* open's mode exists only when the flags create a file. */
#define RT_VA_OPEN_MODE(last, var)                                      \
    do {                                                                \
        if (((last) & O_CREAT) || ((last) & O_TMPFILE) == O_TMPFILE) { \
            va_list ap_;                                                \
            va_start(ap_, last);                                        \
            var = (mode_t)va_arg(ap_, int);                             \
            va_end(ap_);                                                \
        }                                                               \
    } while (0)
#define RT_VA_open(last, var) RT_VA_OPEN_MODE(last, var)
#define RT_VA_open64(last, var) RT_VA_OPEN_MODE(last, var)
#define RT_VA_openat(last, var) RT_VA_OPEN_MODE(last, var)
#define RT_VA_openat64(last, var) RT_VA_OPEN_MODE(last, var)

/* fcntl's third argument is an int or a pointer depending on the command;
 * both travel in one register, so it is read and passed on as a long. */
#define RT_VA_fcntl(last, var)                                          \
    do {                                                                \
        va_list ap_;                                                    \
        va_start(ap_, last);                                            \
        var = va_arg(ap_, long);                                        \
        va_end(ap_);                                                    \
    } while (0)

#endif
