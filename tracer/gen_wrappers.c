/* gen_wrappers: writes the tracer's wrappers from the function table.
 *   gen_wrappers OUTDIR   ->  OUTDIR/wrappers_{posix,mpi,mpiio,hdf5}.c
 * Every wrapper has the real prototype, calls the real function (PMPI_ for
 * MPI, the next library's symbol otherwise) and records each argument by
 * its kind. Nothing here knows individual functions: the few C variadics
 * are handled by tracer/variadic.h, keyed by the table's VA flags. */
#include "gen_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;

static int has(const char *s, const char *part)
{
    return strstr(s, part) != NULL;
}

static const char *layer_macro(unsigned layer)
{
    static const char *names[] = {"REC_LAYER_POSIX", "REC_LAYER_MPI", "REC_LAYER_MPIIO", "REC_LAYER_HDF5",
                                  "REC_LAYER_PNETCDF", "REC_LAYER_NETCDF"};
    return names[layer];
}

static int uses_pmpi(const rec_func_desc *f)
{
    return f->layer == REC_LAYER_MPI || f->layer == REC_LAYER_MPIIO;
}

static void print_call_args(const rec_func_desc *f, const char *extra)
{
    int n = 0;
    for (unsigned i = 0; i < f->nargs; i++)
        if (!(f->args[i].flags & REC_ARG_DERIVED))
            fprintf(out, "%s%s", n++ ? ", " : "", f->args[i].name);
    if (extra)
        fprintf(out, "%s%s", n ? ", " : "", extra);
}

/* An NC_OFFSET_ROWS array's rows: as many as f's ROWS argument says, each
 * as long as that leaves. holds: whether element rt_k lies within its
 * row's variable's rank (of the one NC_VARID, or of its row's in the
 * NC_VARID_ARRAY: a row of a smaller rank is zeros past it). */
static void emit_rows_shape(const rec_func_desc *f, char *holds, size_t cap)
{
    int rows = rec_arg_with_role(f, REC_AROLE_ROWS), ids = rec_arg_with_kind(f, REC_KIND_NC_VARID_ARRAY, REC_ARG_IN),
        ncid = rec_arg_with_kind(f, REC_KIND_NC_ID, REC_ARG_IN);
    fprintf(out, "        long rt_rows = (long)(%s), rt_nd = rt_rows > 0 ? rt_n / rt_rows : 0;\n"
                 "        if (rt_nd <= 0)\n            rt_n = 0;\n",
            rows >= 0 ? f->args[rows].name : "0");
    if (ids >= 0 && ncid >= 0)
        snprintf(holds, cap, " && %s && rt_k %% rt_nd < rt_nc_ndims(%s, %s[rt_k / rt_nd])", f->args[ids].name,
                 f->args[ncid].name, f->args[ids].name);
    else
        holds[0] = 0;
}

/* shared_len: the variable that holds the length already, or NULL. */
static void emit_array(const rec_func_desc *f, const rec_arg_desc *a, unsigned i, const char *shared_len)
{
    char elem[128], len[64];
    rec_ctype_element(a->ctype, elem, sizeof elem);
    if (shared_len)
        snprintf(len, sizeof len, "%s", shared_len);
    /* rt_-prefixed locals: the length expression may name an argument n or k */
    fprintf(out, "    {\n        long rt_n = %s%s%s;\n        if (rt_n < 0 || !%s)\n            rt_n = 0;\n",
            shared_len ? "" : "(long)(", shared_len ? len : a->len, shared_len ? "" : ")", a->name);
    /* An iovec array is only known to be that long when the call succeeded. */
    if (a->kind == REC_KIND_IOVEC)
        fprintf(out, "        if (!ok || rt_n > IOV_MAX)\n            rt_n = 0;\n");
    fprintf(out, "        int64_t *rt_v = rt_array(&call, %u, (size_t)rt_n);\n        if (!rt_v)\n            rt_n = 0;\n", i);
    char holds[160] = "";
    if (a->kind == REC_KIND_NC_OFFSET_ROWS)
        emit_rows_shape(f, holds, sizeof holds);
    fprintf(out, "        for (long rt_k = 0; rt_k < rt_n; rt_k++)\n");
    switch (a->kind) {
    case REC_KIND_IOVEC: fprintf(out, "            rt_v[rt_k] = (int64_t)%s[rt_k].iov_len;\n", a->name); break;
    case REC_KIND_MPI_STATUS_ARRAY:
        fprintf(out, "            rt_v[rt_k] = %s == MPI_STATUSES_IGNORE ? -1 : rt_status_bytes(&%s[rt_k], ok);\n",
                a->name, a->name);
        break;
    case REC_KIND_MPI_DATATYPE_ARRAY:
    case REC_KIND_MPI_REQUEST_ARRAY:
        fprintf(out, "            rt_v[rt_k] = (int64_t)(uintptr_t)%s[rt_k];\n", a->name);
        break;
    case REC_KIND_BUFFER_ARRAY: /* where each buffer lies from the first: their layout, not their addresses */
        fprintf(out, "            rt_v[rt_k] = (int64_t)((uintptr_t)%s[rt_k] - (uintptr_t)%s[0]);\n", a->name, a->name);
        break;
    case REC_KIND_NC_OFFSET_ROWS: /* row after row; a missing row, and a row past its variable's rank, as zeros */
        fprintf(out,
                "            rt_v[rt_k] = %s[rt_k / rt_nd]%s ? (int64_t)%s[rt_k / rt_nd][rt_k %% rt_nd] : 0;\n",
                a->name, holds, a->name);
        break;
    default: /* by the element type: rows of three ints are read as ints */
        fprintf(out, "            rt_v[rt_k] = (int64_t)((const %s *)%s)[rt_k];\n", elem, a->name);
        break;
    }
    fprintf(out, "        r->args[%u].ptr = rt_v;\n        r->args[%u].len = (uint32_t)rt_n;\n"
                 "        r->args[%u].encoded = 0;\n    }\n",
            i, i, i);
}

/* Whether argument a is captured after the call: OUT-only values exist only
 * then; iovec arrays are read only once the call succeeded (a bad iovcnt
 * must fail in libc, not crash here), encoded HDF5 objects take their
 * length from the object the call made, and HDF5 values are walked only
 * once HDF5 has read them. */
static int captured_late(const rec_arg_desc *a)
{
    int is_out = (a->flags & REC_ARG_OUT) != 0;
    int is_in = (a->flags & REC_ARG_IN) != 0 || !is_out;
    return (is_out && !is_in) || a->kind == REC_KIND_IOVEC || a->kind == REC_KIND_H5_ENCODED ||
           a->kind == REC_KIND_H5_VALUE;
}

static int shares_length(const rec_arg_desc *a)
{
    return rec_kind_class(a->kind) == REC_CLASS_ARRAY && !(a->flags & REC_ARG_DERIVED) && a->len &&
           a->kind != REC_KIND_IOVEC;
}

/* Arrays captured in the same phase with the same length expression
 * (H5Sselect_hyperslab's start, stride, count and block: the space's rank,
 * two HDF5 calls) share one evaluation. The first such argument's index,
 * or i. */
static unsigned first_same_length(const rec_func_desc *f, unsigned i)
{
    const rec_arg_desc *a = &f->args[i];
    for (unsigned j = 0; j < i && shares_length(a); j++) {
        const rec_arg_desc *b = &f->args[j];
        if (shares_length(b) && strcmp(b->len, a->len) == 0 && captured_late(b) == captured_late(a))
            return j;
    }
    return i;
}

static int length_shared_later(const rec_func_desc *f, unsigned i)
{
    for (unsigned j = i + 1; j < f->nargs; j++)
        if (first_same_length(f, j) == i)
            return 1;
    return 0;
}

/* Code that captures argument i; after = 0 before the call, 1 after it. */
static void emit_capture(const rec_func_desc *f, unsigned i, int after)
{
    const rec_arg_desc *a = &f->args[i];
    rec_class cls = rec_kind_class(a->kind);
    int late = captured_late(a);
    if (after != late)
        return;
    if (a->flags & REC_ARG_DERIVED) {
        if (a->kind == REC_KIND_OP_CALLS) /* counted by rt_counting_<type> */
            fprintf(out, "    r->args[%u].i = rt_op.calls;\n", i);
        else if (a->kind == REC_KIND_NC_HEADER) /* the file's header bytes: len is the file's ncid */
            fprintf(out, "    rt_nc_header(&call, %u, (int)(%s), %s);\n", i, a->len,
                    f->args[rec_arg_with_kind(f, REC_KIND_PATH, 0)].name);
        else if (a->kind == REC_KIND_NC_STRING_LENGTHS) /* len strings of the buffer, each its length */
            fprintf(out,
                    "    {\n        long rt_n = (long)(%s);\n        char *const *rt_s = (char *const *)%s;\n"
                    "        if (rt_n < 0 || !rt_s)\n            rt_n = 0;\n"
                    "        int64_t *rt_v = rt_array(&call, %u, (size_t)rt_n);\n        if (!rt_v)\n            rt_n = 0;\n"
                    "        for (long rt_k = 0; rt_k < rt_n; rt_k++)\n"
                    "            rt_v[rt_k] = rt_s[rt_k] ? (int64_t)strlen(rt_s[rt_k]) : -1;\n"
                    "        r->args[%u].ptr = rt_v;\n        r->args[%u].len = (uint32_t)rt_n;\n"
                    "        r->args[%u].encoded = 0;\n    }\n",
                    a->len, f->args[rec_arg_with_kind(f, REC_KIND_BUFFER, 0)].name, i, i, i, i);
        else if (a->kind == REC_KIND_NC_VLEN_LENGTHS) /* len values of the buffer: the base size, each length */
            fprintf(out,
                    "    {\n        long rt_n = (long)(%s);\n        if (rt_n < 0 || !%s)\n            rt_n = 0;\n"
                    "        int64_t *rt_v = rt_n ? rt_array(&call, %u, (size_t)rt_n + 1) : NULL;\n"
                    "        if (rt_v)\n            rt_ncc_vlen_lengths(rt_v, rt_n, %s, %s, %s);\n"
                    "        r->args[%u].ptr = rt_v;\n        r->args[%u].len = rt_v ? (uint32_t)rt_n + 1 : 0;\n"
                    "        r->args[%u].encoded = 0;\n    }\n",
                    a->len, f->args[rec_arg_with_kind(f, REC_KIND_BUFFER, 0)].name, i,
                    f->args[rec_arg_with_kind(f, REC_KIND_NC_ID, REC_ARG_IN)].name,
                    f->args[rec_arg_with_kind(f, REC_KIND_NC_VARID, REC_ARG_IN)].name,
                    f->args[rec_arg_with_kind(f, REC_KIND_BUFFER, 0)].name, i, i, i);
        else if (a->kind == REC_KIND_H5_STRING_LENGTHS || a->kind == REC_KIND_H5_VLEN_LENGTHS)
            /* where len holds, the lengths of the strings or sequences the buffer's selected elements hold */
            fprintf(out, "    rt_h5_lengths(&call, %u, %u, (int)(%s), %s, %s, %s, %s, %s);\n", i, a->kind,
                    a->len, f->args[rec_arg_with_role(f, REC_AROLE_DATASET)].name,
                    f->args[rec_arg_with_role(f, REC_AROLE_MEM_TYPE)].name,
                    f->args[rec_arg_with_role(f, REC_AROLE_MEM_SPACE)].name,
                    f->args[rec_arg_with_role(f, REC_AROLE_FILE_SPACE)].name,
                    f->args[rec_arg_with_kind(f, REC_KIND_BUFFER, 0)].name);
        else if (a->kind == REC_KIND_ROW_BYTES) /* len, row rt_k's bytes, for each row of a call that succeeded */
            fprintf(out,
                    "    {\n        long rt_n = ok ? (long)(%s) : 0;\n        if (rt_n < 0)\n            rt_n = 0;\n"
                    "        int64_t *rt_v = rt_array(&call, %u, (size_t)rt_n);\n        if (!rt_v)\n            rt_n = 0;\n"
                    "        for (long rt_k = 0; rt_k < rt_n; rt_k++)\n            rt_v[rt_k] = (int64_t)(%s);\n"
                    "        r->args[%u].ptr = rt_v;\n        r->args[%u].len = (uint32_t)rt_n;\n"
                    "        r->args[%u].encoded = 0;\n    }\n",
                    f->args[rec_arg_with_role(f, REC_AROLE_ROWS)].name, i, a->len, i, i, i);
        else if (rec_kind_is_handle(a->kind)) /* the stream no argument names (stdout), an id under the lock */
            fprintf(out, "    call.raw[%u] = (uint64_t)(uintptr_t)(%s);\n", i, a->len);
        else
            fprintf(out, "    r->args[%u].i = (int64_t)(%s);\n", i, a->len);
        return;
    }
    if (cls == REC_CLASS_NONE)
        return;
    const char *n = a->name;
    if (a->kind == REC_KIND_THREAD_ID) { /* a pthread_t: its thread's id under the lock */
        if (rec_arg_by_pointer(a))
            fprintf(out, "    call.raw[%u] = %s && ok ? (uint64_t)*%s : 0;\n", i, n, n);
        else
            fprintf(out, "    call.raw[%u] = (uint64_t)%s;\n", i, n);
        return;
    }
    if (rec_kind_is_handle(a->kind)) {
        if (rec_arg_by_pointer(a))
            fprintf(out, "    call.raw[%u] = %s ? (uint64_t)(uintptr_t)*%s : 0;\n", i, n, n);
        else
            fprintf(out, "    call.raw[%u] = (uint64_t)(uintptr_t)(%s);\n", i, n);
        return;
    }
    switch (a->kind) {
    case REC_KIND_PATH: return; /* under the lock */
    case REC_KIND_STRING:
    case REC_KIND_STDIO_MODE:
        fprintf(out, "    r->args[%u].ptr = %s;\n    r->args[%u].len = %s ? (uint32_t)strnlen(%s, RT_MAX_STRING) : 0;\n", i, n, i, n, n);
        return;
    case REC_KIND_STRING_OUT:
        fprintf(out, "    r->args[%u].ptr = %s;\n    r->args[%u].len = ok && %s ? (uint32_t)strnlen(%s, (size_t)((long)(%s) > 0 ? (long)(%s) : 0)) : 0;\n",
                i, n, i, n, n, a->len, a->len);
        return;
    case REC_KIND_STRLEN: fprintf(out, "    r->args[%u].i = %s ? (int64_t)strlen(%s) : -1;\n", i, n, n); return;
    case REC_KIND_H5_ENCODED: /* len names the object the bytes encode */
        fprintf(out, "    rt_h5_encoding(&call, %u, ok && %s ? (hid_t)(%s) : -1);\n", i, n, a->len);
        return;
    case REC_KIND_H5_VALUE: { /* len elements of the MEM_TYPE argument (or of the REF_TYPE's reference type);
                               * references resolve at the subject */
        int type = rec_arg_with_role(f, REC_AROLE_MEM_TYPE), ref = rec_arg_with_role(f, REC_AROLE_REF_TYPE);
        char mem_type[128];
        if (type >= 0)
            snprintf(mem_type, sizeof mem_type, "(hid_t)(%s)", f->args[type].name);
        else
            snprintf(mem_type, sizeof mem_type, "rt_h5_reference_type(%s)", f->args[ref].name);
        fprintf(out, "    rt_h5_value(&call, %u, ok ? %s : NULL, %s, ok ? (long)(%s) : 0, (hid_t)(%s));\n", i, n,
                mem_type, a->len, f->args[REC_ARG_SUBJECT].name);
        return;
    }
    case REC_KIND_NC_STRINGS: /* len strings, packed (ncheader.c) */
        fprintf(out, "    rt_nc_strings(&call, %u, (const char *const *)%s, (long long)(%s));\n", i, n, a->len);
        return;
    case REC_KIND_NC_VALUES: /* len bytes, up to RT_MAX_NC_VALUES: past it none, and a kernel writes zeros */
        fprintf(out, "    r->args[%u].ptr = %s;\n    { MPI_Offset rt_b = (MPI_Offset)(%s);\n      r->args[%u].len = %s && rt_b > 0 && rt_b <= RT_MAX_NC_VALUES ? (uint32_t)rt_b : 0; }\n",
                i, n, a->len, i, n);
        return;
    case REC_KIND_STATBUF:
        fprintf(out, "    r->args[%u].i = ok && %s ? (int64_t)%s->%s : -1;\n", i, n, n,
                has(a->ctype, "struct statx") ? "stx_size" : "st_size");
        return;
    case REC_KIND_MPI_STATUS:
        fprintf(out, "    r->args[%u].i = rt_status_bytes(%s, %s);\n", i, n, after ? "ok" : "1");
        return;
    case REC_KIND_CALLBACK: /* its id, under the lock */
        fprintf(out, "    call.raw[%u] = (uint64_t)(uintptr_t)%s;\n", i, n);
        return;
    case REC_KIND_DOUBLE:
        fprintf(out, "    { double d = %s%s; memcpy(&r->args[%u].i, &d, sizeof d); }\n", rec_arg_by_pointer(a) ? "*" : "", n, i);
        return;
    default: break;
    }
    if (cls == REC_CLASS_ARRAY) {
        char shared[32];
        unsigned first = first_same_length(f, i);
        int declare = first == i && length_shared_later(f, i);
        if (declare)
            fprintf(out, "    long rt_len%u = (long)(%s);\n", i, a->len);
        snprintf(shared, sizeof shared, "rt_len%u", first);
        emit_array(f, a, i, declare || first != i ? shared : NULL);
        return;
    }
    if (rec_kind_has_mpi_constants(a->kind) && !rec_arg_by_pointer(a)) /* the canonical value */
        fprintf(out, "    r->args[%u].i = rt_mpi_constant(REC_KIND_%s, (int64_t)(%s));\n", i,
                rec_kind_name(a->kind), n);
    else if (rec_arg_by_pointer(a))
        fprintf(out, "    r->args[%u].i = %s ? (int64_t)*%s : -1;\n", i, n, n);
    else
        fprintf(out, "    r->args[%u].i = (int64_t)(%s);\n", i, n);
}

/* Whether the call destroys its subject, whose id is then taken before the call: once the call has
 * returned, another thread may be given the same value (an fd number) and have made it a new handle. */
static int destroys_subject(const rec_func_desc *f)
{
    return (f->flags & REC_FN_DESTROYS) && rec_func_reference_change(f) < 0 &&
           !(f->args[REC_ARG_SUBJECT].flags & REC_ARG_CREATE);
}

/* Under the lock: handles and paths become per-rank ids. */
static void emit_convert(const rec_func_desc *f, unsigned i)
{
    const rec_arg_desc *a = &f->args[i];
    if (i == REC_ARG_SUBJECT && destroys_subject(f)) {
        fprintf(out, "    r->args[%u].i = rt_subject;\n", i);
        return;
    }
    if (rec_kind_is_handle(a->kind)) {
        if (a->flags & REC_ARG_CREATE)
            fprintf(out, "    r->args[%u].i = rt_handle_new(&call, REC_KIND_%s, call.raw[%u], ok);\n", i,
                    rec_kind_name(a->kind), i);
        else
            fprintf(out, "    r->args[%u].i = rt_handle(&call, REC_KIND_%s, call.raw[%u]);\n", i,
                    rec_kind_name(a->kind), i);
        return;
    }
    if (a->kind == REC_KIND_THREAD_ID && (a->flags & REC_ARG_CREATE))
        fprintf(out, "    r->args[%u].i = rt_thread_created(call.raw[%u], ok);\n", i, i);
    else if (a->kind == REC_KIND_THREAD_ID)
        fprintf(out, "    r->args[%u].i = rt_thread_of(call.raw[%u]);\n", i, i);
    else if (a->kind == REC_KIND_PATH)
        fprintf(out, "    r->args[%u].i = rt_path(&call, %s);\n", i, a->name);
    else if (a->kind == REC_KIND_CALLBACK)
        fprintf(out, "    r->args[%u].i = rt_callback_id(call.raw[%u]);\n", i, i);
    else if (a->kind == REC_KIND_MPI_DATATYPE_ARRAY || a->kind == REC_KIND_MPI_REQUEST_ARRAY ||
             a->kind == REC_KIND_NC_REQUEST_ARRAY)
        fprintf(out, "    rt_handle_array(&call, REC_KIND_%s, r->args[%u].ptr, r->args[%u].len);\n",
                rec_kind_name(rec_kind_element(a->kind)), i, i);
}

static void emit_ret(const rec_func_desc *f)
{
    unsigned k = f->ret_kind;
    if (k == REC_KIND_NONE)
        return;
    /* POSIX and stdio set errno on failure; MPI and HDF5 report it in the return value. */
    int errno_style = f->fail == REC_FAIL_NEG1 || f->fail == REC_FAIL_NULL || f->fail == REC_FAIL_EOF ||
                      (f->fail == REC_FAIL_NEGATIVE && f->layer == REC_LAYER_POSIX);
    fprintf(out, "    r->err = ok ? 0 : %s;\n", errno_style ? "call.saved_errno" : "0");
    if (rec_kind_is_handle(k)) {
        fprintf(out, "    call.raw[%u] = (uint64_t)(uintptr_t)ret;\n", f->nargs);
        return;
    }
    if (k == REC_KIND_STRING && has(f->ret_ctype, "dirent")) /* readdir: the entry's name */
        fprintf(out, "    r->ret.ptr = ret ? ret->d_name : NULL;\n    r->ret.len = ret ? (uint32_t)strlen(ret->d_name) : 0;\n");
    else if (k == REC_KIND_STRING)
        fprintf(out, "    r->ret.ptr = ret;\n    r->ret.len = ret ? (uint32_t)strlen(ret) : 0;\n");
    else if (k == REC_KIND_PATH)
        return; /* under the lock */
    else if (gen_is_pointer(f->ret_ctype)) /* fgets: bytes read; fgetws: wide characters */
        fprintf(out, "    r->ret.i = ret ? (int64_t)%s(ret) : -1;\n", has(f->ret_ctype, "wchar_t") ? "wcslen" : "strlen");
    else if (k == REC_KIND_MPI_ERROR) /* by meaning: the class, not a code made for this one failure */
        fprintf(out, "    r->ret.i = ok ? 0 : rt_mpi_error_class((int)ret);\n");
    else if (f->fail == REC_FAIL_EOF && k == REC_KIND_SIZE)
        fprintf(out, "    r->ret.i = %s ? 1 : -1;\n", gen_success_test(f)); /* fgetc/fputc: one byte, not its value */
    else
        fprintf(out, "    r->ret.i = (int64_t)ret;\n");
}

static void emit_ret_convert(const rec_func_desc *f)
{
    unsigned k = f->ret_kind;
    if (rec_kind_is_handle(k)) {
        if (f->flags & REC_FN_CREATES)
            fprintf(out, "    r->ret.i = rt_handle_new(&call, REC_KIND_%s, call.raw[%u], ok);\n", rec_kind_name(k), f->nargs);
        else
            fprintf(out, "    r->ret.i = ok ? rt_handle(&call, REC_KIND_%s, call.raw[%u]) : -1;\n", rec_kind_name(k),
                    f->nargs);
    } else if (k == REC_KIND_PATH) {
        fprintf(out, "    r->ret.i = ret ? rt_path_value(&call, ret) : -1;\n");
    }
}

/* The function's RT_BEFORE_ hook (hooks.h), if it has one. */
static void emit_before(const rec_func_desc *f, const char *call, const char *indent)
{
    fprintf(out, "#ifdef RT_BEFORE_%s\n%sRT_BEFORE_%s(%s);\n#endif\n", f->name, indent, f->name, call);
}

/* rt_counting_<type>: the operator the tracer hands an iteration in place of
 * the application's (its data: an rt_op_count), which it calls and counts. */
static void emit_counting_operator(const char *type, const char *ret, const char *params, const char *const *names,
                                   const unsigned *lens, unsigned n)
{
    fprintf(out, "\nstatic %s rt_counting_%s%s\n{\n    rt_op_count *rt_c = %.*s;\n", ret, type, params, (int)lens[n - 1],
            names[n - 1]);
    fprintf(out, "    rt_c->calls++;\n    return ((%s)rt_c->op)(", type);
    for (unsigned j = 0; j + 1 < n; j++)
        fprintf(out, "%.*s, ", (int)lens[j], names[j]);
    fprintf(out, "rt_c->data);\n}\n");
}

/* A destroying call drops a reference to its subject, as DEC_REF does;
 * INC_REF adds one. A COUNT result is the library's own count. */
static void emit_references(const rec_func_desc *f)
{
    int change = rec_func_reference_change(f);
    if (change < 0 && destroys_subject(f)) {
        fprintf(out, "    if (ok)\n        rt_handle_release_of(REC_KIND_%s, call.raw[%u], rt_subject);\n",
                rec_kind_name(f->args[REC_ARG_SUBJECT].kind), REC_ARG_SUBJECT);
        return;
    }
    if (change)
        fprintf(out, "    if (ok)\n        rt_handle_%s(REC_KIND_%s, call.raw[%u], %s);\n",
                change < 0 ? "release" : "retain", rec_kind_name(f->args[REC_ARG_SUBJECT].kind), REC_ARG_SUBJECT,
                f->ret_kind == REC_KIND_COUNT && !(f->flags & REC_FN_DESTROYS) ? "(int64_t)ret" : "-1");
}

/* entry: the function the wrapper stands in for; f: what it records, the
 * entry itself or, for a FORTIFIED entry point, its plain twin (whose
 * arguments the entry has by name). */
static void emit_wrapper(const rec_func_desc *entry)
{
    const rec_func_desc *twin = rec_func_plain_twin(entry), *f = twin ? twin : entry;
    int is_void = strcmp(f->ret_ctype, "void") == 0;
    int vform = gen_forwards_va_list(entry);
    fprintf(out, "\n/* %s (id %u)%s%s */\n", entry->name, entry->id, twin ? ", traced as " : "", twin ? f->name : "");
    if (entry->flags & REC_FN_NODECL) {
        fprintf(out, "%s %s(", entry->ret_ctype, entry->name);
        gen_print_params(out, entry, 0);
        fprintf(out, ");\n");
    }
    fprintf(out, "RT_EXPORT %s(%s)(", entry->ret_ctype, entry->name);
    gen_print_params(out, entry, GEN_PARAM_NAMES);
    fprintf(out, ")\n{\n");
    /* the real function */
    if (uses_pmpi(entry)) {
        fprintf(out, "#define REAL P%s\n", entry->name);
    } else {
        char real[160];
        if (vform)
            gen_va_list_form(entry, real, sizeof real);
        else
            snprintf(real, sizeof real, "%s", entry->name);
        fprintf(out, "    static %s (*real_fn)(", entry->ret_ctype);
        gen_print_params(out, entry, (vform ? GEN_PARAM_VA_LIST : 0));
        fprintf(out, ");\n    if (RT_UNLIKELY(!real_fn))\n        real_fn = rt_resolve(\"%s\");\n", real);
        fprintf(out, "#define REAL real_fn\n");
    }
    /* what the twin takes and the entry point does not pass (open's mode of __open_2) */
    for (unsigned i = 0; twin && i < f->nargs; i++)
        if (gen_arg_named(entry, f->args[i].name) < 0)
            fprintf(out, "    %s %s = 0;\n", f->args[i].ctype, f->args[i].name);
    /* variadic arguments */
    for (unsigned i = 0; i < entry->nargs; i++)
        if (entry->args[i].flags & REC_ARG_VA) {
            const char *last = i ? entry->args[i - 1].name : "";
            fprintf(out, "    %s %s = 0;\n    RT_VA_%s(%s, %s);\n", entry->args[i].ctype, entry->args[i].name,
                    entry->name, last, entry->args[i].name);
        }
    const char *last_named = ""; /* the last parameter: DERIVED fields are none */
    for (unsigned i = 0; i < entry->nargs; i++)
        if (!(entry->args[i].flags & REC_ARG_DERIVED))
            last_named = entry->args[i].name;
    if (vform)
        fprintf(out, "    va_list ap;\n    va_start(ap, %s);\n", last_named);
    const char *extra = vform ? "ap" : NULL;
    /* the untraced path */
    fprintf(out, "    rt_call call;\n    if (!rt_enter(&call, %u, %s)) {\n", f->id, layer_macro(f->layer));
    if (f->flags & REC_FN_OPAQUE) { /* its layer is off: what it calls inside is still its own business */
        fprintf(out, "        int rt_own = rt_opaque_enter();\n");
        emit_before(f, "NULL", "        ");
        fprintf(out, "        %s%sREAL(", is_void ? "" : f->ret_ctype,
                is_void ? "" : " ret = ");
        print_call_args(entry, extra);
        fprintf(out, ");\n#ifdef RT_AFTER_%s\n        if (rt_own) {\n"
                     "            int ok = %s;\n            (void)ok;\n            rt_lock();\n            RT_AFTER_%s;\n"
                     "            rt_opaque_done();\n        }\n#endif\n        rt_opaque_leave(rt_own);\n",
                f->name, is_void ? "1" : gen_success_test(f), f->name);
        fprintf(out, "%s        return%s;\n    }\n", vform ? "        va_end(ap);\n" : "", is_void ? "" : " ret");
    } else if (is_void) {
        emit_before(f, "NULL", "        ");
        fprintf(out, "        REAL(");
        print_call_args(entry, extra);
        fprintf(out, ");\n%s        return;\n    }\n", vform ? "        va_end(ap);\n" : "");
    } else {
        emit_before(f, "NULL", "        ");
        fprintf(out, "        %s ret = REAL(", f->ret_ctype);
        print_call_args(entry, extra);
        fprintf(out, ");\n%s        return ret;\n    }\n", vform ? "        va_end(ap);\n" : "");
    }
    fprintf(out, "    rec_record *r = &call.rec;\n");
    for (unsigned i = 0; i < f->nargs; i++)
        emit_capture(f, i, 0);
    /* What the table's roles ask of the tracer around the real call (h5store.c). */
    int written = (f->flags & REC_FN_WRITE) ? rec_arg_with_role(f, REC_AROLE_DATASET) : -1;
    if ((f->roles & REC_ROLE_CLOSES_DATASET) && f->nargs > REC_ARG_SUBJECT)
        fprintf(out, "    rt_h5store_before_close((hid_t)call.raw[%u]);\n", REC_ARG_SUBJECT);
    int path = rec_arg_with_kind(f, REC_KIND_PATH, 0);
    int opens_input = (f->roles & REC_ROLE_OPENS_H5_FILE) && path >= 0;
    if (opens_input) /* still untraced: the tracer's own reads stay out */
        fprintf(out, "    int rt_input = rt_h5_input_opening(%s);\n", f->args[path].name);
    int data, op = gen_counted_operator(f, &data);
    if (op >= 0) /* the application's operator, called through one that counts its calls */
        fprintf(out,
                "    rt_op_count rt_op = {(void (*)(void))%s, %s, 0};\n    if (%s) {\n        %s = rt_counting_%s;\n"
                "        %s = &rt_op;\n    }\n",
                f->args[op].name, f->args[data].name, f->args[op].name, f->args[op].name, f->args[op].ctype,
                f->args[data].name);
    if (destroys_subject(f))
        fprintf(out, "    rt_lock();\n    int64_t rt_subject = rt_handle(&call, REC_KIND_%s, call.raw[%u]);\n    rt_unlock();\n",
                rec_kind_name(f->args[REC_ARG_SUBJECT].kind), REC_ARG_SUBJECT);
    char measured[64];
    if (gen_measures_position(f, measured, sizeof measured)) /* before the call: rec_stream_moved's start */
        fprintf(out, "    int64_t rt_pos_before = rec_stream_pos(%s);\n", measured);
    fprintf(out, "    rt_start%s(&call);\n", f->flags & REC_FN_OPAQUE ? "_opaque" : "");
    emit_before(f, "&call", "    ");
    fprintf(out, "    %s%sREAL(", is_void ? "" : f->ret_ctype, is_void ? "" : " ret = ");
    print_call_args(entry, extra);
    fprintf(out, ");\n    rt_stop(&call);\n");
    if (vform)
        fprintf(out, "    va_end(ap);\n");
    fprintf(out, "    int ok = %s;\n    (void)ok;\n", is_void ? "1" : gen_success_test(f));
    int h5 = f->layer == REC_LAYER_HDF5;
    if (h5)
        fprintf(out, "    hid_t rt_errors = ok ? -1 : rt_h5_errors_keep();\n");
    if (written >= 0)
        fprintf(out, "    if (ok)\n        rt_h5store_written((hid_t)call.raw[%d]);\n", written);
    for (unsigned i = 0; i < f->nargs; i++)
        emit_capture(f, i, 1);
    if (!is_void)
        emit_ret(f);
    if (opens_input)
        fprintf(out, "    if (ok)\n        rt_h5_input_opened(rt_input);\n");
    fprintf(out, "    rt_lock();\n");
    for (unsigned i = 0; i < f->nargs; i++)
        emit_convert(f, i);
    emit_ret_convert(f);
    emit_references(f);
    fprintf(out, "#ifdef RT_AFTER_%s\n    RT_AFTER_%s;\n#endif\n", f->name, f->name);
    if (h5)
        fprintf(out, "    if (rt_errors >= 0)\n        rt_h5_errors_restore(rt_errors);\n");
    fprintf(out, "    rt_commit(&call);\n#undef REAL\n%s}\n", is_void ? "" : "    return ret;\n");
}

/* The static-HDF5 shim: -Wl,--wrap=H5x sends the application's calls to
 * __wrap_H5x, which hands them to librecorder.so's H5x (when preloaded)
 * after registering __real_H5x as the function it must finally call. */
static void write_shim(const char *dir)
{
    out = gen_create("gen_wrappers", dir, "h5wrap_shim.c");
    fprintf(out, "/* Generated by gen_wrappers from the function table: do not edit. */\n"
                 "#include \"shim_prelude.h\"\n");
    for (size_t i = 0; i < rec_function_count; i++) {
        const rec_func_desc *f = &rec_functions[i];
        if (f->layer != REC_LAYER_HDF5)
            continue;
        fprintf(out, "\nextern %s __real_%s(", f->ret_ctype, f->name);
        gen_print_params(out, f, 0);
        fprintf(out, ");\n%s __wrap_%s(", f->ret_ctype, f->name);
        gen_print_params(out, f, GEN_PARAM_NAMES);
        fprintf(out, ");\n%s __wrap_%s(", f->ret_ctype, f->name);
        gen_print_params(out, f, GEN_PARAM_NAMES);
        fprintf(out, ")\n{\n    static %s (*target)(", f->ret_ctype);
        gen_print_params(out, f, 0);
        fprintf(out, ");\n    if (!target)\n        target = shim_target(\"%s\", (void *)__real_%s);\n    %starget(",
                f->name, f->name, strcmp(f->ret_ctype, "void") ? "return " : "");
        print_call_args(f, NULL);
        fprintf(out, ");\n}\n");
    }
    fprintf(out, "\nvoid shim_register_all(void (*reg)(const char *, void *))\n{\n");
    for (size_t i = 0; i < rec_function_count; i++)
        if (rec_functions[i].layer == REC_LAYER_HDF5)
            fprintf(out, "    reg(\"%s\", (void *)__real_%s);\n", rec_functions[i].name, rec_functions[i].name);
    fprintf(out, "}\n");
    gen_close("gen_wrappers", out, dir, "h5wrap_shim.c");
    out = gen_create("gen_wrappers", dir, "recorder-h5wrap.opts");
    gen_write_wrap_options(out, REC_LAYER_HDF5);
    gen_close("gen_wrappers", out, dir, "recorder-h5wrap.opts");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_wrappers OUTDIR\n");
        return 2;
    }
    write_shim(argv[1]);
    for (unsigned layer = 0; layer < REC_LAYER_COUNT; layer++) {
        char name[64];
        snprintf(name, sizeof name, "wrappers_%s.c", gen_layer_part(layer));
        out = gen_create("gen_wrappers", argv[1], name);
        fprintf(out, "/* Generated by gen_wrappers from the function table: do not edit. */\n"
                     "/* It defines HDF5 functions: HDF5 reached through REC_H5 only (late.h). */\n"
                     "#define RT_WRAPPER_UNIT\n#include \"wrapper_prelude.h\"\n");
        gen_each_operator(layer, 1, emit_counting_operator);
        unsigned n = 0, n4 = 0; /* the MPI-4 twins exist only where MPI_VERSION >= 4 */
        for (size_t i = 0; i < rec_function_count; i++)
            if (rec_functions[i].layer == layer) {
                const rec_func_desc *f = &rec_functions[i];
                fprintf(out, "%s", gen_guard_begin(f));
                emit_wrapper(f);
                fprintf(out, "%s", gen_guard_end(f));
                *(*gen_guard_begin(f) ? &n4 : &n) += 1;
            }
        fprintf(out, "\nconst unsigned rt_wrapper_count_%u = %u\n#if MPI_VERSION >= 4\n    + %u\n#endif\n    ;\n",
                layer, n, n4);
        gen_close("gen_wrappers", out, argv[1], name);
    }
    return 0;
}
