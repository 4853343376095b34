/* test_tune.c: tuning sets (tune/include/recorder_tune.h): the parser's values and
 * exact errors, and what the function table says each knob touches. */
#include "recorder_tune.h"
#include "rk_test.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tune_set *parsed(const char *text, char *err, size_t cap, int *status)
{
    tune_set *s = tune_set_new();
    err[0] = 0;
    *status = tune_set_parse(s, text, "set.txt", err, cap);
    return s;
}

RK_TEST(tune, values_as_the_trace_records_them)
{
    char err[2048];
    int status;
    tune_set *s = parsed("# a comment\n\nmpiio.cb_nodes = 2\n  mpiio.cb_buffer_size=16M # 16 MiB\n"
                         "mpiio.romio_cb_write=enable\nmpiio.data=collective\nhdf5.alignment=1m\n"
                         "hdf5.chunk_cache_w0=0.5\nhdf5.libver_high=latest\nhdf5.transfer=collective\n"
                         "hdf5.coll_metadata_write=true\nhdf5.fspace_strategy=page\n",
                         err, sizeof err, &status);
    CU_ASSERT_EQUAL(status, 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    CU_ASSERT_EQUAL(tune_set_count(s), 10);
    const tune_override *o = tune_set_at(s, 0);
    CU_ASSERT_EQUAL(o->what, TUNE_HINT);
    CU_ASSERT_STRING_EQUAL(o->key, "mpiio.cb_nodes");
    CU_ASSERT_STRING_EQUAL(o->name, "cb_nodes");
    CU_ASSERT_STRING_EQUAL(o->text, "2");
    CU_ASSERT_STRING_EQUAL(o->where, "set.txt:3");
    CU_ASSERT_STRING_EQUAL(tune_set_at(s, 1)->text, "16777216");
    CU_ASSERT_STRING_EQUAL(tune_set_at(s, 1)->value, "16M");
    CU_ASSERT_STRING_EQUAL(tune_set_at(s, 1)->where, "set.txt:4");
    CU_ASSERT_STRING_EQUAL(tune_set_at(s, 2)->text, "enable");
    CU_ASSERT_EQUAL(tune_set_at(s, 3)->what, TUNE_DATA);
    CU_ASSERT_EQUAL(tune_set_at(s, 3)->number, 1);
    o = tune_set_at(s, 4);
    CU_ASSERT_EQUAL(o->what, TUNE_PROP);
    CU_ASSERT_EQUAL(o->number, 1048576);
    CU_ASSERT_PTR_EQUAL(o->setter, rec_function_by_name("H5Pset_alignment"));
    CU_ASSERT_STRING_EQUAL(o->setter->args[o->arg].name, "alignment");
    CU_ASSERT_EQUAL(o->cls, TUNE_CLASS_FAPL);
    double half;
    memcpy(&half, &tune_set_at(s, 5)->number, sizeof half);
    CU_ASSERT_EQUAL(half, 0.5);
    CU_ASSERT_EQUAL(tune_set_at(s, 6)->number, H5F_LIBVER_LATEST);
    CU_ASSERT_EQUAL(tune_set_at(s, 7)->number, H5FD_MPIO_COLLECTIVE);
    CU_ASSERT_EQUAL(tune_set_at(s, 7)->cls, TUNE_CLASS_DXPL);
    CU_ASSERT_EQUAL(tune_set_at(s, 8)->number, 1);
    CU_ASSERT_EQUAL(tune_set_at(s, 9)->number, H5F_FSPACE_STRATEGY_PAGE);
    CU_ASSERT_EQUAL(tune_set_at(s, 9)->cls, TUNE_CLASS_FCPL);
    tune_set_free(s);
}

RK_TEST(tune, a_later_override_of_a_key_wins)
{
    char err[256];
    tune_set *s = tune_set_new();
    CU_ASSERT_EQUAL(tune_set_parse(s, "mpiio.cb_nodes=2\n", "f", err, sizeof err), 0);
    CU_ASSERT_EQUAL(tune_set_add(s, "mpiio.cb_nodes=4", "--set", err, sizeof err), 0);
    CU_ASSERT_EQUAL(tune_set_count(s), 1);
    CU_ASSERT_STRING_EQUAL(tune_set_at(s, 0)->text, "4");
    CU_ASSERT_STRING_EQUAL(tune_set_at(s, 0)->where, "--set");
    tune_set_free(s);
}

static void expect_error(const char *text, const char *message)
{
    char err[2048];
    int status;
    tune_set *s = parsed(text, err, sizeof err, &status);
    CU_ASSERT_EQUAL(status, -1);
    CU_ASSERT_STRING_EQUAL(err, message);
    if (strcmp(err, message))
        fprintf(stderr, "got: %s\nwant: %s\n", err, message);
    tune_set_free(s);
}

RK_TEST(tune, errors_name_the_line_the_key_and_what_is_valid)
{
    expect_error("mpiio.cb_nodes=2\ncb_nodes=2\n", "set.txt:2: expected LAYER.KEY=VALUE: cb_nodes=2");
    expect_error("mpiio.cb_nodes\n", "set.txt:1: expected LAYER.KEY=VALUE: mpiio.cb_nodes");
    expect_error("posix.direct=1\n",
                 "set.txt:1: unknown layer posix in posix.direct=1 (the layers: mpiio, hdf5)");
    expect_error("\n\nhdf5.alignement=4096\n",
                 "set.txt:3: unknown key hdf5.alignement (hdf5's keys: alignment_threshold, alignment, "
                 "meta_block_size, sieve_buf_size, chunk_cache_nslots, chunk_cache_nbytes, chunk_cache_w0, "
                 "coll_metadata_read, coll_metadata_write, libver_low, libver_high, fspace_strategy, "
                 "fspace_persist, fspace_threshold, fspace_page_size, transfer)");
    expect_error("mpiio.romio_cb_write=yes\n",
                 "set.txt:1: mpiio.romio_cb_write=yes: not enable, disable or automatic");
    expect_error(
        "mpiio.cb_nodes=two\n",
        "set.txt:1: mpiio.cb_nodes=two: not a byte count or number (digits, with K, M or G for 2^10, "
        "2^20, 2^30)");
    expect_error("mpiio.data=sometimes\n", "set.txt:1: mpiio.data=sometimes: not independent or collective");
    expect_error("hdf5.chunk_cache_w0=1.5\n", "set.txt:1: hdf5.chunk_cache_w0=1.5: not a number from 0 to 1");
    expect_error("hdf5.coll_metadata_read=yes\n",
                 "set.txt:1: hdf5.coll_metadata_read=yes: not true, false, 1 or 0");
    expect_error("hdf5.transfer=\n", "set.txt:1: expected LAYER.KEY=VALUE: hdf5.transfer=");
}

RK_TEST(tune, the_function_table_says_what_each_knob_touches)
{
    const rec_func_desc *open = rec_function_by_name("MPI_File_open"),
                        *view = rec_function_by_name("MPI_File_set_view");
    CU_ASSERT_EQUAL(tune_info_arg(open), rec_arg_with_kind(open, REC_KIND_MPI_INFO, REC_ARG_IN));
    CU_ASSERT_EQUAL(tune_info_arg(view), rec_arg_with_kind(view, REC_KIND_MPI_INFO, REC_ARG_IN));
    CU_ASSERT_EQUAL(tune_info_arg(rec_function_by_name("MPI_File_delete")), -1);
    const rec_func_desc *create = rec_function_by_name("H5Fcreate"),
                        *write = rec_function_by_name("H5Dwrite");
    CU_ASSERT_EQUAL(tune_use_class(create, 2), TUNE_CLASS_FCPL);
    CU_ASSERT_EQUAL(tune_use_class(create, 3), TUNE_CLASS_FAPL);
    CU_ASSERT_EQUAL(tune_use_class(write, 4), TUNE_CLASS_DXPL);
    CU_ASSERT_EQUAL(tune_use_class(write, 0), TUNE_CLASS_NONE);
    int coll = -1;
    CU_ASSERT_PTR_EQUAL(tune_twin(rec_function_by_name("MPI_File_write_at"), &coll),
                        rec_function_by_name("MPI_File_write_at_all"));
    CU_ASSERT_EQUAL(coll, 0);
    CU_ASSERT_PTR_EQUAL(tune_twin(rec_function_by_name("MPI_File_read_all"), &coll),
                        rec_function_by_name("MPI_File_read"));
    CU_ASSERT_EQUAL(coll, 1);
    CU_ASSERT_PTR_NULL(tune_twin(rec_function_by_name("MPI_File_open"), &coll));
}

RK_TEST(tune, a_set_changes_calls_and_adds_setters)
{
    char err[256];
    tune_set *s = tune_set_new();
    CU_ASSERT_EQUAL(tune_set_parse(s, "mpiio.data=collective\nhdf5.alignment=4K\n", "f", err, sizeof err), 0);
    size_t o = 99;
    const rec_func_desc *wat = rec_function_by_name("MPI_File_write_at"),
                        *all = rec_function_by_name("MPI_File_write_at_all");
    CU_ASSERT_PTR_EQUAL(tune_call_for(s, wat, &o), all);
    CU_ASSERT_EQUAL(o, 0);
    CU_ASSERT_PTR_EQUAL(tune_call_for(s, all, &o), all); /* already collective */
    const rec_func_desc *align = rec_function_by_name("H5Pset_alignment");
    int64_t v = 0;
    CU_ASSERT_EQUAL(tune_arg_value(s, align, 2, &v, &o), 1);
    CU_ASSERT_EQUAL(v, 4096);
    CU_ASSERT_EQUAL(o, 1);
    CU_ASSERT_EQUAL(tune_arg_value(s, align, 1, &v, &o), 0); /* the threshold: not in the set */
    int64_t args[REC_MAX_ARGS];
    CU_ASSERT_EQUAL(tune_setter_first(s, 1), 1);
    tune_setter_args(s, 1, args);
    CU_ASSERT_EQUAL(args[1], 1); /* the threshold's default */
    CU_ASSERT_EQUAL(args[2], 4096);
    tune_set_free(s);
}
