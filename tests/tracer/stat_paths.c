/* stat_paths: stat() on each argument, in order (tracer.path_exclusions).
 *   stat_paths PATH...
 * Prints nothing; the exit status is 0 whatever the calls returned. */
#include <sys/stat.h>

int main(int argc, char **argv)
{
    struct stat st;
    for (int i = 1; i < argc; i++)
        (void)stat(argv[i], &st);
    return 0;
}
