/* gen_late: the tracer's late binding to MPI and HDF5, generated from the
 * headers it is built with.
 *
 *   gen_late hdf5|mpi OUT_DIR HEADER...
 *
 * writes OUT_DIR/late_hdf5.h or late_mpi.h, which make every function and
 * variable the headers declare a macro that finds it at its first use in the
 * library the application loaded (tracer/late.h): for HDF5 what H5_DLL and
 * H5_DLLVAR mark, for MPI the PMPI_ functions and Open MPI's ompi_
 * variables. With hdf5 it also writes OUT_DIR/late_hdf5_globals.h, the
 * predefined type and property-list ids the static-HDF5 shim hands to the
 * tracer. librecorder.so then names no MPI or HDF5 symbol: a program that
 * uses neither never loads them, and one that uses another HDF5 (a
 * cluster's, a Python wheel's) is traced through its own. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_NAMES = 8192 };

typedef struct {
    char *name;
    int variable;
    int shim_global; /* an hid_t H5T_/H5P_ variable: every HDF5 build has it */
} declared;

static declared names[MAX_NAMES];
static int nnames;

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "gen_late: %s: cannot open\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "gen_late: %s: cannot read\n", path);
        exit(1);
    }
    text[n] = 0;
    fclose(f);
    return text;
}

/* Comments and preprocessor lines become blanks: what is left is C. */
static void blank_comments_and_directives(char *s)
{
    int line_start = 1;
    for (char *p = s; *p;) {
        if (p[0] == '/' && p[1] == '*') {
            char *end = strstr(p + 2, "*/");
            char *stop = end ? end + 2 : p + strlen(p);
            for (; p < stop; p++)
                if (*p != '\n')
                    *p = ' ';
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
            continue;
        }
        if (line_start && *p == '#') { /* a directive, with its continuation lines */
            while (*p && !(*p == '\n' && p[-1] != '\\'))
                *p++ = ' ';
            continue;
        }
        if (*p == '\n')
            line_start = 1;
        else if (!isspace((unsigned char)*p))
            line_start = 0;
        p++;
    }
}

static int is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static void add(const char *name, size_t len, int variable, int shim_global)
{
    for (int i = 0; i < nnames; i++)
        if (strlen(names[i].name) == len && strncmp(names[i].name, name, len) == 0)
            return;
    if (nnames == MAX_NAMES) {
        fprintf(stderr, "gen_late: more than %d declarations\n", MAX_NAMES);
        exit(1);
    }
    names[nnames++] = (declared){strndup(name, len), variable, shim_global};
}

/* One declaration, from after its H5_DLL/H5_DLLVAR to its ';'. A function's
 * name is the first identifier followed by '('; a variable's, the last. */
static void scan_declaration(const char *s, const char *end, int variable)
{
    const char *last = NULL, *type = NULL;
    size_t last_len = 0;
    for (const char *p = s; p < end;) {
        if (!is_ident(*p) || (p > s && is_ident(p[-1]))) {
            p++;
            continue;
        }
        const char *id = p;
        while (p < end && is_ident(*p))
            p++;
        if (!type)
            type = id;
        const char *q = p;
        while (q < end && isspace((unsigned char)*q))
            q++;
        if (!variable && *q == '(') {
            if (strncmp(id, "H5", 2) == 0)
                add(id, (size_t)(p - id), 0, 0);
            return;
        }
        last = id;
        last_len = (size_t)(p - id);
    }
    if (variable && last && strncmp(last, "H5", 2) == 0) {
        int hid = strncmp(type, "hid_t", 5) == 0 && !is_ident(type[5]);
        int core = strncmp(last, "H5T_", 4) == 0 || strncmp(last, "H5P_", 4) == 0;
        add(last, last_len, 1, hid && core);
    }
}

/* HDF5 marks what it exports: H5_DLL before a function, H5_DLLVAR before a
 * variable. */
static void scan_hdf5(char *text)
{
    for (char *p = strstr(text, "H5_DLL"); p; p = strstr(p, "H5_DLL")) {
        if (p > text && is_ident(p[-1])) {
            p += 6;
            continue;
        }
        int variable = strncmp(p, "H5_DLLVAR", 9) == 0;
        char *start = p + (variable ? 9 : 6);
        if (is_ident(*start)) { /* H5_DLLCPP and the like */
            p = start;
            continue;
        }
        char *end = strchr(start, ';');
        if (!end)
            break;
        scan_declaration(start, end, variable);
        p = end;
    }
}

/* MPI headers mark nothing. The tracer calls MPI only through the profiling
 * names, so every PMPI_ name declared as a function is one; Open MPI's
 * predefined handles are the addresses of ompi_ variables, declared extern. */
static void scan_mpi(char *text)
{
    char *stmt = text;
    int depth = 0, is_extern = 0;
    const char *var = NULL;
    size_t var_len = 0;
    for (char *p = text; *p;) {
        if (*p == ';' || *p == '{' || *p == '}') {
            if (is_extern && var && depth == 0)
                add(var, var_len, 1, 0);
            is_extern = 0, var = NULL, depth = 0;
            stmt = ++p;
            continue;
        }
        if (*p == '(' || *p == ')') {
            depth += *p == '(' ? 1 : -1;
            p++;
            continue;
        }
        if (!is_ident(*p) || (p > stmt && is_ident(p[-1]))) {
            p++;
            continue;
        }
        char *id = p;
        while (is_ident(*p))
            p++;
        size_t len = (size_t)(p - id);
        char *q = p;
        while (isspace((unsigned char)*q))
            q++;
        if (len > 5 && strncmp(id, "PMPI_", 5) == 0 && *q == '(')
            add(id, len, 0, 0);
        else if (len == 6 && strncmp(id, "extern", 6) == 0 && *q != '"')
            is_extern = 1;
        else if (depth == 0 && len > 5 && strncmp(id, "ompi_", 5) == 0)
            var = id, var_len = len;
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const declared *)a)->name, ((const declared *)b)->name);
}

static FILE *create(const char *dir, const char *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "gen_late: %s: cannot create\n", path);
        exit(1);
    }
    return out;
}

/* OUT_DIR/late_LIBRARY.h: a binding macro per declared name. */
static int write_names(const char *dir, const char *library)
{
    char file[64];
    snprintf(file, sizeof file, "late_%s.h", library);
    FILE *out = create(dir, file);
    fprintf(out, "/* Generated by gen_late from the %s headers: do not edit. */\n", library);
    int functions = 0;
    for (int i = 0; i < nnames; i++) {
        /* A name the headers already made a macro (API compatibility) maps onto a declared one. */
        fprintf(out, "#ifndef %s\n#define %s RT_LATE_%s(%s)\n#endif\n", names[i].name, names[i].name,
                names[i].variable ? "VAR" : "FN", names[i].name);
        functions += !names[i].variable;
    }
    fclose(out);
    return functions;
}

int main(int argc, char **argv)
{
    int hdf5 = argc >= 4 && strcmp(argv[1], "hdf5") == 0;
    if (argc < 4 || (!hdf5 && strcmp(argv[1], "mpi") != 0)) {
        fprintf(stderr, "usage: gen_late hdf5|mpi OUT_DIR HEADER...\n");
        return 2;
    }
    for (int i = 3; i < argc; i++) {
        char *text = read_text(argv[i]);
        blank_comments_and_directives(text);
        if (hdf5)
            scan_hdf5(text);
        else
            scan_mpi(text);
        free(text);
    }
    qsort(names, (size_t)nnames, sizeof names[0], by_name);
    int functions = write_names(argv[2], argv[1]);
    if (functions == 0) {
        fprintf(stderr, "gen_late: no %s functions declared in the %d headers given\n", argv[1], argc - 3);
        return 1;
    }
    if (!hdf5)
        return 0;
    FILE *out = create(argv[2], "late_hdf5_globals.h");
    fprintf(out, "/* Generated by gen_late from the hdf5 headers: do not edit. */\n");
    int globals = 0;
    for (int i = 0; i < nnames; i++)
        if (names[i].shim_global) {
            fprintf(out, "RT_H5_GLOBAL(%s)\n", names[i].name);
            globals++;
        }
    fclose(out);
    if (globals == 0) {
        fprintf(stderr, "gen_late: no HDF5 type or property-list ids declared in the %d headers given\n", argc - 3);
        return 1;
    }
    return 0;
}
