/* h5_local.c LIBRARY FILE: a program that does not link HDF5 and reaches it
 * only through LIBRARY (h5_local_user.c), dlopen'ed RTLD_LOCAL. Prints
 * "round trip ok" and exits 0 when the data read back are the data written.
 *   h5_local --maps: prints its /proc/self/maps, before it loads anything. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--maps") == 0) {
        FILE *maps = fopen("/proc/self/maps", "r");
        char line[4096];
        while (maps && fgets(line, sizeof line, maps))
            fputs(line, stdout);
        return maps ? 0 : 1;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: h5_local LIBRARY FILE\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "h5_local: %s\n", dlerror());
        return 1;
    }
    int (*round_trip)(const char *) = (int (*)(const char *))dlsym(lib, "h5_local_round_trip");
    if (!round_trip || round_trip(argv[2]) != 0) {
        fprintf(stderr, "h5_local: %s: the round trip failed\n", argv[2]);
        return 1;
    }
    printf("round trip ok\n");
    return 0;
}
