/* fuzz_main.c: runs a fuzz target without libFuzzer, once per file named on
 * the command line (or per file in a named directory). The regression tests
 * run every recorded crasher this way, with any compiler. */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0, got;
    uint8_t *data = malloc(cap);
    while (data && (got = fread(data + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *grown = realloc(data, cap *= 2);
            if (!grown)
                free(data);
            data = grown;
        }
    }
    fclose(f);
    if (!data) {
        fprintf(stderr, "%s: out of memory\n", path);
        return -1;
    }
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, failed = 0, ran = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            struct dirent **names;
            int n = scandir(argv[i], &names, NULL, alphasort);
            for (int k = 0; k < n; k++) {
                char path[4200];
                snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
                if (names[k]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                    int bad = run_file(path) != 0;
                    failed |= bad;
                    ran += !bad;
                    files++;
                }
                free(names[k]);
            }
            free(names);
        } else {
            int bad = run_file(argv[i]) != 0;
            failed |= bad;
            ran += !bad;
            files++;
        }
    }
    printf("%s: %d inputs ran without a crash\n", argv[0], ran);
    if (ran < files)
        fprintf(stderr, "%s: %d of %d inputs could not be read\n", argv[0], files - ran, files);
    return failed;
}
