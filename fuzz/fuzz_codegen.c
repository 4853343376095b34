/* fuzz_codegen: recorder-codegen's input. Input: a container (fuzz.h) with
 * a merged or a per-rank trace, served from memory; rec_codegen generates
 * the kernel from it (a per-rank trace is merged first, into a scratch
 * directory under TMPDIR, which the target points at its own scratch
 * directory). Flag bit 2 turns loop folding off; the high nibble is the
 * merge window, as in fuzz_merger. Oracles: a failure has a message, a
 * success a kernel with a main(), and every FUZZ_COMPILE_EVERY-th kernel
 * (default 256; 0: none) compiles without a warning (with FUZZ_KERNEL_CC,
 * by default the build's MPI compiler with HDF5's headers): recorder-codegen
 * emits C. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder_codegen.h"

/* ASan's strstr checks the whole haystack at each call: rendering the
 * kernel's templates would cost a template's length per tag. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "intercept_strstr=0";
}

/* Compiles the kernel (-fsyntax-only) and aborts, showing the compiler's
 * complaint, when it is not C without warnings. */
static void compile_check(const char *kernel)
{
    static long every = -1, seen;
    if (every < 0) {
        const char *s = getenv("FUZZ_COMPILE_EVERY");
        every = s ? strtol(s, NULL, 10) : 256;
    }
    if (every <= 0 || ++seen % every != 0)
        return;
    char src[4200], log[4200], cmd[3 * 4200];
    snprintf(src, sizeof src, "%s/kernel.c", fuzz_scratch_dir());
    snprintf(log, sizeof log, "%s/compile.txt", fuzz_scratch_dir());
    FILE *f = fopen(src, "w");
    if (!f || fputs(kernel, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "fuzz_codegen: cannot write %s\n", src);
        abort();
    }
    const char *cc = getenv("FUZZ_KERNEL_CC");
    snprintf(cmd, sizeof cmd, "%s -fsyntax-only -Wall -Wextra -Werror '%s' > '%s' 2>&1", cc ? cc : FUZZ_KERNEL_CC, src,
             log);
    if (system(cmd) != 0) {
        fprintf(stderr, "fuzz_codegen: the kernel does not compile (%s):\n", cmd);
        FILE *l = fopen(log, "r");
        char line[512];
        while (l && fgets(line, sizeof line, l))
            fputs(line, stderr);
        if (l)
            fclose(l);
        fputs(kernel, stderr);
        fuzz_remove_scratch(); /* abort() runs no exit handler */
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once) {
        once = 1;
        setenv("TMPDIR", fuzz_scratch_dir(), 1);
    }
    int flags = fuzz_mount(data, size);
    if (flags < 0)
        return 0;
    rec_codegen_options o;
    rec_codegen_options_init(&o);
    o.loops = !((flags >> 2) & 1);
    o.window = 8 + (unsigned)(flags >> 4);
    o.max_values = 1u << 20; /* 8 MB of per-rank values: a member costs about 1 us and 100 bytes more (inputs) */
    char *kernel = NULL;
    rec_error err;
    memset(&err, 0, sizeof err);
    if (rec_codegen(FUZZ_MEMORY_DIR, &o, &kernel, &err) == 0) {
        if (!kernel || !strstr(kernel, "int main(")) {
            fprintf(stderr, "fuzz_codegen: rec_codegen succeeded without a kernel\n");
            abort();
        }
        compile_check(kernel);
        if (getenv("FUZZ_VERBOSE"))
            fprintf(stderr, "kernel: %zu bytes\n", strlen(kernel));
    } else {
        if (!err.msg[0]) {
            fprintf(stderr, "fuzz_codegen: rec_codegen failed without a message\n");
            abort();
        }
        if (getenv("FUZZ_VERBOSE"))
            fprintf(stderr, "error: %s\n", err.msg);
    }
    free(kernel);
    return 0;
}
