/* config.c: the RECORDER_* environment variables. A bad value gets one
 * warning line on stderr, then the default. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"

rt_config *rt_active_config;

/* Paths whose calls are not recorded unless RECORDER_EXCLUSION_FILE says
 * otherwise: the system's own files, which no application I/O study wants.
 * A "!" entry keeps its paths traced although another entry covers them:
 * /dev/shm is memory that programs put their scratch and checkpoint files in. */
static const char *const default_exclusions[] = {"/proc/", "/sys/", "/dev/", "!/dev/shm/", "/etc/", "/usr/",
                                                  "/lib/", "/lib64/", "/run/", "/var/run/"};

/* Programs that start MPI ranks but are none: traced, each would write a
 * rank 0 of its own into the ranks' directory (`LD_PRELOAD=librecorder.so
 * mpirun ...` preloads the tracer into the launcher too). A name matches
 * itself and itself with a suffix (`mpirun.mpich`, `mpiexec.hydra`). */
static const char default_launchers[] = "mpiexec:mpirun:orterun:orted:prterun:prted:prte:hydra_pmi_proxy:"
                                        "hydra_nameserver:hydra_persist:srun:aprun:jsrun";

static void remember(rt_config *c, const char *key, const char *value)
{
    if (c->noptions >= RT_MAX_OPTIONS)
        return;
    snprintf(c->option_text[c->noptions][0], sizeof c->option_text[0][0], "%s", key);
    snprintf(c->option_text[c->noptions][1], sizeof c->option_text[0][1], "%s", value);
    c->noptions++;
}

static double env_double(rt_config *c, const char *key, double dflt, double lo, double hi)
{
    const char *s = getenv(key);
    if (!s || !*s)
        return dflt;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !(v >= lo && v <= hi)) {
        rt_warn("recorder: %s=%s: not a number in [%g, %g]; using %g", key, s, lo, hi, dflt);
        return dflt;
    }
    remember(c, key, s);
    return v;
}

/* Integers, with an optional K, M or G suffix (powers of 1024). */
static long long env_int(rt_config *c, const char *key, long long dflt, long long lo, long long hi)
{
    const char *s = getenv(key);
    if (!s || !*s)
        return dflt;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    switch (toupper((unsigned char)*end)) {
    case 'K': v <<= 10; end++; break;
    case 'M': v <<= 20; end++; break;
    case 'G': v <<= 30; end++; break;
    default: break;
    }
    if (errno || *end || v < lo || v > hi || end == s) {
        rt_warn("recorder: %s=%s: not an integer in [%lld, %lld]; using %lld", key, s, lo, hi, dflt);
        return dflt;
    }
    remember(c, key, s);
    return v;
}

/* RECORDER_AGGREGATE: off (or 0), node, or a number of files. */
static int env_aggregate(rt_config *c)
{
    const char *s = getenv("RECORDER_AGGREGATE");
    if (!s || !*s)
        return RT_AGGREGATE_AUTO;
    if (strcmp(s, "node") == 0 || strcmp(s, "off") == 0) {
        remember(c, "RECORDER_AGGREGATE", s);
        return *s == 'n' ? RT_AGGREGATE_NODE : RT_AGGREGATE_OFF;
    }
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < 0 || v > (1 << 24)) {
        rt_warn("recorder: RECORDER_AGGREGATE=%s: not off, node or a number of files in [0, %d]; using the default",
                s, 1 << 24);
        return RT_AGGREGATE_AUTO;
    }
    remember(c, "RECORDER_AGGREGATE", s);
    return (int)v;
}

static void load_prefixes(rt_config *c, const char *key, char **list, size_t *n)
{
    const char *path = getenv(key);
    if (!path || !*path)
        return;
    FILE *f = fopen(path, "r");
    if (!f) {
        rt_warn("recorder: %s=%s: cannot open: %s; ignored", key, path, strerror(errno));
        return;
    }
    remember(c, key, path);
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            continue;
        if (*n >= RT_MAX_PREFIXES) {
            rt_warn("recorder: %s: more than %d prefixes; the rest are ignored", path, RT_MAX_PREFIXES);
            break;
        }
        list[(*n)++] = strdup(p);
    }
    fclose(f);
}

static int env_uint(const char *key, uint32_t *out)
{
    const char *s = getenv(key);
    if (!s || !*s)
        return 0;
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*end)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

/* Whether `name` is one of the colon-separated `list`, alone or followed by
 * a suffix starting with '.'. */
static int listed_program(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ":");
        if (len && len <= n && strncmp(p, name, len) == 0 && (name[len] == 0 || name[len] == '.'))
            return 1;
        p += len + (p[len] == ':');
    }
    return 0;
}

/* Whether the first argument that is no option names a listed program: an
 * interpreter running a launcher script (Intel MPI's `mpirun`, a site's
 * `mpirun` wrapper) has the interpreter's name and the script as argument. */
static int script_is_listed(const char *list)
{
    char args[4096];
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, args, sizeof args - 1);
    close(fd);
    if (n <= 0)
        return 0;
    args[n] = 0;
    for (const char *a = args + strlen(args) + 1; a < args + n; a += strlen(a) + 1) {
        if (a[0] == '-')
            continue;
        const char *base = strrchr(a, '/');
        return listed_program(list, base ? base + 1 : a);
    }
    return 0;
}

/* The name it was started by (`mpirun`) and the file that runs
 * (`mpiexec.hydra`, through Debian's alternatives), or the script it runs. */
static int is_launcher(rt_config *c)
{
    const char *list = getenv("RECORDER_LAUNCHERS");
    if (list)
        remember(c, "RECORDER_LAUNCHERS", list);
    else
        list = default_launchers;
    if (listed_program(list, program_invocation_short_name))
        return 1;
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return 0;
    exe[len] = 0;
    const char *base = strrchr(exe, '/');
    return listed_program(list, base ? base + 1 : exe) || script_is_listed(list);
}

void rt_config_load(rt_config *c)
{
    memset(c, 0, sizeof *c);
    rt_active_config = c;
    const char *dir = getenv("RECORDER_TRACES_DIR");
    if (dir && *dir) {
        snprintf(c->traces_dir, sizeof c->traces_dir, "%s", dir);
        remember(c, "RECORDER_TRACES_DIR", dir);
    }
    c->time_resolution = env_double(c, "RECORDER_TIME_RESOLUTION", 1e-7, 1e-9, 1.0);
    c->window = (unsigned)env_int(c, "RECORDER_WINDOW", RT_WINDOW_DEFAULT, 0, REC_WINDOW_MAX);
    c->buffer_size = (size_t)env_int(c, "RECORDER_BUFFER_SIZE", 1 << 20, 4096, 32 << 20);
    c->compression_level = (int)env_int(c, "RECORDER_COMPRESSION_LEVEL", 1, -50, 19);
    c->flush_interval = env_double(c, "RECORDER_FLUSH_INTERVAL", 60.0, 0.0, 1e9);
    c->aggregate = env_aggregate(c);
    c->attr_values = (int)env_int(c, "RECORDER_ATTR_VALUES", 1, 0, 1);
    c->attr_value_max = (size_t)env_int(c, "RECORDER_ATTR_VALUE_MAX", RT_ATTR_VALUE_MAX, 0, RT_ATTR_VALUE_LARGEST);
    const char *stage = getenv("RECORDER_STAGE_DIR");
    if (!stage || !*stage)
        stage = getenv("TMPDIR");
    snprintf(c->stage_dir, sizeof c->stage_dir, "%s", stage && *stage ? stage : "/tmp");
    static const char *const layer_keys[REC_LAYER_COUNT] = {"RECORDER_POSIX_TRACING", "RECORDER_MPI_TRACING",
                                                            "RECORDER_MPIIO_TRACING", "RECORDER_HDF5_TRACING",
                                                            "RECORDER_PNETCDF_TRACING", "RECORDER_NETCDF_TRACING"};
    for (int l = 0; l < REC_LAYER_COUNT; l++)
        c->layer_on[l] = (unsigned char)env_int(c, layer_keys[l], 1, 0, 1);
    load_prefixes(c, "RECORDER_EXCLUSION_FILE", c->exclude, &c->nexclude);
    if (!getenv("RECORDER_EXCLUSION_FILE"))
        for (size_t i = 0; i < sizeof default_exclusions / sizeof *default_exclusions; i++)
            c->exclude[c->nexclude++] = (char *)default_exclusions[i];
    load_prefixes(c, "RECORDER_INCLUSION_FILE", c->include, &c->ninclude);
    for (size_t i = 0; i < c->nexclude; i++) {
        c->exclude_keeps[i] = c->exclude[i][0] == '!';
        c->exclude[i] += c->exclude_keeps[i];
        c->exclude_len[i] = strlen(c->exclude[i]);
    }
    for (size_t i = 0; i < c->ninclude; i++)
        c->include_len[i] = strlen(c->include[i]);
    if (!getcwd(c->cwd, sizeof c->cwd))
        c->cwd[0] = 0;
    /* Hydra (MPICH) and PMIx/Open MPI launchers name the rank before MPI_Init. */
    c->launcher_size = 1;
    c->under_mpi_launcher = env_uint("PMI_RANK", &c->launcher_rank) || env_uint("PMIX_RANK", &c->launcher_rank) ||
                            env_uint("OMPI_COMM_WORLD_RANK", &c->launcher_rank);
    if (!env_uint("PMI_SIZE", &c->launcher_size))
        env_uint("OMPI_COMM_WORLD_SIZE", &c->launcher_size);
    c->is_launcher = !c->under_mpi_launcher && is_launcher(c);
}

size_t rt_config_options(const rt_config *c, rec_option *out, size_t max)
{
    size_t n = 0;
    for (; n < c->noptions && n < max; n++)
        out[n] = (rec_option){c->option_text[n][0], c->option_text[n][1]};
    return n;
}

/* Every traced call with a path asks this of each prefix: most differ in
 * their first two bytes, which settles it without a string comparison. */
static int has_prefix(const char *path, const char *prefix, size_t n)
{
    if (n && (path[0] != prefix[0] || (n > 2 && path[1] != prefix[1]))) /* n > 2: "a/" also covers "a" */
        return 0;
    if (strncmp(path, prefix, n) == 0)
        return 1;
    /* "/dev/" also covers "/dev" itself */
    return n > 1 && prefix[n - 1] == '/' && strncmp(path, prefix, n - 1) == 0 && path[n - 1] == 0;
}

int rt_config_path_traced(const rt_config *c, const char *path)
{
    char full[PATH_MAX * 2];
    if (path[0] != '/' && c->cwd[0]) {
        snprintf(full, sizeof full, "%s/%s", c->cwd, path);
        path = full;
    }
    int excluded = 0;
    for (size_t i = 0; i < c->nexclude; i++)
        if (has_prefix(path, c->exclude[i], c->exclude_len[i])) {
            if (c->exclude_keeps[i]) {
                excluded = 0;
                break;
            }
            excluded = 1;
        }
    if (excluded)
        return 0;
    if (!c->ninclude)
        return 1;
    for (size_t i = 0; i < c->ninclude; i++)
        if (has_prefix(path, c->include[i], c->include_len[i]))
            return 1;
    return 0;
}
