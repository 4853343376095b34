/* test_h5skel.c: capture, the skeleton file, re-creation (h5skel/). */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec_bytes.h" /* rec_crc32, REC_FILE_HEADER_SIZE */
#include "recorder_h5skel.h"
#include "rk_test.h"
#include "sample.h"

static char dir[256];

/* The test's scratch directory goes when it ends. */
static void remove_dir(void)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.')
            unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

static const char *tmp_path(const char *name)
{
    static char path[512];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/test-h5skel.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(dir))
            abort();
        atexit(remove_dir);
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static h5skel *capture(const char *path)
{
    h5skel *s = NULL;
    char err[1024] = "";
    CU_ASSERT_EQUAL_FATAL(h5skel_capture(path, &s, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    return s;
}

/* The skeleton file of a sample of n datasets at path: its bytes (*s: the skeleton). */
static uint8_t *sample_bytes(const char *path, unsigned n, h5skel **s, size_t *len)
{
    CU_ASSERT_EQUAL_FATAL(h5skel_sample_file(path, n, 1), 0);
    *s = capture(path);
    uint8_t *bytes = h5skel_encode(*s, len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
    return bytes;
}

static int64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

/* Filters that change sizes (deflate) need data that compresses as the
 * original did to keep the addresses after them: fletcher32 keeps sizes. */
RK_TEST(h5skel, a_remade_input_has_the_objects_addresses_and_size_of_the_original)
{
    char original[512], remade[512], err[1024] = "";
    snprintf(original, sizeof original, "%s", tmp_path("original.h5"));
    snprintf(remade, sizeof remade, "%s", tmp_path("remade.h5"));
    /* 250 datasets: groups and datasets HDF5 put in holes of its metadata space */
    CU_ASSERT_EQUAL_FATAL(h5skel_sample_file(original, 250, 0), 0);
    h5skel *a = capture(original);
    /* the file, the named type, 3 groups, 250 datasets with an attribute each, 2 links */
    CU_ASSERT_EQUAL(a->nobjects, 1u + 1 + 3 + 250 * 2 + 2);
    CU_ASSERT_EQUAL(a->objects[0].kind, H5SKEL_FILE);
    CU_ASSERT_EQUAL(a->objects[0].value.data[0], 0); /* superblock 0: the earliest format */
    CU_ASSERT_EQUAL(h5skel_make(a, remade, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    CU_ASSERT_EQUAL(file_size(remade), file_size(original));
    h5skel *b = capture(remade);
    CU_ASSERT_EQUAL_FATAL(b->nobjects, a->nobjects);
    unsigned chunked = 0;
    for (size_t i = 0; i < a->nobjects; i++) {
        const h5skel_object *x = &a->objects[i], *y = &b->objects[i];
        CU_ASSERT_EQUAL(x->kind, y->kind);
        CU_ASSERT_STRING_EQUAL(x->name, y->name);
        CU_ASSERT_STRING_EQUAL(x->other, y->other);
        CU_ASSERT_EQUAL(x->addr, y->addr);
        CU_ASSERT_EQUAL(x->data_addr, y->data_addr);
        CU_ASSERT_EQUAL(x->type.len, y->type.len);
        CU_ASSERT_EQUAL(x->plist.len, y->plist.len);
        CU_ASSERT_EQUAL(x->nchunks, y->nchunks);
        if (x->kind == H5SKEL_DATASET && x->nchunks) {
            chunked++;
            CU_ASSERT_EQUAL(x->nchunks, 4u); /* 64 rows in chunks of 16 */
            CU_ASSERT_EQUAL(x->chunk_offset[x->ndims], 16u);
        }
        if (x->kind == H5SKEL_DATASET)
            CU_ASSERT_EQUAL(x->storage, y->storage);
    }
    CU_ASSERT_EQUAL(chunked, 100u); /* the odd ones but the compact 9, 19, 29, ... */
    h5skel_free(b);
    h5skel_free(a);
}

RK_TEST(h5skel, the_skeleton_file_reads_back_and_damage_is_named)
{
    const char *path = tmp_path("codec.h5");
    h5skel *s;
    size_t len = 0;
    uint8_t *bytes = sample_bytes(path, 12, &s, &len);
    char err[1024] = "";
    h5skel *t = h5skel_decode(bytes, len, "x", err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    size_t len2 = 0;
    uint8_t *again = h5skel_encode(t, &len2);
    CU_ASSERT_EQUAL(len2, len);
    CU_ASSERT(len2 == len && memcmp(again, bytes, len) == 0);
    CU_ASSERT_STRING_EQUAL(t->path, path);
    bytes[len / 2] ^= 1;
    CU_ASSERT_PTR_NULL(h5skel_decode(bytes, len, "x", err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "x: CRC mismatch (the file is damaged)");
    bytes[0] = 'X';
    CU_ASSERT_PTR_NULL(h5skel_decode(bytes, len, "x", err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "x: bad magic at byte 0"));
    free(again);
    free(bytes);
    h5skel_free(t);
    h5skel_free(s);
}

RK_TEST(h5skel, a_trace_directory_gives_each_input_by_its_normalized_path)
{
    const char *path = tmp_path("found.h5");
    h5skel *s;
    size_t len = 0;
    uint8_t *bytes = sample_bytes(path, 3, &s, &len);
    char name[64], file[512];
    h5skel_file_name(path, name, sizeof name);
    snprintf(file, sizeof file, "%s", tmp_path(name));
    FILE *f = fopen(file, "wb");
    CU_ASSERT_EQUAL(fwrite(bytes, 1, len, f), len);
    fclose(f);
    fclose(fopen(tmp_path("h5skel-00000000000000ff"), "wb")); /* claimed, never written: skipped */
    h5skel **all;
    size_t n;
    char err[1024] = "";
    CU_ASSERT_EQUAL_FATAL(h5skel_load_dir(dir, &all, &n, err, sizeof err), 0);
    CU_ASSERT_EQUAL(n, 1u);
    char key[600];
    snprintf(key, sizeof key, "%s/./found.h5", dir);
    CU_ASSERT_PTR_NULL(h5skel_find(all, n, key)); /* a key is normalized */
    snprintf(key, sizeof key, "%s/found.h5", dir);
    CU_ASSERT_PTR_NOT_NULL(h5skel_find(all, n, key));
    h5skel_free_all(all, n);
    unlink(file);
    unlink(tmp_path("h5skel-00000000000000ff"));
    free(bytes);
    h5skel_free(s);
}

RK_TEST(h5skel, a_file_that_cannot_be_read_gives_a_reason_and_leaves_hdf5_as_it_was)
{
    H5E_auto2_t before_fn, after_fn;
    void *before_data, *after_data;
    H5Eget_auto2(H5E_DEFAULT, &before_fn, &before_data);
    h5skel *s = NULL;
    char err[1024] = "";
    CU_ASSERT_EQUAL(h5skel_capture(tmp_path("missing.h5"), &s, err, sizeof err), -1);
    CU_ASSERT_PTR_NULL(s);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "missing.h5: cannot open it read-only"));
    H5Eget_auto2(H5E_DEFAULT, &after_fn, &after_data);
    CU_ASSERT(before_fn == after_fn && before_data == after_data);
    CU_ASSERT_EQUAL(H5Eget_num(H5E_DEFAULT), 0);
}

/* An iteration's operator: the names it is called with, each followed by a space. */
static herr_t name_link(hid_t group, const char *name, const H5L_info_t *info, void *names)
{
    (void)group, (void)info;
    strcat(names, name);
    strcat(names, " ");
    return 0;
}

/* The root group's creation order, which the file's creation properties
 * set and H5Fget_create_plist does not return: a file made the way netCDF-4
 * makes one is remade with links and attributes tracked and indexed by
 * creation order (else its H5Literate by creation order fails). */
RK_TEST(h5skel, a_remade_input_keeps_the_root_groups_creation_order)
{
    char original[512], remade[512], err[1024] = "";
    snprintf(original, sizeof original, "%s", tmp_path("in_order.h5"));
    snprintf(remade, sizeof remade, "%s", tmp_path("in_order_remade.h5"));
    const unsigned order = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE), gcpl = H5Pcreate(H5P_GROUP_CREATE);
    H5Pset_link_creation_order(fcpl, order);
    H5Pset_attr_creation_order(fcpl, order);
    H5Pset_link_phase_change(fcpl, 4, 2);
    H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED);
    hid_t file = H5Fcreate(original, H5F_ACC_TRUNC, fcpl, H5P_DEFAULT);
    CU_ASSERT_FATAL(file >= 0);
    for (const char *const *name = (const char *const[]){"time", "lat", "lon", NULL}; *name; name++)
        H5Gclose(H5Gcreate2(file, *name, H5P_DEFAULT, gcpl, H5P_DEFAULT));
    hid_t space = H5Screate(H5S_SCALAR);
    H5Aclose(H5Acreate2(file, "_NCProperties", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT));
    H5Sclose(space);
    H5Fclose(file);
    H5Pclose(gcpl);
    H5Pclose(fcpl);

    h5skel *s = capture(original);
    CU_ASSERT_PTR_NOT_NULL(strstr(s->objects[0].about, "root group in creation order"));
    CU_ASSERT_EQUAL_FATAL(h5skel_make(s, remade, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    file = H5Fopen(remade, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(file >= 0);
    hid_t root = H5Gopen2(file, "/", H5P_DEFAULT), lat = H5Gopen2(file, "lat", H5P_DEFAULT);
    hid_t root_cpl = H5Gget_create_plist(root), lat_cpl = H5Gget_create_plist(lat);
    unsigned links = 0, attrs = 0, lat_links = 0, max_compact = 0, min_dense = 0;
    char names[64] = "";
    H5Pget_link_creation_order(root_cpl, &links);
    H5Pget_attr_creation_order(root_cpl, &attrs);
    H5Pget_link_phase_change(root_cpl, &max_compact, &min_dense);
    H5Pget_link_creation_order(lat_cpl, &lat_links);
    CU_ASSERT_EQUAL(links, order);
    CU_ASSERT_EQUAL(attrs, order);
    CU_ASSERT_EQUAL(max_compact, 4u);
    CU_ASSERT_EQUAL(min_dense, 2u);
    CU_ASSERT_EQUAL(lat_links, H5P_CRT_ORDER_TRACKED);
    CU_ASSERT(H5Literate(root, H5_INDEX_CRT_ORDER, H5_ITER_INC, NULL, name_link, names) >= 0);
    CU_ASSERT_STRING_EQUAL(names, "time lat lon ");
    H5Pclose(lat_cpl);
    H5Pclose(root_cpl);
    H5Gclose(lat);
    H5Gclose(root);
    H5Fclose(file);
    h5skel_free(s);
}

/* An object's header address, or 0. */
static haddr_t header_address(hid_t obj)
{
    H5O_info_t info;
    return H5Oget_info2(obj, &info, H5O_INFO_BASIC) < 0 ? 0 : info.addr;
}

/* Attributes by meaning: a variable-length string (written, as netCDF-4
 * writes the root's, before the objects) comes back as its text, and
 * references (a DIMENSION_LIST-like sequence, a REFERENCE_LIST-like
 * compound, written as H5DSattach_scale writes them, after the objects)
 * name the objects of the same paths in the remade file, which keep their
 * addresses. */
RK_TEST(h5skel, a_remade_input_keeps_its_strings_and_references_to_its_objects)
{
    char original[512], remade[512], err[1024] = "";
    snprintf(original, sizeof original, "%s", tmp_path("refs.h5"));
    snprintf(remade, sizeof remade, "%s", tmp_path("refs_remade.h5"));
    hid_t file = H5Fcreate(original, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CU_ASSERT_FATAL(file >= 0);
    hsize_t four = 4, one = 1;
    hid_t space = H5Screate_simple(1, &four, NULL), single = H5Screate_simple(1, &one, NULL);
    hid_t scalar = H5Screate(H5S_SCALAR);
    hid_t text = H5Tcopy(H5T_C_S1);
    H5Tset_size(text, H5T_VARIABLE);
    const char *title = "a title";
    hid_t attr = H5Acreate2(file, "title", text, scalar, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, text, &title);
    H5Aclose(attr);
    hid_t scale = H5Dcreate2(file, "x", H5T_NATIVE_FLOAT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t var = H5Dcreate2(file, "v", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hobj_ref_t to_scale, to_var;
    H5Rcreate(&to_scale, file, "/x", H5R_OBJECT, -1);
    H5Rcreate(&to_var, file, "/v", H5R_OBJECT, -1);
    hvl_t list = {1, &to_scale};
    hid_t vlen = H5Tvlen_create(H5T_STD_REF_OBJ);
    attr = H5Acreate2(var, "DIMENSION_LIST", vlen, single, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, vlen, &list);
    H5Aclose(attr);
    struct entry {
        hobj_ref_t ref;
        int dim;
    } back = {to_var, 0}, read_back;
    hid_t pair = H5Tcreate(H5T_COMPOUND, sizeof back);
    H5Tinsert(pair, "dataset", HOFFSET(struct entry, ref), H5T_STD_REF_OBJ);
    H5Tinsert(pair, "dimension", HOFFSET(struct entry, dim), H5T_NATIVE_INT);
    attr = H5Acreate2(scale, "REFERENCE_LIST", pair, single, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, pair, &back);
    H5Aclose(attr);
    haddr_t scale_at = header_address(scale), var_at = header_address(var);
    H5Dclose(var);
    H5Dclose(scale);
    H5Fclose(file);

    h5skel *s = capture(original);
    CU_ASSERT_EQUAL_FATAL(h5skel_make(s, remade, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    file = H5Fopen(remade, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(file >= 0);
    scale = H5Dopen2(file, "x", H5P_DEFAULT);
    var = H5Dopen2(file, "v", H5P_DEFAULT);
    CU_ASSERT_EQUAL(header_address(scale), scale_at);
    CU_ASSERT_EQUAL(header_address(var), var_at);
    char *got = NULL;
    attr = H5Aopen(file, "title", H5P_DEFAULT);
    CU_ASSERT(H5Aread(attr, text, &got) >= 0);
    CU_ASSERT_STRING_EQUAL(got ? got : "", "a title");
    H5free_memory(got);
    H5Aclose(attr);
    hvl_t got_list = {0, NULL};
    attr = H5Aopen(var, "DIMENSION_LIST", H5P_DEFAULT);
    CU_ASSERT(H5Aread(attr, vlen, &got_list) >= 0);
    CU_ASSERT_EQUAL_FATAL(got_list.len, 1u);
    hid_t found = H5Rdereference2(var, H5P_DEFAULT, H5R_OBJECT, got_list.p);
    CU_ASSERT_EQUAL(header_address(found), scale_at);
    H5Dclose(found);
    H5Dvlen_reclaim(vlen, single, H5P_DEFAULT, &got_list);
    H5Aclose(attr);
    attr = H5Aopen(scale, "REFERENCE_LIST", H5P_DEFAULT);
    CU_ASSERT(H5Aread(attr, pair, &read_back) >= 0);
    found = H5Rdereference2(scale, H5P_DEFAULT, H5R_OBJECT, &read_back.ref);
    CU_ASSERT_EQUAL(header_address(found), var_at);
    H5Dclose(found);
    H5Aclose(attr);
    H5Dclose(var);
    H5Dclose(scale);
    H5Fclose(file);
    H5Tclose(pair);
    H5Tclose(vlen);
    H5Tclose(text);
    H5Sclose(scalar);
    H5Sclose(single);
    H5Sclose(space);
    h5skel_free(s);
}

/* netCDF-4 numbers a group's variables by their links' creation order: a
 * skeleton keeps each link's, and an input whose rows make its objects in
 * another order (by address) is remade with its links in the original's
 * order, the objects made out of turn being linked in theirs. */
RK_TEST(h5skel, a_remade_input_links_its_objects_in_their_creation_order)
{
    char original[512], remade[512], err[1024] = "";
    snprintf(original, sizeof original, "%s", tmp_path("corder.h5"));
    snprintf(remade, sizeof remade, "%s", tmp_path("corder_remade.h5"));
    const unsigned order = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    H5Pset_link_creation_order(fcpl, order);
    hid_t file = H5Fcreate(original, H5F_ACC_TRUNC, fcpl, H5P_DEFAULT);
    CU_ASSERT_FATAL(file >= 0);
    hsize_t n = 4;
    hid_t space = H5Screate_simple(1, &n, NULL), scalar = H5Screate(H5S_SCALAR);
    for (const char *const *name = (const char *const[]){"time", "elev", "temp", NULL}; *name; name++) {
        hid_t d = H5Dcreate2(file, *name, H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Aclose(H5Acreate2(d, "units", H5T_NATIVE_INT, scalar, H5P_DEFAULT, H5P_DEFAULT));
        H5Dclose(d);
    }
    H5Sclose(scalar);
    H5Sclose(space);
    H5Fclose(file);
    H5Pclose(fcpl);

    h5skel *s = capture(original);
    CU_ASSERT_EQUAL_FATAL(s->nobjects, 7u); /* the file, 3 datasets and their attributes */
    CU_ASSERT_EQUAL(s->objects[0].corder, -1);
    for (size_t i = 1; i < 7; i += 2) { /* each link's order, the attributes none */
        CU_ASSERT_EQUAL(s->objects[i].corder, (int64_t)(i - 1) / 2);
        CU_ASSERT_EQUAL(s->objects[i + 1].corder, -1);
    }
    /* made time last (as a growing variable whose data came last is): rows 1-2 after 5-6 */
    h5skel_object time[2] = {s->objects[1], s->objects[2]};
    memmove(&s->objects[1], &s->objects[3], 4 * sizeof *s->objects);
    s->objects[5] = time[0], s->objects[6] = time[1];
    CU_ASSERT_EQUAL_FATAL(h5skel_make(s, remade, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    file = H5Fopen(remade, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(file >= 0);
    char names[64] = "";
    CU_ASSERT(H5Literate(file, H5_INDEX_CRT_ORDER, H5_ITER_INC, NULL, name_link, names) >= 0);
    CU_ASSERT_STRING_EQUAL(names, "time elev temp ");
    for (const char *const *name = (const char *const[]){"time", "elev", "temp", NULL}; *name; name++)
        CU_ASSERT(H5Aexists_by_name(file, *name, "units", H5P_DEFAULT) > 0);
    H5Fclose(file);
    h5skel_free(s);
}

/* A skeleton of format 1.4 kept an attribute's value as its bytes: it
 * reads as the record by meaning of that image (no patches). */
RK_TEST(h5skel, a_format_1_4_skeletons_values_read_as_records)
{
    /* a 1.4 writer's file, by hand: the header, codec 0, raw size, the body, its CRC; the body: path,
     * file size, capture cost, 2 rows (the file; an attribute n of / of 4 bytes) and no creation orders */
    rec_buf body = {0}, b = {0};
    rec_put_cstr(&body, "/in.h5");
    rec_put_varint(&body, 0);
    rec_put_varint(&body, 0);
    rec_put_varint(&body, 2);
    const uint8_t value[4] = {7, 0, 0, 0};
    for (int row = 0; row < 2; row++) {
        rec_put_u8(&body, row ? H5SKEL_ATTRIBUTE : H5SKEL_FILE);
        rec_put_cstr(&body, "/");
        rec_put_cstr(&body, row ? "n" : "");
        for (int field = 0; field < 4; field++) /* type, space, plist, value */
            rec_put_str(&body, value, row && field == 3 ? sizeof value : 0);
        rec_put_cstr(&body, ""); /* about */
        rec_put_varint(&body, 0);
        rec_put_svarint(&body, -1);
        rec_put_varint(&body, 0);
        rec_put_varint(&body, 0);
        rec_put_varint(&body, 0);
    }
    rec_put_file_header(&b, H5SKEL_MAGIC);
    rec_put_u8(&b, REC_CODEC_NONE);
    uint32_t raw = (uint32_t)body.len;
    rec_put_bytes(&b, &raw, sizeof raw);
    rec_put_bytes(&b, body.data, body.len);
    CU_ASSERT_FATAL(!b.oom && b.len > REC_FILE_HEADER_SIZE);
    b.data[10] = 4, b.data[11] = 0; /* the header's minor version, little-endian */
    uint32_t crc = rec_crc32(0, b.data, b.len);
    rec_put_bytes(&b, &crc, 4);
    uint8_t *bytes = b.data;
    size_t len = b.len;
    rec_buf_free(&body);
    char err[1024] = "";
    h5skel *old = h5skel_decode(bytes, len, "old", err, sizeof err);
    CU_ASSERT_STRING_EQUAL(err, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(old);
    const uint8_t want[] = {4, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0};
    CU_ASSERT_EQUAL_FATAL(old->objects[1].value.len, sizeof want);
    CU_ASSERT_EQUAL(memcmp(old->objects[1].value.data, want, sizeof want), 0);
    CU_ASSERT_EQUAL(old->objects[0].corder, -1); /* no creation orders before 1.8 */
    CU_ASSERT_EQUAL(old->objects[1].corder, -1);
    h5skel_free(old);
    free(bytes);
}

/* As netCDF-4 writes a file: every variable defined (growing datasets of
 * no records yet), then their records, then an attribute of the root made
 * after its header filled up. The skeleton holds the data rows ('w') and
 * the attribute's continuation chunk; the remade file has the original's
 * size and every object at its address. */
RK_TEST(h5skel, a_remade_input_writes_records_and_late_attributes_where_the_original_did)
{
    char original[512], remade[512], err[1024] = "";
    snprintf(original, sizeof original, "%s", tmp_path("records.h5"));
    snprintf(remade, sizeof remade, "%s", tmp_path("records_remade.h5"));
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST);
    hid_t file = H5Fcreate(original, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    CU_ASSERT_FATAL(file >= 0);
    hsize_t none[2] = {0, 64}, grown[2] = {4, 64}, most[2] = {H5S_UNLIMITED, 64}, chunk[2] = {1, 64};
    hid_t empty = H5Screate_simple(2, none, most), dcpl = H5Pcreate(H5P_DATASET_CREATE),
          scalar = H5Screate(H5S_SCALAR);
    H5Pset_chunk(dcpl, 2, chunk);
    const char *const names[] = {"T", "P", "Q"};
    hid_t vars[3], text = H5Tcopy(H5T_C_S1);
    H5Tset_size(text, 400);
    for (int v = 0; v < 3; v++) { /* each header past the metadata block of the one before */
        vars[v] = H5Dcreate2(file, names[v], H5T_NATIVE_FLOAT, empty, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        for (int a = 0; a < 6; a++) {
            char attr[16];
            snprintf(attr, sizeof attr, "a%d", a);
            H5Aclose(H5Acreate2(vars[v], attr, text, scalar, H5P_DEFAULT, H5P_DEFAULT));
        }
    }
    static float rows[4 * 64];
    for (int v = 0; v < 3; v++) {
        H5Dset_extent(vars[v], grown);
        H5Dwrite(vars[v], H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows);
    }
    for (int a = 0; a < 4; a++) { /* the root's header fills up */
        char attr[16];
        snprintf(attr, sizeof attr, "late%d", a);
        H5Aclose(H5Acreate2(file, attr, text, scalar, H5P_DEFAULT, H5P_DEFAULT));
    }
    H5Tclose(text);
    haddr_t at[3];
    for (int v = 0; v < 3; v++) {
        at[v] = header_address(vars[v]);
        H5Dclose(vars[v]);
    }
    H5Fclose(file);

    h5skel *s = capture(original);
    unsigned data_rows = 0, late = 0;
    for (size_t i = 0; i < s->nobjects; i++) {
        data_rows += s->objects[i].kind == H5SKEL_DATA;
        late +=
            s->objects[i].kind == H5SKEL_ATTRIBUTE && !strcmp(s->objects[i].name, "/") && s->objects[i].addr;
    }
    CU_ASSERT(data_rows >= 2);
    CU_ASSERT(late >= 1);
    CU_ASSERT_EQUAL_FATAL(h5skel_make(s, remade, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    struct stat a, b;
    CU_ASSERT(stat(original, &a) == 0 && stat(remade, &b) == 0 && a.st_size == b.st_size);
    file = H5Fopen(remade, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(file >= 0);
    for (int v = 0; v < 3; v++) {
        hid_t d = H5Dopen2(file, names[v], H5P_DEFAULT);
        CU_ASSERT_EQUAL(header_address(d), at[v]);
        H5Dclose(d);
    }
    H5Fclose(file);
    H5Sclose(scalar);
    H5Pclose(dcpl);
    H5Sclose(empty);
    H5Pclose(fapl);
    h5skel_free(s);
}
