/* Units of the facts library: the lexical path rules every tool re-roots
 * by (the replayer, generated kernels and recorder-diff must agree, so they
 * must stay exactly these), which calls create their paths, a call's
 * outcome and bytes, the console and special files, link targets, the
 * inputs scan and datatype layouts. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <hdf5.h>
#include <mpi.h>
#include "rec_mpi_versions.h"

#include "rec_function_ids.h"
#include "recorder_facts.h"
#include "rk_test.h"

static const char *norm(const char *in, int clamp, int *rc)
{
    static char out[PATH_MAX];
    *rc = rf_path_normalize(in, out, sizeof out, RF_PATH_ROOTED | (clamp ? 0 : RF_PATH_ESCAPE_FAILS));
    return out;
}

#define NORM_IS(in, want)                                                                                    \
    do {                                                                                                     \
        int rc_;                                                                                             \
        CU_ASSERT_STRING_EQUAL(norm(in, 1, &rc_), want);                                                     \
        CU_ASSERT_EQUAL(rc_, 0);                                                                             \
    } while (0)

RK_TEST(facts, absolute_and_relative_paths_go_under_the_root)
{
    NORM_IS("/a/b/c", "/a/b/c");
    NORM_IS("x/y", "/x/y");
    NORM_IS("a//b/", "/a/b");
    NORM_IS("", "/");
    NORM_IS(".", "/");
    NORM_IS("/", "/");
}

RK_TEST(facts, dot_dot_is_lexical_and_clamped_at_the_root)
{
    NORM_IS("/a/./b/../c", "/a/c");
    NORM_IS("../../etc/passwd", "/etc/passwd");
    NORM_IS("/..", "/");
    NORM_IS("/a/../../../b/..", "/");
    NORM_IS("a/b/../../../../c", "/c");
    int rc;
    norm("/a/../../b", 0, &rc);
    CU_ASSERT_EQUAL(rc, 1); /* without clamping, climbing out is reported */
    norm("/a/b/../c", 0, &rc);
    CU_ASSERT_EQUAL(rc, 0);
}

RK_TEST(facts, reroot_prefixes_the_normalized_path)
{
    char out[PATH_MAX];
    CU_ASSERT_EQUAL(rf_path_reroot("/p/q", "/a/b", out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "/p/q/a/b");
    CU_ASSERT_EQUAL(rf_path_reroot("/p/q", "/", out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "/p/q");
    CU_ASSERT_EQUAL(rf_path_reroot("/p", "/a", out, 3), -1);
}

RK_TEST(facts, device_proc_and_sys_paths_are_recognized)
{
    CU_ASSERT(rf_path_is_system("/dev"));
    CU_ASSERT(rf_path_is_system("/dev/null"));
    CU_ASSERT(rf_path_is_system("/proc/self/fd/1"));
    CU_ASSERT(rf_path_is_system("/sys/kernel"));
    CU_ASSERT(!rf_path_is_system("/devices"));
    CU_ASSERT(!rf_path_is_system("/dev/shm"));
    CU_ASSERT(!rf_path_is_system("/dev/shm/run_17/ckpt.h5"));
    CU_ASSERT(rf_path_is_system("/dev/shmem"));
    CU_ASSERT(!rf_path_is_system("/a/dev/null"));
    CU_ASSERT(!rf_path_is_system("/processes"));
}

static int creates(const char *func, unsigned arg, int64_t a0, int64_t a1, int64_t a2, const char *mode)
{
    const rec_func_desc *f = rec_function_by_name(func);
    int64_t ints[REC_MAX_ARGS] = {a0, a1, a2};
    const char *strs[REC_MAX_ARGS] = {0};
    for (unsigned k = 0; k < f->nargs; k++)
        if (f->args[k].kind == REC_KIND_STDIO_MODE)
            strs[k] = mode;
    return rf_path_created(f, arg, ints, strs);
}

RK_TEST(facts, which_calls_create_their_paths)
{
    CU_ASSERT(creates("open", 0, 64, O_WRONLY | O_CREAT | O_TRUNC, 0644, NULL));
    CU_ASSERT(!creates("open", 0, 64, O_RDONLY, 0, NULL));
    CU_ASSERT(creates("openat", 1, 3, 64, O_CREAT, NULL));
    CU_ASSERT(creates("creat", 0, 64, 0644, 0, NULL));
    CU_ASSERT(creates("fopen", 0, 64, 0, 0, "w"));
    CU_ASSERT(creates("fopen", 0, 64, 0, 0, "a+"));
    CU_ASSERT(!creates("fopen", 0, 64, 0, 0, "r+"));
    CU_ASSERT(creates("mkdir", 0, 64, 0755, 0, NULL));
    CU_ASSERT(!creates("stat", 0, 64, 0, 0, NULL));
    CU_ASSERT(!creates("rename", 0, 64, 65, 0, NULL));
    CU_ASSERT(creates("rename", 1, 64, 65, 0, NULL));
    CU_ASSERT(creates("symlink", 1, 64, 65, 0, NULL));
    CU_ASSERT(creates("MPI_File_open", 1, 1, 64, MPI_MODE_CREATE | MPI_MODE_WRONLY, NULL));
    CU_ASSERT(!creates("MPI_File_open", 1, 1, 64, MPI_MODE_RDONLY, NULL));
    CU_ASSERT(creates("H5Fcreate", 0, 64, H5F_ACC_TRUNC, 0, NULL));
    CU_ASSERT(!creates("H5Fopen", 0, 64, H5F_ACC_RDONLY, 0, NULL));
    CU_ASSERT(rf_path_names_no_file(rec_function_by_name("symlink"), 0));
    CU_ASSERT(!rf_path_names_no_file(rec_function_by_name("symlink"), 1));
    CU_ASSERT(rf_path_names_no_file(rec_function_by_name("H5Lcreate_external"), 0));
}

/* ---- relative paths keep what lies above them (kernels, recorder-diff) ---- */

static const char *norm_relative(const char *in)
{
    static char out[PATH_MAX];
    CU_ASSERT_EQUAL(rf_path_normalize(in, out, sizeof out, 0), 0);
    return out;
}

RK_TEST(facts, relative_paths_stay_relative_with_leading_dot_dots)
{
    CU_ASSERT_STRING_EQUAL(norm_relative("a/./b//c/"), "a/b/c");
    CU_ASSERT_STRING_EQUAL(norm_relative("a/../../b"), "../b");
    CU_ASSERT_STRING_EQUAL(norm_relative("../../x/../y"), "../../y");
    CU_ASSERT_STRING_EQUAL(norm_relative("./"), ".");
    CU_ASSERT_STRING_EQUAL(norm_relative("a/.."), ".");
    CU_ASSERT_STRING_EQUAL(norm_relative("/a/../../b"), "/b"); /* absolute: clamped at the root */
    char out[8];
    CU_ASSERT_EQUAL(rf_path_normalize("/abc/defgh", out, sizeof out, 0), -1); /* cut short */
    CU_ASSERT_STRING_EQUAL(out, "/abc/de");
}

/* ---- a call's outcome, bytes and console ---- */

static rec_record record(int64_t ret)
{
    rec_record r;
    memset(&r, 0, sizeof r);
    r.ret.i = ret;
    return r;
}

RK_TEST(facts, a_null_pointer_is_recorded_as_minus_one_and_a_size_query_fails_with_zero)
{
    const rec_func_desc *fopen_ = rec_function_by_name("fopen"), *tsize = rec_function_by_name("H5Tget_size");
    CU_ASSERT_EQUAL(rf_ret_status(fopen_, -1), 0);
    CU_ASSERT_EQUAL(rf_ret_status(fopen_, 0), 1); /* stdin's id is a handle like any other */
    CU_ASSERT_EQUAL(rf_ret_status(tsize, 0), 0);
    CU_ASSERT_EQUAL(rf_ret_status(tsize, 8), 1);
    CU_ASSERT_EQUAL(rf_ret_status(rec_function_by_name("write"), -1), 0);
    CU_ASSERT_EQUAL(rf_ret_status(rec_function_by_name("MPI_File_close"), 13), 0);
    CU_ASSERT_EQUAL(rf_ret_status(rec_function_by_name("H5Dwrite"), -1), 0);
    CU_ASSERT_EQUAL(rf_ret_status(rec_function_by_name("readdir"), 0), -1); /* a name: cannot tell */
    CU_ASSERT_EQUAL(rf_ret_status(rec_function_by_name("rewind"), 0), -1);  /* void */
}

static int64_t bytes(const char *func, rec_record *r)
{
    const rec_func_desc *f = rec_function_by_name(func);
    rf_args a;
    rf_args_of(f, &a);
    return rf_bytes_moved(f, &a, r);
}

RK_TEST(facts, bytes_moved_come_from_the_derived_field_the_return_the_item_size_or_the_string)
{
    rec_record r = record(100);
    CU_ASSERT_EQUAL(bytes("pwrite", &r), 100);
    r = record(3);
    r.args[REC_ARG_fread_size].i = 8;
    CU_ASSERT_EQUAL(bytes("fread", &r), 24);
    r = record(1); /* glibc's fputs returns a small non-negative number */
    r.args[REC_ARG_fputs_s].i = 11;
    CU_ASSERT_EQUAL(bytes("fputs", &r), 11);
    r = record(0);
    r.args[REC_ARG_MPI_File_write_at_bytes].i = 4096;
    CU_ASSERT_EQUAL(bytes("MPI_File_write_at", &r), 4096);
    r = record(-1);
    CU_ASSERT_EQUAL(bytes("fgetc", &r), -1); /* EOF */
    r = record(0);
    CU_ASSERT_EQUAL(bytes("fsync", &r), -1); /* moves nothing it can count */
}

RK_TEST(facts, the_console_is_fds_0_to_2_and_the_three_standard_streams)
{
    for (int64_t id = 0; id < 3; id++)
        CU_ASSERT(rf_is_console(REC_KIND_FD, id));
    CU_ASSERT(!rf_is_console(REC_KIND_FD, 3));
    CU_ASSERT(!rf_is_console(REC_KIND_FD, 64));
    CU_ASSERT(!rf_is_console(REC_KIND_FD, -1));
    CU_ASSERT(!rf_is_console(REC_KIND_FILE_STREAM, 0)); /* NULL */
    for (int64_t id = 1; id <= 3; id++)
        CU_ASSERT(rf_is_console(REC_KIND_FILE_STREAM, id));
    CU_ASSERT(!rf_is_console(REC_KIND_DIRFD, 3)); /* AT_FDCWD */
    rec_record r = record(5);
    r.args[REC_ARG_write_fd].i = 2;
    CU_ASSERT(rf_on_console(rec_function_by_name("write"), &r));
    r.args[REC_ARG_write_fd].i = 64;
    CU_ASSERT(!rf_on_console(rec_function_by_name("write"), &r));
}

RK_TEST(facts, calls_on_dev_proc_and_sys_and_on_the_handles_they_made_are_special)
{
    const rec_func_desc *open_ = rec_function_by_name("open"), *read_ = rec_function_by_name("read");
    const rec_func_desc *close_ = rec_function_by_name("close"), *symlink_ = rec_function_by_name("symlink");
    const int64_t fd = REC_HANDLE_DYNAMIC_BASE + 1;
    const char *none[REC_MAX_ARGS] = {0}, *null_dev[REC_MAX_ARGS] = {"/dev/null"};
    const char *climbs[REC_MAX_ARGS] = {"../../../../proc/self/stat"}, *file[REC_MAX_ARGS] = {"out/data"};
    const char *link[REC_MAX_ARGS] = {"/dev/sda", "disk"}; /* a target names no file */
    rf_special *s = rf_special_new();
    rec_record r = record(fd);
    CU_ASSERT(rf_special_call(s, open_, &r, 0, null_dev));
    CU_ASSERT(rf_special_call(s, open_, &r, 1, climbs)); /* ".." stops at "/" */
    r.ret.i = fd + 1;
    CU_ASSERT(!rf_special_call(s, open_, &r, 0, file));
    CU_ASSERT(!rf_special_call(s, symlink_, &r, 0, link));
    r = record(4);
    r.args[REC_ARG_read_fd].i = fd;
    CU_ASSERT(rf_special_call(s, read_, &r, 0, none));
    CU_ASSERT(rf_special_call(s, read_, &r, 1, none));
    CU_ASSERT(!rf_special_call(s, read_, &r, 2, none)); /* another rank's handle of that id */
    r.args[REC_ARG_read_fd].i = fd + 1;
    CU_ASSERT(!rf_special_call(s, read_, &r, 0, none));
    r = record(0);
    r.args[REC_ARG_close_fd].i = fd;
    CU_ASSERT(rf_special_call(s, close_, &r, 0, none));
    r = record(4);
    r.args[REC_ARG_read_fd].i = fd;
    CU_ASSERT(!rf_special_call(s, read_, &r, 0, none)); /* closed: the id may be a file's next */
    rf_special_free(s);
}

RK_TEST(facts, a_relative_link_target_is_kept_while_it_stays_inside_read_from_its_link)
{
    char key[PATH_MAX];
    CU_ASSERT_EQUAL(rf_link_target_key("a/b/link", "../x", key, sizeof key), 0);
    CU_ASSERT_STRING_EQUAL(key, "/a/x");
    CU_ASSERT_EQUAL(rf_link_target_key("../../a/link", "../x", key, sizeof key), 0); /* the link is /a/link */
    CU_ASSERT_STRING_EQUAL(key, "/x");
    CU_ASSERT_EQUAL(rf_link_target_key("a/link", "../../x", key, sizeof key), 1);
    CU_ASSERT_EQUAL(rf_link_target_key("link", "../../../sentinel", key, sizeof key), 1);
    CU_ASSERT(rf_places_link(rec_function_by_name("symlink")));
    CU_ASSERT(rf_places_link(rec_function_by_name("rename")));
    CU_ASSERT(rf_places_link(rec_function_by_name("linkat")));
    CU_ASSERT(!rf_places_link(rec_function_by_name("mkdir")));
    CU_ASSERT(!rf_places_link(rec_function_by_name("open")));
    CU_ASSERT(!rf_places_link(rec_function_by_name("unlink")));
}

RK_TEST(facts, an_mpi_call_that_changes_an_object_and_reports_nothing)
{
    CU_ASSERT(rf_changes_mpi_object(rec_function_by_name("MPI_Type_commit")));
    CU_ASSERT(rf_changes_mpi_object(rec_function_by_name("MPI_Info_set")));
    CU_ASSERT(!rf_changes_mpi_object(rec_function_by_name("MPI_Type_size")));
    CU_ASSERT(!rf_changes_mpi_object(rec_function_by_name("MPI_Info_get_nkeys")));
    CU_ASSERT(!rf_changes_mpi_object(rec_function_by_name("MPI_Barrier")));
    /* an error handler set: the handler, not the handle, is what changes; the get reports one */
    CU_ASSERT(rf_changes_mpi_object(rec_function_by_name("MPI_Comm_set_errhandler")));
    CU_ASSERT(rf_changes_mpi_object(rec_function_by_name("MPI_File_set_errhandler")));
    CU_ASSERT(!rf_changes_mpi_object(rec_function_by_name("MPI_Comm_get_errhandler")));
    CU_ASSERT(!rf_changes_mpi_object(rec_function_by_name("MPI_Errhandler_free")));
}

/* ---- the inputs scan ---- */

static void call(rf_inputs *s, uint32_t rank, double t, const char *func, const char *path, int64_t ret,
                 int64_t err, const int64_t *ints)
{
    const rec_func_desc *f = rec_function_by_name(func);
    rec_record r = record(ret);
    r.err = err;
    const char *paths[REC_MAX_ARGS] = {0};
    for (unsigned k = 0; k < f->nargs; k++) {
        r.args[k].i = ints ? ints[k] : 0;
        if (f->args[k].kind == REC_KIND_PATH && !paths[k] && path) {
            paths[k] = path;
            path = NULL;
        }
    }
    rf_inputs_add(s, f, &r, rank, t, paths);
}

static const rf_input *find_input(const rf_input *in, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(in[i].key, key))
            return &in[i];
    return NULL;
}

RK_TEST(facts, inputs_are_what_a_run_used_before_it_created_them)
{
    for (int ancestors = 0; ancestors < 2; ancestors++) {
        rf_inputs *s = rf_inputs_new(ancestors ? RF_INPUTS_ANCESTORS : 0);
        int64_t stat_args[2] = {0, 100}; /* st_size 100 */
        call(s, 0, 1.0, "stat", "in/mesh.dat", 0, 0, stat_args);
        int64_t open_rd[3] = {0, O_RDONLY, 0};
        call(s, 1, 1.5, "open", "/in/./mesh.dat", 64, 0, open_rd);
        int64_t read_args[3] = {64, 0, 4096};
        call(s, 1, 1.6, "read", NULL, 250, 0, read_args); /* reads 250 bytes: the file held at least 250 */
        int64_t open_cr[3] = {0, O_WRONLY | O_CREAT | O_TRUNC, 0644};
        call(s, 0, 2.0, "open", "out/ckpt.dat", 65, 0, open_cr);
        call(s, 0, 3.0, "stat", "out/ckpt.dat", 0, 0, stat_args); /* after its creation: no input */
        int64_t mkdir_args[2] = {0, 0755};
        call(s, 0, 0.5, "mkdir", "runs", -1, EEXIST, mkdir_args); /* existed */
        call(s, 1, 4.0, "symlink", NULL, 0, 0, NULL);
        rf_input *in;
        size_t n = rf_inputs_finish(s, &in);
        const rf_input *mesh = find_input(in, n, "/in/mesh.dat");
        CU_ASSERT_PTR_NOT_NULL_FATAL(mesh);
        CU_ASSERT(!mesh->is_dir);
        CU_ASSERT_EQUAL(mesh->size, 250);
        CU_ASSERT_PTR_NULL(find_input(in, n, "/out/ckpt.dat"));
        const rf_input *runs = find_input(in, n, "/runs");
        CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
        CU_ASSERT(runs->is_dir);
        /* the directories above what was used are inputs only when asked for */
        CU_ASSERT_EQUAL(find_input(in, n, "/in") != NULL, ancestors);
        CU_ASSERT_EQUAL(find_input(in, n, "/out") != NULL, ancestors);
        CU_ASSERT_EQUAL(n, ancestors ? 4u : 2u);
        for (size_t i = 1; i < n; i++)
            CU_ASSERT(strcmp(in[i - 1].key, in[i].key) < 0);
        rf_inputs_free(in, n);
    }
}

RK_TEST(facts, what_lies_below_a_link_the_run_made_is_no_input)
{
    rf_inputs *s = rf_inputs_new(RF_INPUTS_ANCESTORS);
    const rec_func_desc *f = rec_function_by_name("symlink");
    rec_record r = record(0);
    const char *paths[REC_MAX_ARGS] = {0};
    paths[REC_ARG_symlink_target] = "/data/real";
    paths[REC_ARG_symlink_linkpath] = "/work/latest";
    rf_inputs_add(s, f, &r, 0, 1.0, paths);
    int64_t stat_args[2] = {0, 7};
    call(s, 0, 2.0, "stat", "/work/latest/file", 0, 0, stat_args);
    call(s, 0, 3.0, "stat", "/proc/self/status", 0, 0, stat_args); /* never an input */
    rf_input *in;
    size_t n = rf_inputs_finish(s, &in);
    CU_ASSERT_PTR_NULL(find_input(in, n, "/work/latest/file"));
    CU_ASSERT_PTR_NULL(find_input(in, n, "/data/real")); /* a target names no file the call touches */
    CU_ASSERT_PTR_NULL(find_input(in, n, "/proc/self/status"));
    CU_ASSERT_PTR_NOT_NULL(find_input(in, n, "/work"));
    rf_inputs_free(in, n);
}

/* ---- datatypes ---- */

typedef struct fake_call {
    int64_t scalars[REC_MAX_ARGS];
    const int64_t *arrays[REC_MAX_ARGS];
    size_t lens[REC_MAX_ARGS];
    rf_type made[4]; /* derived types 64.. */
} fake_call;

static int64_t fake_scalar(const void *ctx, unsigned arg)
{
    return ((const fake_call *)ctx)->scalars[arg];
}

static size_t fake_array(const void *ctx, unsigned arg, int64_t *out, size_t cap)
{
    const fake_call *c = ctx;
    for (size_t i = 0; i < c->lens[arg] && i < cap; i++)
        out[i] = c->arrays[arg][i];
    return c->lens[arg];
}

static rf_type fake_type(const void *ctx, int64_t id)
{
    const fake_call *c = ctx;
    return rec_handle_is_dynamic(id) ? c->made[id - REC_HANDLE_DYNAMIC_BASE] : rf_type_predefined(id);
}

static rf_type construct(const char *func, fake_call *c)
{
    rf_values v = {fake_scalar, fake_array, fake_type, c};
    return rf_type_construct(rec_function_by_name(func), &v);
}

enum { DT_BYTE = 4, DT_INT = 8, DT_DOUBLE = 13 }; /* functions/handles.def */

RK_TEST(facts, datatype_layouts_follow_the_mpi_standard)
{
    fake_call c;
    memset(&c, 0, sizeof c);
    c.scalars[REC_ARG_MPI_Type_vector_count] = 4;
    c.scalars[REC_ARG_MPI_Type_vector_blocklength] = 2;
    c.scalars[REC_ARG_MPI_Type_vector_stride] = 3;
    c.scalars[REC_ARG_MPI_Type_vector_oldtype] = DT_DOUBLE;
    rf_type t = construct("MPI_Type_vector", &c);
    CU_ASSERT_EQUAL(t.size, 64);
    CU_ASSERT_EQUAL(t.extent, 3 * 24 + 16);
    CU_ASSERT_EQUAL(t.lb, 0);
    CU_ASSERT(t.known && !t.contiguous);

    memset(&c, 0, sizeof c);
    static const int64_t sizes[] = {4, 6}, subs[] = {2, 3}, starts[] = {1, 2};
    c.arrays[REC_ARG_MPI_Type_create_subarray_array_of_sizes] = sizes;
    c.arrays[REC_ARG_MPI_Type_create_subarray_array_of_subsizes] = subs;
    c.arrays[REC_ARG_MPI_Type_create_subarray_array_of_starts] = starts;
    c.lens[REC_ARG_MPI_Type_create_subarray_array_of_sizes] = 2;
    c.lens[REC_ARG_MPI_Type_create_subarray_array_of_subsizes] = 2;
    c.lens[REC_ARG_MPI_Type_create_subarray_array_of_starts] = 2;
    c.scalars[REC_ARG_MPI_Type_create_subarray_order] = MPI_ORDER_C;
    c.scalars[REC_ARG_MPI_Type_create_subarray_oldtype] = DT_INT;
    t = construct("MPI_Type_create_subarray", &c);
    CU_ASSERT_EQUAL(t.size, 24);
    CU_ASSERT_EQUAL(t.extent, 96);
    CU_ASSERT_EQUAL(t.true_lb, (1 * 6 + 2) * 4);
    CU_ASSERT(!t.contiguous);

    /* one block at byte 100: its lower bound is there, its extent the block's */
    memset(&c, 0, sizeof c);
    static const int64_t bl[] = {3}, disp[] = {100};
    c.scalars[REC_ARG_MPI_Type_create_hindexed_count] = 1;
    c.arrays[REC_ARG_MPI_Type_create_hindexed_array_of_blocklengths] = bl;
    c.arrays[REC_ARG_MPI_Type_create_hindexed_array_of_displacements] = disp;
    c.lens[REC_ARG_MPI_Type_create_hindexed_array_of_blocklengths] = 1;
    c.lens[REC_ARG_MPI_Type_create_hindexed_array_of_displacements] = 1;
    c.scalars[REC_ARG_MPI_Type_create_hindexed_oldtype] = DT_BYTE;
    t = construct("MPI_Type_create_hindexed", &c);
    CU_ASSERT_EQUAL(t.lb, 100);
    CU_ASSERT_EQUAL(t.extent, 3);
    CU_ASSERT_EQUAL(t.true_lb, 100);
    CU_ASSERT(t.contiguous);

    /* resized from it: a new lower bound and extent, the same data */
    c.made[0] = t;
    memset(c.scalars, 0, sizeof c.scalars);
    c.scalars[REC_ARG_MPI_Type_create_resized_oldtype] = REC_HANDLE_DYNAMIC_BASE;
    c.scalars[REC_ARG_MPI_Type_create_resized_lb] = 0;
    c.scalars[REC_ARG_MPI_Type_create_resized_extent] = 400;
    rf_type r = construct("MPI_Type_create_resized", &c);
    CU_ASSERT_EQUAL(r.extent, 400);
    CU_ASSERT_EQUAL(r.size, 3);
    CU_ASSERT_EQUAL(r.true_lb, 100);
}

static size_t checked_types;

static void check_mpi_type(int64_t id, MPI_Datatype real, unsigned size, unsigned extent)
{
    int n = -1;
    MPI_Aint lb = -1, ext = -1;
    if (!size) /* MPI_LB, MPI_UB: markers, not data */
        return;
    MPI_Type_size(real, &n);
    MPI_Type_get_extent(real, &lb, &ext);
    rf_type t = rf_type_predefined(id);
    CU_ASSERT_EQUAL(n, (int)size);
    CU_ASSERT_EQUAL(ext, (MPI_Aint)extent);
    CU_ASSERT_EQUAL(t.size, n);
    CU_ASSERT_EQUAL(t.extent, ext);
    checked_types++;
}

static void check_h5_type(int64_t id, hid_t real, unsigned size)
{
    CU_ASSERT_EQUAL(H5Tget_size(real), (size_t)size);
    CU_ASSERT_EQUAL(rf_h5_type_size_predefined(id), (int64_t)size);
    checked_types++;
}

RK_TEST(facts, predefined_datatypes_sizes_and_extents_are_the_libraries_own)
{
    MPI_Init(NULL, NULL);
    checked_types = 0;
#define H(kind, id, expr)
#define T(kind, id, expr, size, extent)                                                                      \
    if (REC_KIND_##kind == REC_KIND_MPI_DATATYPE)                                                            \
        check_mpi_type(id, (MPI_Datatype)(intptr_t)(expr), size, extent);                                    \
    else                                                                                                     \
        check_h5_type(id, (hid_t)(intptr_t)(expr), size);
#include "handles.def"
#undef T
#undef H
    CU_ASSERT_EQUAL(checked_types, 150u);
    MPI_Finalize();
}

RK_TEST(facts, romio_file_system_prefixes_name_no_directory)
{
    char out[256];
    CU_ASSERT_EQUAL(rf_path_fs_prefix("ufs:/scratch/run_17/ior.dat"), 4);
    CU_ASSERT_EQUAL(rf_path_fs_prefix("lustre:out/x"), 7);
    CU_ASSERT_EQUAL(rf_path_fs_prefix("/scratch/ufs:/x"), 0);
    CU_ASSERT_EQUAL(rf_path_fs_prefix("job:17/x"), 0);
    CU_ASSERT_EQUAL(rf_path_fs_prefix(":x"), 0);
    CU_ASSERT_EQUAL(rf_path_normalize("ufs:/scratch//x/./y", out, sizeof out, RF_PATH_FS_PREFIX), 0);
    CU_ASSERT_STRING_EQUAL(out, "/scratch/x/y");
    CU_ASSERT_EQUAL(rf_path_normalize("nfs:rel/../z", out, sizeof out, RF_PATH_FS_PREFIX | RF_PATH_ROOTED), 0);
    CU_ASSERT_STRING_EQUAL(out, "/z");
    /* without the flag (POSIX calls) the prefix is a name like any other */
    CU_ASSERT_EQUAL(rf_path_normalize("ufs:/scratch/x", out, sizeof out, 0), 0);
    CU_ASSERT_STRING_EQUAL(out, "ufs:/scratch/x");
    CU_ASSERT_EQUAL(rf_path_flags(rec_function_by_name("MPI_File_open")), RF_PATH_FS_PREFIX);
    CU_ASSERT_EQUAL(rf_path_flags(rec_function_by_name("open")), 0);
}
