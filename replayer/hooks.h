/* hooks.h: the few functions whose replay the kinds alone do not decide.
 * Internal; included by the generated dispatch. Every macro is keyed by the
 * table's function and argument names, and its expression may use the
 * replay context (rp_x), the record (rp_r) and the call's other arguments
 * by their names (what the table's roles say -- a link's target, a call
 * that would end the replay -- needs no hook):
 *   RP_IN_<f>_<a>           an input value other than the recorded one
 *   RP_ADDR_<f>_<a>         what an ADDRESS argument points to (default:
 *                           NULL for inputs, local storage for outputs)
 *   RP_BUFFER_<f>_<a>       a BUFFER argument (HDF5 has no generic rule)
 *   RP_VALUE_<f>_<a>        an H5_VALUE argument the trace holds no value of
 *                           (RECORDER_ATTR_VALUES=0, or past its size; default: NULL)
 * and, for the few C library functions its headers make inline under
 * optimization, the call itself (RP_LIBC_CALL, below). */
#ifndef RECORDER_REPLAY_HOOKS_H
#define RECORDER_REPLAY_HOOKS_H

#include "rec_function_ids.h" /* REC_ARG_<function>_<argument> */

/* A fixed address belongs to the traced process, not to the replay. */
#define RP_IN_mmap_flags ((int)rp_r->args[REC_ARG_mmap_flags].i & ~(MAP_FIXED | MAP_FIXED_NOREPLACE))
#define RP_IN_mmap64_flags ((int)rp_r->args[REC_ARG_mmap64_flags].i & ~(MAP_FIXED | MAP_FIXED_NOREPLACE))
/* fcntl's pointer arguments (locks) are not recorded: see rp_fcntl_arg. */
#define RP_IN_fcntl_arg rp_fcntl_arg(rp_x, cmd, (long)rp_r->args[REC_ARG_fcntl_arg].i)
#define RP_IN_fcntl64_arg rp_fcntl_arg(rp_x, cmd, (long)rp_r->args[REC_ARG_fcntl64_arg].i)

#define RP_ADDR_getcwd_buf ((size) ? rp_alloc(rp_x, (size)) : NULL)
#define RP_ADDR___getcwd_chk_buf ((size) ? rp_alloc(rp_x, (size)) : NULL)

/* getline's line: one buffer the replay keeps for every call (of a thread),
 * which getline grows with realloc (never the per-record arena, nor a new one a call). */
static inline char **rp_line_buffer(void)
{
    static _Thread_local char *line;
    return &line;
}
static inline size_t *rp_line_capacity(void)
{
    static _Thread_local size_t capacity;
    return &capacity;
}
#define RP_ADDR_getline_lineptr rp_line_buffer()
#define RP_ADDR_getline_n rp_line_capacity()
#define RP_ADDR_getdelim_lineptr rp_line_buffer()
#define RP_ADDR_getdelim_n rp_line_capacity()
#define RP_ADDR___getdelim_lineptr rp_line_buffer()
#define RP_ADDR___getdelim_n rp_line_capacity()
/* Under optimization glibc's <bits/stdio.h> makes these inline functions
 * (getc_unlocked reads the stream's buffer itself, getline calls
 * __getdelim): the replay must call the C library's own, as the traced
 * program did. A call through a volatile pointer is never inlined. */
#define RP_LIBC_CALL(fn) (*(__typeof__(&fn) volatile[]){&fn})
#define fgetc_unlocked(stream) RP_LIBC_CALL(fgetc_unlocked)(stream)
#define getc_unlocked(stream) RP_LIBC_CALL(getc_unlocked)(stream)
#define fputc_unlocked(c, stream) RP_LIBC_CALL(fputc_unlocked)(c, stream)
#define putc_unlocked(c, stream) RP_LIBC_CALL(putc_unlocked)(c, stream)
#define feof_unlocked(stream) RP_LIBC_CALL(feof_unlocked)(stream)
#define ferror_unlocked(stream) RP_LIBC_CALL(ferror_unlocked)(stream)
#define getline(lineptr, n, stream) RP_LIBC_CALL(getline)(lineptr, n, stream)

/* Out pointers to pointers: storage of the pointer type (the default
 * storage is of the pointed-to element). */
#define RP_ADDR_scandir_namelist (&(struct dirent **){NULL})
#define RP_ADDR_scandir64_namelist (&(struct dirent64 **){NULL})
#define RP_ADDR_scandirat_namelist (&(struct dirent **){NULL})
#define RP_ADDR_scandirat64_namelist (&(struct dirent64 **){NULL})
#define RP_VALUE_H5Pset_fill_value_value rp_alloc(rp_x, 65536) /* a zero fill value */
#define RP_VALUE_H5Tenum_insert_value rp_h5_enum_value(rp_x, type)
#define RP_ADDR_H5Pset_mdc_config_config_ptr rp_h5_mdc_config(rp_x, plist_id, 0)
#define RP_ADDR_H5Pget_mdc_config_config_ptr rp_h5_mdc_config(rp_x, -1, 0)
#define RP_ADDR_H5Fset_mdc_config_config_ptr rp_h5_mdc_config(rp_x, file_id, 1)
#define RP_ADDR_H5Fget_mdc_config_config_ptr rp_h5_mdc_config(rp_x, -1, 1)


/* H5Dgather hands the gathered data to an operator that takes it all (the
 * no-op of functions/operators.def); H5Dscatter's callback hands out the
 * data to scatter, one element of zeros (of op_data's size) at a time. */
typedef struct rp_h5_element {
    size_t size;
    void *bytes;
} rp_h5_element;
static inline void *rp_h5_element_of(rp_ctx *x, hid_t type)
{
    rp_h5_element *e = rp_alloc(x, sizeof *e);
    H5E_BEGIN_TRY
    {
        e->size = type > 0 ? rp_h5.Tget_size(type) : 0;
    }
    H5E_END_TRY
    e->bytes = rp_alloc(x, e->size ? e->size : 1);
    return e;
}
static inline herr_t rp_h5d_scatter_zeros(const void **src_buf, size_t *used, void *data)
{
    const rp_h5_element *e = data;
    if (!e || !e->size)
        return -1;
    *src_buf = e->bytes;
    *used = e->size;
    return 0;
}
#define RP_ADDR_H5Dscatter_op rp_h5d_scatter_zeros
#define RP_ADDR_H5Dscatter_op_data rp_h5_element_of(rp_x, type_id)

/* Values and configurations the trace does not hold: zeros of the size the
 * call reads, never NULL, which some of these calls dereference unchecked (a
 * zeroed driver configuration fails its version check cleanly); a struct of
 * the current version where the call can go through as it is. */
#define RP_ADDR_H5Pset_value rp_alloc(rp_x, 65536)
#define RP_ADDR_H5Pinsert1_value rp_alloc(rp_x, (size) ? (size) : 1)
#define RP_ADDR_H5Pinsert2_value rp_alloc(rp_x, (size) ? (size) : 1)
#define RP_ADDR_H5Pregister1_def_value rp_alloc(rp_x, (size) ? (size) : 1)
#define RP_ADDR_H5Pregister2_def_value rp_alloc(rp_x, (size) ? (size) : 1)
#define RP_ADDR_H5Pset_fapl_ros3_fa rp_alloc(rp_x, sizeof(H5FD_ros3_fapl_t))
#define RP_ADDR_H5Pset_fapl_hdfs_fa rp_alloc(rp_x, sizeof(H5FD_hdfs_fapl_t))
#define RP_ADDR_H5Pset_fapl_splitter_config_ptr rp_alloc(rp_x, sizeof(H5FD_splitter_vfd_config_t))
#define RP_ADDR_H5Pget_fapl_splitter_config_ptr rp_h5_splitter_config(rp_x)
#define RP_ADDR_H5Pset_file_image_callbacks_callbacks_ptr rp_alloc(rp_x, sizeof(H5FD_file_image_callbacks_t))
#define RP_ADDR_H5Pset_mdc_image_config_config_ptr rp_h5_image_config(rp_x)
#define RP_ADDR_H5Zregister_cls rp_alloc(rp_x, sizeof(H5Z_class2_t))
static inline H5FD_splitter_vfd_config_t *rp_h5_splitter_config(rp_ctx *x)
{
    H5FD_splitter_vfd_config_t *c = rp_alloc(x, sizeof *c);
    c->magic = H5FD_SPLITTER_MAGIC;
    c->version = H5FD_CURR_SPLITTER_VFD_CONFIG_VERSION;
    return c;
}
static inline H5AC_cache_image_config_t *rp_h5_image_config(rp_ctx *x)
{
    H5AC_cache_image_config_t *c = rp_alloc(x, sizeof *c);
    c->version = H5AC__CURR_CACHE_IMAGE_CONFIG_VERSION;
    c->entry_ageout = H5AC__CACHE_IMAGE__ENTRY_AGEOUT__NONE;
    return c;
}
/* H5Fget_file_image: room for buf_len bytes (none asked: a size query). */
#define RP_ADDR_H5Fget_file_image_buf_ptr ((buf_len) ? rp_scratch(rp_x, 0, (buf_len)) : NULL)

/* Dataset and attribute data: the memory space's whole extent (the file
 * space's, or the dataset's, under H5S_ALL) times the memory type's size. */
/* Written data: of the compressibility the trace's filters stored, where it says. */
#define RP_BUFFER_H5Dwrite_buf                                                                               \
    rp_h5_filtered(rp_x, dset_id, mem_type_id, mem_space_id, file_space_id,                                  \
                   rp_h5_buffer(rp_x, 1, rp_h5d_span(dset_id, mem_type_id, mem_space_id, file_space_id), mem_type_id))
#define RP_BUFFER_H5Dread_buf                                                                                \
    rp_h5_buffer(rp_x, 0, rp_h5d_span(dset_id, mem_type_id, mem_space_id, file_space_id), mem_type_id)
#define RP_VALUE_H5Awrite_buf rp_h5_buffer(rp_x, 1, rp_h5a_span(attr_id, type_id), type_id)
#define RP_BUFFER_H5Aread_buf rp_h5_buffer(rp_x, 0, rp_h5a_span(attr_id, type_id), type_id)
#define RP_BUFFER_H5Dwrite_chunk_buf rp_scratch(rp_x, 1, (data_size) ? (data_size) : 1)
#define RP_BUFFER_H5Dread_chunk_buf rp_scratch(rp_x, 0, rp_h5_chunk_bytes(dset_id))
/* A user-defined link's value: udata_size bytes of pattern. */
#define RP_BUFFER_H5Lcreate_ud_udata rp_scratch(rp_x, 1, (udata_size) ? (udata_size) : 1)
/* Fill, gather and scatter: buffers that span their dataspace's extent. */
#define RP_BUFFER_H5Dfill_buf                                                                                \
    rp_h5_buffer(rp_x, 0, rp_h5d_span(-1, buf_type_id, space_id, H5S_ALL), buf_type_id)
#define RP_BUFFER_H5Dgather_src_buf                                                                          \
    rp_h5_buffer(rp_x, 1, rp_h5d_span(-1, type_id, src_space_id, H5S_ALL), type_id)
#define RP_BUFFER_H5Dgather_dst_buf rp_scratch(rp_x, 0, (dst_buf_size) ? (dst_buf_size) : 1)
#define RP_BUFFER_H5Dscatter_dst_buf                                                                         \
    rp_h5_buffer(rp_x, 0, rp_h5d_span(-1, type_id, dst_space_id, H5S_ALL), type_id)

#endif
